#pragma once
// What this build of Tessera was built from, for the provenance of every saved result
// (studies/json/provenance.hpp). Defined in a source generated at build time (cmake/build_info.cpp.in,
// written by cmake/TesseraBuildInfo.cmake on every build, replaced only when a value changed).
#include "tessera/export.hpp"

namespace tessera {

// The git commit of the source tree the build compiled (40 hex digits); "unknown" when the
// source tree is not a git checkout or git is absent.
TESSERA_API const char* build_commit();
// CMAKE_BUILD_TYPE (Release, Debug, RelWithDebInfo, ...).
TESSERA_API const char* build_type();
// The sanitizers compiled in: "address,undefined" (TESSERA_SANITIZE) or "none".
TESSERA_API const char* build_sanitizers();
// The compiler: "<CMAKE_CXX_COMPILER_ID> <CMAKE_CXX_COMPILER_VERSION>" ("GNU 12.2.0").
TESSERA_API const char* build_compiler();

}  // namespace tessera
