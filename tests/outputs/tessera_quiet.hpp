#pragma once
// The built `tessera` run end to end through the shell: ARGS and -q, stdout to /dev/null, stderr
// into a file, the shipped data and no plugin path from the environment; its exit status (-1 when
// it did not exit).
#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "tessera_build_paths.hpp"

namespace tessera::test {

inline int tessera_quiet(const std::string& args, const std::string& err) {
  const std::string cmd = "TESSERA_PLUGIN_PATH= TESSERA_DATA_DIR=" + std::string(TESSERA_SOURCE_DIR) + " " +
                          TESSERA_BINARY_DIR + "/bin/tessera " + args + " -q >/dev/null 2>" + err;
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

}  // namespace tessera::test
