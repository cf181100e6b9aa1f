#pragma once
// nlohmann::json to Python objects (dict, list, str, int, float, bool, None): the module hands
// back the very documents the CLI's --json writes (report/*), so both say the same.
#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>

#include "studies/json/provenance.hpp"

namespace tessera::python {

pybind11::object to_python(const nlohmann::json& j);

// `doc` with `provenance` (studies/json/provenance.hpp), as the CLI's --json has it. The module's
// registry is shared by every scenario of one plugin path, so its plugins are every library the
// Python process has loaded so far (docs/python.md).
inline nlohmann::json with_provenance(nlohmann::json doc, const PluginRegistry& registry) {
  doc["provenance"] = provenance_json(registry);
  return doc;
}

}  // namespace tessera::python
