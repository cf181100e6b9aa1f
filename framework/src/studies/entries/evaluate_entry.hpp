#pragma once
// Python's `Scenario.evaluate` as a façade entry (docs/architecture.md "The study façade"): many
// configurations evaluated at once on the engine's BatchEvaluator, each row's numbers those `run`
// reports for the same configuration (fill_record_numbers), written in place into columns the
// caller owns (Python's NumPy arrays), and the scenario sweep's configurations as the batch's
// input.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "eval/session.hpp"
#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"

namespace tessera::studies {

// The numeric columns of a row (ConfigRecord's numbers), in order: latency_s, throughput_tok_s,
// ..., hbm_utilization. NaN where the configuration is not valid.
inline constexpr std::size_t kEvaluateNumbers = 12;
TESSERA_API const std::array<const char*, kEvaluateNumbers>& evaluate_number_columns();

// "objective_<key>" of each of the session's objectives, in order.
TESSERA_API std::vector<std::string> objective_columns(const Session& session);

// Where each row goes: row i of every column (n rows each).
struct EvaluateColumns {
  std::array<double*, kEvaluateNumbers> numbers{};
  std::vector<double*> objectives;  // objective_columns' order
  std::int64_t* pes = nullptr;
  bool* valid = nullptr;
  bool* fits_memory = nullptr;
  bool* feasible = nullptr;
};

// Evaluates `configs` on `threads` threads (0 = every hardware thread); `on_progress(done)` on
// the calling thread after each chunk. Throws Cancelled when cancellation was requested.
TESSERA_API void evaluate_batch(const Session& session, const std::vector<ParallelConfig>& configs,
                                unsigned threads, const EvaluateColumns& out,
                                const std::function<void(std::size_t done)>& on_progress);

// The scenario sweep's valid canonical configurations, in the space's order.
TESSERA_API std::vector<ParallelConfig> sweep_configurations(const Session& session);

}  // namespace tessera::studies
