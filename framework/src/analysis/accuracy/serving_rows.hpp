#pragma once
// `tessera validate-data`'s serving rows (docs/accuracy.md "Serving rows"): a mapped row that
// states its concurrency (batch), ISL (input_len) and OSL (output_len) and measures a request-level
// quantity (TTFT, prefill latency, TPOT, end-to-end latency, output or request throughput) is
// also predicted through a serving model (a `serving` plugin: aggregated, static), beside its
// step-level prediction (analysis/accuracy/row_prediction.hpp), which it does not change.
#include <memory>
#include <string>

#include "analysis/accuracy/row_plan.hpp"
#include "analysis/accuracy/row_prediction.hpp"
#include "analysis/measurements/measurement_csv.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/latency_model.hpp"
#include "tessera/kinds/memory_model.hpp"
#include "tessera/kinds/serving_model.hpp"
#include "tessera/plugin/param_set.hpp"

namespace tessera::accuracy {

// "" when the row goes through the serving model, else why not ("batch not stated", ...).
TESSERA_API std::string serving_row_reason(const DataRow& row, const RowPlan& plan);

// The row's quantity from the serving model's metrics at B = plan.batch per replica, ISL, OSL and
// no token budget (the rows state none), in the row's unit: ttft / prefill_latency -> TTFT,
// tpot* -> TPOT, e2e_latency -> E2E, throughput_out -> dp x tokens/s per replica (per GPU: / n_devices),
// request_throughput -> dp x requests/s, ms_per_token_amortized -> E2E / (B x OSL). Throws Error
// with the reason when the serving model cannot run the point (its own reason, or the KV of
// B x (ISL + OSL) tokens does not fit).
TESSERA_API double predict_serving_row(const PreparedRow& row,
                                       const std::shared_ptr<const LatencyModel>& latency,
                                       const ParamSet& efficiency,
                                       const std::shared_ptr<const MemoryModel>& memory,
                                       const ServingModel& serving);

// A full-load row (Measure::full_load, `serve --max-throughput`'s question): the best of the row's
// throughput over kMaxThroughputBatches per replica below the batch the row's engine admits, and
// that batch itself (its KV rule at kFullLoadProfileTokens and that many sequences, continuous
// batching at its worst moment; no rule: the memory model's budget at ISL + OSL), capped by the
// version's default max sequences; the token budget kFullLoadProfileTokens. Throws Error when no
// batch runs.
struct FullLoadAnswer {
  double value = 0;            // in the row's unit
  std::int64_t batch = 0;      // per replica, where the best was found
  std::int64_t kv_tokens = 0;  // the engine's KV capacity per replica (0: no rule)
  std::string engine;          // "tensorrt-llm@1.1", or ""
};
TESSERA_API FullLoadAnswer predict_full_load_row(const PreparedRow& row,
                                                 const std::shared_ptr<const LatencyModel>& latency,
                                                 const ParamSet& efficiency,
                                                 const std::shared_ptr<const MemoryModel>& memory,
                                                 const ServingModel& serving);

}  // namespace tessera::accuracy
