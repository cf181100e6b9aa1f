#include "studies/installation.hpp"

#include "host/load_probe.hpp"
#include "host/plugin_discovery.hpp"
#include "scenario/data_roots.hpp"

namespace tessera::studies {

std::vector<std::string> default_plugin_search_path() { return plugin_search_path({}, true); }

void probe_plugin_loads() { set_plugin_load_probe(true); }
void probe_added_plugin_loads() { set_plugin_load_probe_outside_shipped(true); }

std::string shipped_data() { return shipped_data_root(); }

}  // namespace tessera::studies
