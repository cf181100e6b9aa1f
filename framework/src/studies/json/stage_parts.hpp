#pragma once
// A stage's visible (critical-path) time per occurrence split into the four parts the stage
// breakdown charts stack (docs/physics.md: visible = max(compute, memory) + comm + overhead):
// the busy time max(compute, memory) — counted as compute or as memory, whichever is larger —,
// the exposed communication (at most visible − busy) and the remaining fixed overhead. The four
// add up to `visible_s` (a stage whose busy time exceeds its visible time, fully overlapped
// elsewhere, is clipped to it). One definition for explain's chart, which reads explain's
// `--json`, and for the `breakdowns` of run and serve (studies/json/stage_breakdown.hpp).
#include <algorithm>

namespace tessera {

struct StageParts {
  double compute_s = 0, memory_s = 0, communication_s = 0, overhead_s = 0;
};

inline StageParts stage_parts(double compute_s, double memory_s, double comm_s, double visible_s) {
  const double busy = std::max(0.0, std::min(std::max(compute_s, memory_s), visible_s));
  const double comm = std::max(0.0, std::min(comm_s, visible_s - busy));
  StageParts p;
  (compute_s >= memory_s ? p.compute_s : p.memory_s) = busy;
  p.communication_s = comm;
  p.overhead_s = std::max(0.0, visible_s - busy - comm);
  return p;
}

}  // namespace tessera
