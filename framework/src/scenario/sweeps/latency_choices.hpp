#pragma once
// The latency models a comparison uses, by name (`tessera compare --latency`, the Python
// module's tessera.compare): a model the scenario already configures keeps its parameters, any
// other is a plain choice located at `where` (the command line). Empty `names`: the scenario's.
#include <string>
#include <vector>

#include "scenario/scenario.hpp"
#include "tessera/export.hpp"

namespace tessera {

TESSERA_API std::vector<PluginChoice> latency_choices(const Scenario& scenario,
                                                      const std::vector<std::string>& names,
                                                      const SourceLocation& where);

}  // namespace tessera
