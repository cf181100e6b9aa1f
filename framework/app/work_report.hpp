#pragma once
// Work sized before it starts (docs/limits.md "Work"): the command-line bounds of --threads and
// --top, the search's `samples` bound, the size of a study, its refusal above max_configs and
// the one stderr line that states it (a log: -q silences it).
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "eval/work_size.hpp"
#include "host/plugin_registry.hpp"
#include "scenario/scenario.hpp"
#include "tessera/error.hpp"

namespace tessera::cli {

// --threads: "" = 0 (every hardware thread); else a positive integer at most the limit
// `threads`. InputError "<command line>: ..." otherwise (no wrap-around: -1 is refused).
unsigned parse_threads(const std::string& text);

// --top: "" = the scenario's report.top; else a non-negative integer at most the limit report.top.
std::size_t parse_top(const std::string& text, std::int64_t scenario_top);

// What a study searches, beyond one search of the scenario's machine.
struct StudyShape {
  std::uint64_t machines = 1;        // machines searched (hardware grid points, perturbed machines)
  std::uint64_t latency_models = 1;  // compare: every configuration with each
};

// The problems that would make the study refuse to start: the search's `samples` above the
// limit search.samples (at the parameter), evaluations above max_configs (at the scenario).
// Appends to `diags`; returns the size (valid even when problems were found).
WorkSize check_study(const Scenario& scenario, const PluginRegistry& registry, const std::string& study,
                     const StudyShape& shape, std::vector<Diagnostic>& diags);

// check_study, throwing InputErrors on a problem, then the stderr line (unless `quiet`):
// "tessera: run: grid 34560 points, 1 machine: at most 34560 evaluations", plus, above 10^5
// evaluations, "; about 2.1 s on 4 threads, grid index at most 240 MB".
WorkSize plan_study(std::ostream& err, const Scenario& scenario, const PluginRegistry& registry,
                    const std::string& study, const StudyShape& shape, unsigned threads, bool quiet);

}  // namespace tessera::cli
