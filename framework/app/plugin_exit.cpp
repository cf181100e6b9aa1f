// exit(), as the `tessera` executable defines it (exported alone: app/plugin_exit.list). A
// plugin's call to exit() resolves here before the C library's. In a worker process inside a
// plugin call (host/call_trace.hpp) it tells the parent the call and ends the process at once
// with the plugin's status: a whole study's other threads cannot then crash in the static
// destructors first and hide the exit behind a signal (docs/plugin-guide.md "What the host
// guarantees"). Anywhere else it is the C library's exit().
#include <dlfcn.h>
#include <unistd.h>

#include "studies/plugin_isolation.hpp"

extern "C" void exit(int status) noexcept {
  if (tessera::studies::plugin_exit_in_worker()) ::_exit(status);
  using Exit = void (*)(int);
  static const Exit library_exit = reinterpret_cast<Exit>(::dlsym(RTLD_NEXT, "exit"));
  library_exit(status);
  ::_exit(status);  // not reached
}
