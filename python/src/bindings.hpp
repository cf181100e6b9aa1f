#pragma once
// The parts of the extension module, one concept per file; module.cpp calls each once.
#include <pybind11/pybind11.h>

#include "scenario_handle.hpp"

namespace tessera::python {

using ScenarioClass = pybind11::class_<ScenarioHandle>;

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
