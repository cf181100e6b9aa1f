// _Scenario._explore: the joint hardware x parallelism exploration `tessera explore` runs
// (analysis/exploration.hpp; on a serve scenario the serving study per hardware point,
// analysis/serve_exploration.hpp), returning the document its --json writes.
#include <pybind11/stl.h>

#include <optional>

#include "analysis/exploration.hpp"
#include "analysis/serve_exploration.hpp"
#include "bindings.hpp"
#include "eval/cost_objective.hpp"
#include "interruptible.hpp"
#include "py_json.hpp"
#include "report/explore_report.hpp"
#include "report/serve_explore_report.hpp"
#include "thread_count.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object explore(const ScenarioHandle& h, bool sensitivity, std::optional<unsigned> threads,
                   py::object progress) {
  if (h.scenario().workload.mode == Mode::serve) {
    // A serve scenario: the serving study at every hardware point, as `tessera explore` runs it.
    ServeExploreOptions so;
    so.threads = thread_count(threads);
    Interruptible guard(std::move(progress));
    so.on_progress = [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); };
    std::optional<ServeExploreResult> result;
    guard.run([&] { result.emplace(explore_serving(h.session(), so)); });
    return to_python(with_provenance(serve_explore_json(h.session(), *result), h.registry()));
  }
  const auto strategy = h.registry().create_search(h.scenario().plugins.search);
  const auto cost = create_cost_objective(h.scenario(), h.registry());
  ExploreOptions eo;
  eo.search.threads = thread_count(threads);
  eo.search.top = 1;
  eo.sensitivity = sensitivity;
  Interruptible guard(std::move(progress));
  eo.on_progress = [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); };
  std::optional<ExploreResult> result;
  guard.run([&] { result.emplace(explore_hardware(h.session(), *strategy, *cost, eo)); });
  return to_python(with_provenance(explore_json(h.session(), *result), h.registry()));
}

}  // namespace

void bind_explore(ScenarioClass& c) {
  c.def("_explore", &explore, py::arg("sensitivity") = true, py::arg("threads") = py::none(),
        py::arg("progress") = py::none());
}

}  // namespace tessera::python
