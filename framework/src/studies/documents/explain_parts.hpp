#pragma once
// What `tessera explain`'s JSON document (studies/documents/explain_document.hpp) and its text
// (report/study_text/explain_report.hpp) both state about one configuration, defined once.
#include <cstddef>
#include <memory>
#include <string>

#include "eval/evaluator.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"
#include "tessera/physics/step_work.hpp"
#include "tessera/stage.hpp"

namespace tessera::explain_parts {

// Communication time a stage hides behind compute, per occurrence: a pure communication stage
// (no FLOPs, no HBM bytes) whose visible time is below its comm_s was overlapped with the GEMM
// before it (tp_overlap: chunked, docs/physics.md §7). attn.cp reports its overlap in visible_s.
TESSERA_API double overlapped_s(const Stage& s);
// The pipelined prefill's TTFT formula in words.
TESSERA_API const char* ttft_formula();
// Parallel block: which stage carries the merged TP reduction ("" when nothing is merged).
TESSERA_API std::string parallel_block_note(const Session& s, const Evaluation& e);
// The number formats (docs/physics.md §1): the three base formats, the attention math, and
// each part, dispatch payload only where the model has it.
TESSERA_API std::string formats_line(const ModelSpec& m);
// The step whose collectives explain lists (prefill: the first chunk).
TESSERA_API std::unique_ptr<StepWork> explained_work(const Session& s, const Evaluation& e);
// The work stage of stage i (the latency models time work stage i into stage i).
TESSERA_API const StageWork* work_of(const StepWork& w, const Stage& s, std::size_t i);
// "; chunk 1 of N, T tokens; the table averages the chunks" for a chunked prefill, else "".
TESSERA_API std::string chunk_note(const Session& s);

}  // namespace tessera::explain_parts
