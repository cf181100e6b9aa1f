#pragma once
// `tessera compare`: one scenario under several latency models (docs/specification.md §5 "compare"). Every
// valid canonical configuration of the sweep is evaluated under each model; the feasible ones
// are ranked by the scenario's first objective. Reported: each model's optimum and its rank
// under the others, the optima stage by stage under every model, Kendall τ-b between every
// pair of rankings, and where the winner changes.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis/calibration/error_bands.hpp"
#include "analysis/search/kendall.hpp"
#include "analysis/search/search_driver.hpp"
#include "core/progress.hpp"
#include "eval/evaluator.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

struct CompareStageRow {
  std::string name;
  std::string block;
  std::vector<double> count;      // per model (0 when the model has no such stage)
  std::vector<double> visible_s;  // per model, per occurrence
};

// One configuration (some model's optimum) evaluated under every model.
struct CompareOptimumView {
  std::size_t owner = 0;                // the model whose optimum this is
  std::size_t config_index = 0;         // into CompareResult::configs
  std::vector<double> latency_s;        // per model
  std::vector<double> score;            // per model (first objective, lower is better)
  std::vector<std::uint64_t> rank;      // per model: 1 + feasible configs strictly better
  std::vector<CompareStageRow> stages;  // union of the models' stages, in first-seen order
};

struct ComparePair {
  std::size_t a = 0, b = 0;
  KendallResult kendall;
  bool same_winner = true;
  std::vector<std::string> differing_knobs;  // knobs where a's optimum differs from b's
  double regret_a_under_b = 0;               // (score_b(best_a) - score_b(best_b)) / |score_b(best_b)|
  double regret_b_under_a = 0;
};

struct CompareResult {
  std::vector<std::string> models;  // latency plugin names (with framework, when set)
  std::string objective;            // the ranking objective's name ("latency" by default)
  std::uint64_t enumerated = 0, valid = 0, feasible = 0;
  std::vector<ParallelConfig> configs;         // the feasible configurations, grid order
  std::vector<std::vector<double>> scores;     // [model][config]
  std::vector<std::vector<double>> latency_s;  // [model][config]
  std::vector<std::size_t> best;               // [model] -> config index
  std::vector<CompareOptimumView> optima;      // one per distinct optimum
  std::vector<ComparePair> pairs;              // every a < b
  std::vector<Band> bands;  // [model]: its error band (analysis/calibration/error_bands.hpp)
};

struct CompareOptions {
  unsigned threads = 0;  // 0 = hardware concurrency
  // (configurations evaluated over every model, their total, "configurations"); the
  // cancellation token is polled as often (core/cancellation.hpp).
  ProgressCallback on_progress;
  // Computes the evaluations as work units - (model, slice of the configurations), merged on
  // every process (UnitCodec::everywhere) - on this executor (MPI ranks); null: this process's
  // threads. The result is the same.
  Executor* executor = nullptr;
};

// `sessions` share the scenario (model, machine, workload, sweep) and differ in the latency
// model. Throws Error when no configuration is feasible.
TESSERA_API CompareResult compare_models(const std::vector<const Session*>& sessions,
                                         const CompareOptions& options = {});

// The rank (1-based, ties share the better rank) of `value` among `scores`.
TESSERA_API std::uint64_t rank_of(const std::vector<double>& scores, double value);

}  // namespace tessera
