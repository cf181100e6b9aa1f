// tessera.plugins(): every plugin the search path holds, as `tessera plugins --json` lists them
// (studies/entries/plugins_entry.hpp), and the libraries that failed to load.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "py_json.hpp"
#include "studies/entries/plugins_entry.hpp"

namespace py = pybind11;

namespace tessera::python {

void bind_plugins(py::module_& m) {
  m.def(
      "_plugins",
      [](const std::vector<std::string>& plugin_path) {
        const auto registry = studies::shared_registry(plugin_path);
        registry->discover();
        py::list failures;
        for (const auto& f : registry->failures()) failures.append(py::make_tuple(f.path, f.message));
        return py::make_tuple(to_python(studies::plugins(*registry).document), failures,
                              registry->search_path());
      },
      py::arg("plugin_path"));
}

}  // namespace tessera::python
