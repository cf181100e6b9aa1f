// _Scenario._explore: the joint hardware x parallelism exploration `tessera explore` runs (on a
// serve scenario the serving study per hardware point) through its façade entry
// (studies/entries/explore_entry.hpp), returning the document its --json writes.
#include <pybind11/stl.h>

#include <optional>

#include "bindings.hpp"
#include "interruptible.hpp"
#include "py_json.hpp"
#include "studies/entries/explore_entry.hpp"
#include "studies/plugin_isolation.hpp"
#include "thread_count.hpp"
#include "whole_worker.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object explore(const ScenarioHandle& h, bool sensitivity, std::optional<unsigned> threads,
                   py::object progress, const std::string& isolate) {
  studies::ExploreStudyOptions eo;
  eo.sensitivity = sensitivity;
  eo.threads = thread_count(threads);
  Interruptible guard(std::move(progress));
  eo.on_progress = [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); };
  // Isolated: the whole study in a `tessera explore` worker (whole_worker.hpp), so that this
  // process never creates the plugins: one that dies there is a PluginError here.
  std::vector<std::string> arguments;
  if (!sensitivity) arguments.push_back("--no-sensitivity");
  if (threads) arguments.insert(arguments.end(), {"--threads", std::to_string(*threads)});
  const ResultsFile results;
  studies::StudyWorkers workers = whole_study_workers("explore", h, isolate, arguments, results, guard);
  std::optional<studies::ExploreEntry> entry;
  studies::ExploreStudyResult result;
  if (auto document = study_here_or_in_worker(workers, results, guard, [&](studies::StudyWorkers& w) {
        w.before_session(h.scenario(), h.added_plugins());
        entry.emplace(h);            // a step scenario's search plugin and cost objective
        eo.executor = w.executor();  // MPI ranks when launched by mpirun; else null (threads)
        result = entry->compute(eo);
      }))
    return to_python(*document);
  return to_python(entry->document(result, eo));
}

}  // namespace

void bind_explore(ScenarioClass& c) {
  c.def("_explore", &explore, py::arg("sensitivity") = true, py::arg("threads") = py::none(),
        py::arg("progress") = py::none(), py::arg("isolate") = "auto");
}

}  // namespace tessera::python
