#pragma once
// The parts of the extension module, one concept per file; module.cpp calls each once.
#include <pybind11/pybind11.h>

#include <string>

#include "interruptible.hpp"
#include "studies/plugin_isolation.hpp"
#include "studies/study_context.hpp"

namespace tessera::python {

// One loaded scenario in Python: the study preamble the CLI shares (studies/study_context.hpp),
// its registry shared by every scenario of the same plugin path.
using ScenarioHandle = studies::StudyContext;
using ScenarioClass = pybind11::class_<ScenarioHandle>;

// InputError at workload.mode unless the scenario is a step study (serve = false) or a serving
// one (serve = true); `use` says what to call instead.
inline void require_mode(const ScenarioHandle& h, bool serve, const std::string& use) {
  studies::require_kind(h.scenario(), serve ? studies::StudyKind::serve : studies::StudyKind::step,
                        std::string("workload.mode is ") + (serve ? "not serve" : "serve") + ": use " + use,
                        h.scenario().file);
}

// A scenario of Python's plugin path: its registry shared (studies::shared_registry).
inline studies::ScenarioOptions python_options(const std::vector<std::string>& plugin_path,
                                               LoadOptions load = {}) {
  studies::ScenarioOptions o;
  o.load = std::move(load);
  o.plugin_paths = plugin_path;
  o.shared_registry = true;
  o.lazy_session = true;  // an isolated study never creates its plugins here
  return o;
}

// `o` whose plugins a worker process creates first when one comes from outside the shipped
// folder (studies::probe_plugin_setup), when this process creates them (its session's first
// use: an in-process study, evaluate()): a plugin that crashes in its factory is a PluginError,
// not the end of the interpreter.
inline studies::ScenarioOptions with_setup_probe(studies::ScenarioOptions o) {
  o.before_session = [probe = o](const Scenario& scenario, bool added) {
    // Ctrl-C while the worker creates them (in a study's run(), or with the GIL held).
    studies::probe_plugin_setup(probe, scenario, added, [] { Interruptible::check_signals_here(); });
  };
  return o;
}

// "auto", "on", "off": Scenario.run / .explore(isolate=None, True, False).
inline studies::Isolation isolation_of(const std::string& mode) {
  if (mode == "on") return studies::Isolation::on;
  if (mode == "off") return studies::Isolation::off;
  return studies::Isolation::automatic;
}

void bind_scenario(ScenarioClass& c);      // scenario_binding.cpp: load, from_text, properties
void bind_run(ScenarioClass& c);           // run_binding.cpp: run, explain
void bind_evaluate(ScenarioClass& c);      // evaluate_binding.cpp: the columnar batch
void bind_serve(ScenarioClass& c);         // serve_binding.cpp: the serving study
void bind_compare(ScenarioClass& c);       // compare_binding.cpp: latency models compared
void bind_sensitivity(ScenarioClass& c);   // sensitivity_binding.cpp: one-knob sweeps, elasticities
void bind_explore(ScenarioClass& c);       // explore_binding.cpp: hardware x parallelism
void bind_plugins(pybind11::module_& m);   // plugins_binding.cpp: plugins()
void bind_validate(pybind11::module_& m);  // validate_binding.cpp: validate_data()

}  // namespace tessera::python
