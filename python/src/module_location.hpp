#pragma once
// Where the module's plugins and data are: the prefix the running _tessera extension belongs
// to, found from the extension's own file (dladdr), never from the executable (python3).
#include <string>

namespace tessera::python {

// The extension's file ("" when unknown).
std::string module_file();
// This build tree's folder when the extension is the one this build wrote into
// build/python/tessera/, else the prefix it is installed under (<package>/<way to prefix>).
std::string module_prefix();

}  // namespace tessera::python
