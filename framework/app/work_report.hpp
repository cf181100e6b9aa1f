#pragma once
// Work sized before it starts (docs/limits.md "Work"): the command-line bounds of --threads and
// --top, and the one stderr line that states a study's size (a log: -q silences it) once
// studies::plan_work (studies/work_plan.hpp) has accepted it.
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "studies/work_plan.hpp"
#include "tessera/error.hpp"

namespace tessera::cli {

// --threads: "" = 0 (every hardware thread); else a positive integer at most the limit
// `threads`. InputError "<command line>: ..." otherwise (no wrap-around: -1 is refused).
unsigned parse_threads(const std::string& text);

// --top: "" = the scenario's report.top; else a non-negative integer at most the limit report.top.
std::size_t parse_top(const std::string& text, std::int64_t scenario_top);

// --simulate-top: a non-negative integer (finalists) at most the limit report.top.
std::size_t parse_simulate_top(const std::string& text);

// --max-pes: "" = -1 (the scenario's serving.max_pes); else a non-negative integer (0 = no
// budget). InputError "<command line>: ..." otherwise.
std::int64_t parse_max_pes(const std::string& text);

// The study's size (studies::plan_work: InputErrors on a problem), then the stderr line (unless `quiet`):
// "tessera: run: grid 34560 points, 1 machine: at most 34560 evaluations", plus, above 10^5
// evaluations, "; about 2.1 s on 4 threads, grid index at most 240 MB".
WorkSize plan_study(std::ostream& err, const Scenario& scenario, const PluginRegistry& registry,
                    const std::string& study, const StudyShape& shape, unsigned threads, bool quiet);

}  // namespace tessera::cli
