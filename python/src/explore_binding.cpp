// _Scenario._explore: the joint hardware x parallelism exploration `tessera explore` runs (on a
// serve scenario the serving study per hardware point) through its façade entry
// (studies/entries/explore_entry.hpp), returning the document its --json writes.
#include <pybind11/stl.h>

#include <optional>

#include "bindings.hpp"
#include "interruptible.hpp"
#include "py_json.hpp"
#include "studies/entries/explore_entry.hpp"
#include "thread_count.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object explore(const ScenarioHandle& h, bool sensitivity, std::optional<unsigned> threads,
                   py::object progress) {
  const studies::ExploreEntry entry(h);  // a step scenario's search plugin and cost objective
  studies::ExploreStudyOptions eo;
  eo.sensitivity = sensitivity;
  eo.threads = thread_count(threads);
  Interruptible guard(std::move(progress));
  eo.on_progress = [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); };
  studies::ExploreStudyResult result;
  guard.run([&] { result = entry.compute(eo); });
  return to_python(entry.document(result, eo));
}

}  // namespace

void bind_explore(ScenarioClass& c) {
  c.def("_explore", &explore, py::arg("sensitivity") = true, py::arg("threads") = py::none(),
        py::arg("progress") = py::none());
}

}  // namespace tessera::python
