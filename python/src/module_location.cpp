#include "module_location.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>

#include "host/plugin_discovery.hpp"
#include "module_paths.hpp"
#include "tessera_build_paths.hpp"

namespace fs = std::filesystem;

namespace tessera::python {

std::string module_file() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&module_file), &info) == 0 || !info.dli_fname) return {};
  return info.dli_fname;
}

std::string module_prefix() {
  const std::string file = module_file();
  if (file.empty()) return {};
  const fs::path package = fs::path(file).parent_path();
  if (canonical_key(package.string()) == canonical_key(TESSERA_PY_BUILD_PACKAGE_DIR))
    return TESSERA_BINARY_DIR;
  return (package / TESSERA_PY_PACKAGE_TO_PREFIX).lexically_normal().string();
}

}  // namespace tessera::python
