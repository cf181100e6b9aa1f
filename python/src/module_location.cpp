#include "module_location.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>

#include "module_paths.hpp"

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
  // The build tree's package folder (<build>/python/tessera) holds the marker the build writes
  // and the install leaves out: its prefix is the build tree, two folders up. No absolute path of
  // the build is compiled in, so a copied build tree works from where it lies.
  std::error_code ec;
  if (fs::exists(package / TESSERA_PY_BUILD_TREE_MARKER, ec))
    return (package / ".." / "..").lexically_normal().string();
  return (package / TESSERA_PY_PACKAGE_TO_PREFIX).lexically_normal().string();
}

}  // namespace tessera::python
