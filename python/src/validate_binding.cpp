// tessera.validate_data: the study `tessera validate-data` runs (analysis/accuracy/accuracy_study.hpp: each
// measured row mapped through the alias table and predicted by each latency model), returning
// the document its --json writes, through its façade entry (studies/entries/validate_data_entry.hpp).
#include <pybind11/stl.h>

#include <optional>

#include "bindings.hpp"
#include "interruptible.hpp"
#include "py_json.hpp"
#include "studies/documents/accuracy_document.hpp"
#include "studies/entries/validate_data_entry.hpp"
#include "studies/study_context.hpp"
#include "whole_worker.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object validate_data(const std::string& csv, const std::vector<std::string>& latency,
                         const std::string& aliases, bool latency_only, std::optional<std::string> serving,
                         const std::vector<std::string>& plugin_path, py::object progress, bool simulate,
                         const std::string& isolate) {
  const studies::ValidateDataEntry entry(studies::shared_registry(plugin_path));
  studies::ValidateDataOptions vd;
  vd.latency = latency;
  vd.latency_only = latency_only;
  vd.aliases = aliases;
  vd.serving = serving.value_or(studies::default_validation_serving());
  vd.simulate = simulate;
  vd.who = "validate_data";
  Interruptible guard(std::move(progress));
  vd.on_progress = [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); };
  const accuracy::ValidateOptions plan = entry.plan(vd);
  // With a latency plugin from outside the shipped folder, the whole study in a `tessera
  // validate-data` worker (whole_worker.hpp).
  bool added = false;
  std::string names;
  for (const std::string& n : plan.latency) {
    added = added || studies::added_plugin(entry.registry(), PluginKind::latency, n);
    names += (names.empty() ? "" : ",") + n;
  }
  std::vector<std::string> arguments = {"validate-data", csv, "--latency", names, "--serving", vd.serving};
  if (!aliases.empty()) arguments.insert(arguments.end(), {"--aliases", aliases});
  if (latency_only) arguments.push_back("--latency-only");
  if (simulate) arguments.push_back("--simulate");
  for (const std::string& p : plugin_path) arguments.insert(arguments.end(), {"--plugin-path", p});
  const ResultsFile results;
  studies::StudyWorkers workers = whole_workers(arguments, isolate, results, guard);
  std::string document;
  if (auto in_worker = study_here_or_in_worker(workers, results, guard, [&](studies::StudyWorkers& w) {
        w.before_command(added);
        document = accuracy::reports_json(entry.compute(csv, plan));
      }))
    return to_python(*in_worker);
  return to_python(with_provenance(nlohmann::json::parse(document), entry.registry()));
}

}  // namespace

void bind_validate(pybind11::module_& m) {
  m.def("_validate_data", &validate_data, py::arg("csv"), py::arg("latency"), py::arg("aliases"),
        py::arg("latency_only"), py::arg("serving"), py::arg("plugin_path"), py::arg("progress") = py::none(),
        py::arg("simulate") = false, py::arg("isolate") = "auto");
}

}  // namespace tessera::python
