#pragma once
// A study sized and checked before it starts (docs/limits.md "Work"): the search's `samples`
// bound and the study's evaluations against the limit max_configs, as diagnostics.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eval/work_size.hpp"
#include "host/plugin_registry.hpp"
#include "scenario/scenario.hpp"
#include "tessera/error.hpp"
#include "tessera/export.hpp"

namespace tessera {

// What a study searches, beyond one search of the scenario's machine.
struct StudyShape {
  std::uint64_t machines = 1;        // machines searched (hardware grid points, perturbed machines)
  std::uint64_t latency_models = 1;  // compare: every configuration with each
};

// The grid's valid configurations counted on the scenario's machine (and, serving, on each
// pool's own machine: the most), without evaluating any; the walk stops once the count passes
// what max_configs (or `samples`) allows. Not counted (tuples == 0) when a hardware axis
// changes the machine's size (a level's fanout or dims): the grid's points stand for them.
TESSERA_API ConfigCount count_configurations(const Scenario& scenario, const StudyShape& shape,
                                             std::optional<std::uint64_t> samples);

// The problems that would make the study refuse to start: the search's `samples` above the
// limit search.samples (at the parameter), evaluations above max_configs (at the scenario).
// Appends to `diags`; returns the size (valid even when problems were found).
TESSERA_API WorkSize check_study(const Scenario& scenario, const PluginRegistry& registry,
                                 const std::string& study, const StudyShape& shape,
                                 std::vector<Diagnostic>& diags);

}  // namespace tessera
