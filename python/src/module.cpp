// The extension module tessera._tessera; the public API is python/tessera/__init__.py.
#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "core/program_location.hpp"
#include "core/workers/mpi_job.hpp"
#include "errors.hpp"
#include "module_location.hpp"
#include "studies/installation.hpp"
#include "tessera/limits.hpp"
#include "tessera/version.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_tessera, m) {
  m.doc() = "Tessera's engine (the C++ framework library); use the `tessera` package.";
  // Plugins and data from the module's own prefix (python3 is the executable).
  tessera::set_program_prefix(tessera::python::module_prefix());
  // A plugin whose static initialiser throws or crashes must not end the user's interpreter:
  // each library is opened by a child process first (studies/installation.hpp; PluginError).
  tessera::studies::probe_plugin_loads();
  m.attr("__version__") = tessera::kVersion;
  m.def("_module_prefix", &tessera::python::module_prefix,
        "the prefix the module finds plugins and data under");
  // The package holds the values it converts (dicts, set= values) to the limits files have.
  m.def(
      "_limit", [](const std::string& name) { return tessera::limit_value(name); }, py::arg("name"),
      "the value in force of a limit of docs/limits.md (\"yaml.depth\")");
  tessera::python::register_error_translation(m);
  tessera::python::ScenarioClass scenario(m, "_Scenario", "a loaded scenario (use tessera.Scenario)");
  tessera::python::bind_scenario(scenario);
  tessera::python::bind_run(scenario);
  tessera::python::bind_evaluate(scenario);
  tessera::python::bind_serve(scenario);
  tessera::python::bind_compare(scenario);
  tessera::python::bind_sensitivity(scenario);
  tessera::python::bind_explore(scenario);
  tessera::python::bind_plugins(m);
  tessera::python::bind_validate(m);
  // Under an MPI launcher the module joins the job at its first study, never here (at import);
  // the job is left at the interpreter's exit (core/workers/mpi_job.hpp).
  m.def("_mpi_rank", &tessera::workers::mpi_rank,
        "this process's MPI rank (its launcher's before the first study; 0 outside a job)");
  m.def("_mpi_ranks", &tessera::workers::mpi_ranks, "the MPI job's rank count (1 outside a job)");
  py::module_::import("atexit").attr("register")(
      py::cpp_function([] { tessera::workers::leave_mpi_job(0); }));
}
