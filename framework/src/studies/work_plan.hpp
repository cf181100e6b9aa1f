#pragma once
// A study sized before it starts (docs/limits.md "Work"): check_study's refusals (the search's
// samples, evaluations above max_configs) as InputErrors, and the size with its estimate of time
// and memory. The CLI prints it as one stderr line (framework/app/work_report.hpp).
#include <cstdint>
#include <string>

#include "eval/study_check.hpp"
#include "eval/work_size.hpp"
#include "host/plugin_registry.hpp"
#include "scenario/scenario.hpp"
#include "tessera/export.hpp"

namespace tessera::studies {

struct WorkPlan {
  WorkSize size;
  std::string description;        // describe_work: "grid 34560 points, 1 machine: at most 34560 evaluations"
  unsigned threads = 1;           // the threads the estimate assumes (0 given: every hardware thread)
  double seconds = 0;             // estimated_seconds on `threads`
  std::uint64_t index_bytes = 0;  // estimated_bytes: the grid index, at most
};

// check_study (`study`: "run", "explore", ...), throwing InputErrors on a problem; `threads` as
// --threads gives it (0 = every hardware thread).
TESSERA_API WorkPlan plan_work(const Scenario& scenario, const PluginRegistry& registry,
                               const std::string& study, const StudyShape& shape, unsigned threads);

}  // namespace tessera::studies
