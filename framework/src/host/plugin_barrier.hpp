#pragma once
// The exception barrier: every call into plugin code goes through call_plugin. Whatever the
// plugin throws is caught, its message copied while the exception object (which may live in
// the plugin's memory) is still valid, and a host error naming the plugin's id, version and
// path is thrown instead:
//   plugin latency/x 1.0.0 (/path/libtessera_latency_x.so): <message>
//   plugin latency/x 1.0.0 (/path/libtessera_latency_x.so) failed to create: <message>
// An InputError from the plugin (a parameter combination it rejects) stays an InputError
// (exit status 2); anything else becomes a PluginError (exit status 1).
// A try block costs nothing when nothing is thrown, so hot paths may use it too.
// The registry's objects call it themselves: guarded_plugins.hpp wraps every object it creates
// in a proxy whose every method goes through call_plugin and checks what comes back.
#include <string>
#include <string_view>
#include <utility>

#include "host/call_trace.hpp"
#include "host/plugin_registry.hpp"
#include "tessera/error.hpp"

namespace tessera {

// "plugin latency/x 1.0.0 (PATH)".
TESSERA_API std::string describe_plugin(const LoadedPlugin& plugin);

// Throws the host error for a failed call: `<describe_plugin>[ <action>]: <message>`.
[[noreturn]] TESSERA_API void throw_plugin_failure(const LoadedPlugin& plugin, std::string_view action,
                                                   const std::string& message, bool input_error);

// Rethrows the exception being handled (call only inside a catch block) as the host error for
// a failed call: the message is copied while the plugin's exception object is still alive. A
// thread cancellation (abi::__forced_unwind) keeps unwinding. Out of line and cold, so that
// call_plugin's normal path holds nothing but the call.
[[noreturn]] TESSERA_API void rethrow_plugin_failure(const LoadedPlugin& plugin, std::string_view action);

// Calls `f()` (plugin code) behind the barrier and returns its result. `call` names the call
// ("time_step") for a worker's crash report (host/call_trace.hpp); `action` is inserted before
// the message ("failed to create"); leave it empty for a plain call.
template <class F>
decltype(auto) call_plugin(const LoadedPlugin& plugin, const char* call, F&& f,
                           std::string_view action = {}) {
  const CallMark mark(plugin, call);
  try {
    return std::forward<F>(f)();
  } catch (...) {
    rethrow_plugin_failure(plugin, action);
  }
}

}  // namespace tessera
