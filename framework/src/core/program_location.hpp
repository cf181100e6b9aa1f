#pragma once
// Where the running program's own files are: the folder its executables live in (bin/), from
// which the installed plugins (../lib/tessera/plugins) and data (../share/tessera) are found.
// By default the folder of the running executable (/proc/self/exe). A host that embeds the
// library in another program (the Python module, whose executable is python3) names the
// prefix it was installed under instead, before it loads any plugin or scenario.
#include <string>

#include "tessera/export.hpp"

namespace tessera {

// <prefix>/bin when a prefix was set, else the running executable's folder ("" when unknown).
TESSERA_API std::string program_bin_dir();
// Sets the prefix (a folder holding bin/, lib/, share/); "" restores the executable's folder.
TESSERA_API void set_program_prefix(const std::string& prefix);

}  // namespace tessera
