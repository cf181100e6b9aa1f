#pragma once
// Where this program finds its plugins and its data (docs/architecture.md "The study façade"), for
// the front ends: `tessera --version` prints the plugin path, the Python module asks for each
// plugin library to be opened by a child process first, `serve --deploy` names the shipped
// frameworks.
#include <string>
#include <vector>

#include "tessera/export.hpp"

namespace tessera::studies {

// The default plugin search path, in order (host/plugin_discovery.hpp: TESSERA_PLUGIN_PATH, the
// build tree's plugins, <program bin dir>/../lib/tessera/plugins).
TESSERA_API std::vector<std::string> default_plugin_search_path();

// Each plugin library is opened by a child process first (host/load_probe.hpp), so one whose
// static initialiser throws or crashes cannot end the embedding process (the Python module).
TESSERA_API void probe_plugin_loads();
// The same for the libraries outside the shipped plugin folder only (the `tessera` executable:
// a static initialiser of a library the user added that throws, aborts, exits or never returns
// is reported by name and the command goes on without it).
TESSERA_API void probe_added_plugin_loads();

// The shipped data: <dir of tessera>/../share/tessera, else the source tree
// (scenario/data_roots.hpp).
TESSERA_API std::string shipped_data();

}  // namespace tessera::studies
