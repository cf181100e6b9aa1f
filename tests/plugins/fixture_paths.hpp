#pragma once
// Where the fixture plugins of tests/plugins/fixtures are built: one folder per case.
#include <string>
#include "tessera_build_paths.hpp"

namespace tessera::test {

inline std::string fixture_dir(const std::string& c) {
  return std::string(TESSERA_TEST_PLUGIN_DIR) + "/" + c;
}
inline std::string fixture_lib(const std::string& c, const std::string& name) {
  return fixture_dir(c) + "/libtessera_" + name + ".so";
}

}  // namespace tessera::test
