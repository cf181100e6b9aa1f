#pragma once
// The disaggregated study's JSON (the `disaggregated` member of `tessera serve --json`), in SI
// units, and the names its text report shares (report/study_text/disagg_report.hpp).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/serving/disagg_study.hpp"
#include "analysis/serving/serve_study.hpp"
#include "analysis/serving/serving_answer.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// The best aggregated tokens/s/PE of `agg` and `also`, and the machine it is on.
struct DisaggBestAggregated {
  std::string machine;
  double tokens_per_s_per_pe = 0;
};
TESSERA_API DisaggBestAggregated disagg_best_aggregated(const Session& session, const ServeResult& agg,
                                                        const std::vector<AggregatedOn>& also);
// "none" or "layerwise".
TESSERA_API const char* transfer_overlap_name(TransferOverlap o);
// The machine a pool's configurations run on: its own (serving.*_machine) or the session's.
TESSERA_API const MachineSpec& disagg_pool_machine(const Session& session, bool prefill);
// An aggregated study's machine as the report names it: "DGX-H200 (the decode pool's)".
TESSERA_API std::string aggregated_machine_label(const AggregatedOn& a);
// The link a pair's KV crosses: the machine level's name, or serving.disaggregated.transfer.
TESSERA_API std::string disagg_link_name(const Session& session, const DisaggPair& p);

// `also` (analysis/serving/serving_answer.hpp): the aggregated best on each further machine the pools use.
TESSERA_API nlohmann::json disagg_pair_json(const Session& session, const DisaggPair& p);
// The `disaggregated` member of `tessera serve --json`.
TESSERA_API nlohmann::json disagg_json(const Session& session, const DisaggStudy& d, const ServeResult& agg,
                                       const std::vector<AggregatedOn>& also = {});
}  // namespace tessera
