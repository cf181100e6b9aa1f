#pragma once
// `tessera serve --deploy DIR` (docs/frameworks.md "--deploy"): for the best configurations, the
// launch script the scenario's framework takes (and its config file where the framework reads
// one), one per pool for the disaggregated best pair, and a README saying what each file is and
// where it came from. Rendering only: the files' names and contents; the app writes them.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/serving/disagg_study.hpp"
#include "analysis/serving/serve_study.hpp"
#include "scenario/scenario.hpp"
#include "scenario/serving_stacks/stack_launch.hpp"
#include "tessera/export.hpp"

namespace tessera {

struct DeployEntry {
  std::string label;    // file stem: "best", "top-2", "disagg-prefill"
  std::string title;    // "the best configuration by tokens_per_s_per_pe"
  std::string config;   // format_config()
  std::string metrics;  // "tokens/s/PE 812.3, TTFT 0.41 s, TPOT 28.0 ms"
  DeployPoint point;
  std::int64_t pool_instances = 1;  // disaggregated: x or y
};

struct DeployFile {
  std::string name;  // relative to DIR
  std::string content;
};

// What --deploy writes: the best configuration and the next ones by the ranking objective (the
// first `top` of the study's top N: best, top-2, top-3, ...), then, when the disaggregated study
// found a best pair within the SLO, its prefill and decode pools (prefill: `prefill_batch`
// prompts per iteration, token budget batch x ISL; decode: batch B, token budget B).
// `scenario`: the study's (its machine, its prompt length).
TESSERA_API std::vector<DeployEntry> deploy_entries(const Scenario& scenario, const ServeResult& result,
                                                    const DisaggStudy* disagg, std::size_t top);

// The launch script of one entry (and its config file when the framework takes one).
TESSERA_API std::vector<DeployFile> render_deploy_entry(const Scenario& s, const DeployEntry& e);
// Every entry's files, then README.md.
TESSERA_API std::vector<DeployFile> render_deploy(const Scenario& s, const std::vector<DeployEntry>& entries);

// "" when the scenario's framework version can state every number format the scenario serves,
// else why not (docs/frameworks.md "Precision"): --deploy refuses it before the study.
TESSERA_API std::string deploy_refusal(const Scenario& s);

}  // namespace tessera
