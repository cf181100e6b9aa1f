#pragma once
// nlohmann::json to Python objects (dict, list, str, int, float, bool, None): the module hands
// back the very documents the CLI's --json writes (report/*), so both say the same.
#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>

namespace tessera::python {

pybind11::object to_python(const nlohmann::json& j);

}  // namespace tessera::python
