#include "host/returned_values.hpp"

#include <cstdio>
#include <initializer_list>
#include <limits>
#include <utility>

namespace tessera {

namespace {

bool good(double v) { return v >= 0 && v <= std::numeric_limits<double>::max(); }

using Field = std::pair<const char*, double>;

// The first field of `fields` that is not finite and non-negative ({nullptr, 0} if none).
Field first_bad(std::initializer_list<Field> fields) {
  for (const Field& f : fields)
    if (!good(f.second)) return f;
  return {nullptr, 0};
}

}  // namespace

std::string format_returned(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string describe_bad_stages(const StageList& out) {
  if (out.size < 0 || out.size > StageList::kCapacity)
    return std::to_string(out.size) + " stages (a StageList holds 0 to " +
           std::to_string(StageList::kCapacity) + ")";
  for (int i = 0; i < out.size; ++i) {
    const Stage& s = out.items[static_cast<std::size_t>(i)];
    if (s.name == nullptr) return "stage " + std::to_string(i) + " with a null name";
    if (s.memory_tier == nullptr)
      return "stage " + std::to_string(i) + " ('" + s.name + "') with a null memory_tier (leave it \"hbm\")";
    const Field bad = first_bad({{"count", s.count},
                                 {"flops", s.flops},
                                 {"hbm_bytes", s.hbm_bytes},
                                 {"comm_bytes", s.comm_bytes},
                                 {"compute_s", s.compute_s},
                                 {"memory_s", s.memory_s},
                                 {"comm_s", s.comm_s},
                                 {"visible_s", s.visible_s},
                                 {"comm_extra_latency", s.comm_extra_latency},
                                 {"call_overhead_s", s.call_overhead_s},
                                 {"memory_tier_bw", s.memory_tier_bw}});
    if (bad.first)
      return "stage " + std::to_string(i) + " ('" + s.name + "') with " + bad.first + " = " +
             format_returned(bad.second) + "; times, counts and byte counts must be finite and non-negative";
  }
  return "";
}

std::string describe_bad_memory(const MemoryUsage& m) {
  const Field bad = first_bad({{"weights_bytes", m.weights_bytes},
                               {"kv_bytes", m.kv_bytes},
                               {"transient_bytes", m.transient_bytes},
                               {"used_bytes", m.used_bytes},
                               {"budget_bytes", m.budget_bytes}});
  if (!bad.first) return "";
  return std::string(bad.first) + " = " + format_returned(bad.second) +
         "; byte counts must be finite and non-negative";
}

std::string describe_bad_serving(const ServingMetrics& m) {
  const Field bad = first_bad({{"ttft_s", m.ttft_s},
                               {"tpot_s", m.tpot_s},
                               {"tpot_tail_s", m.tpot_tail_s},
                               {"e2e_s", m.e2e_s},
                               {"tokens_per_s", m.tokens_per_s},
                               {"requests_per_s", m.requests_per_s},
                               {"prefill_time_share", m.prefill_time_share},
                               {"kv_tokens_peak", m.kv_tokens_peak},
                               {"kv_tokens_mean", m.kv_tokens_mean}});
  if (bad.first)
    return std::string(bad.first) + " = " + format_returned(bad.second) +
           "; times and rates must be finite and non-negative";
  if (m.batch < 0 || m.max_batch < 0 || m.chunk < 0 || m.chunk_iterations < 0)
    return "a negative batch, max_batch, chunk or chunk_iterations (" + std::to_string(m.batch) + ", " +
           std::to_string(m.max_batch) + ", " + std::to_string(m.chunk) + ", " +
           std::to_string(m.chunk_iterations) + ")";
  if (m.infeasible == nullptr && m.tpot_tail_s < m.tpot_s)
    return "tpot_tail_s = " + format_returned(m.tpot_tail_s) +
           " below tpot_s = " + format_returned(m.tpot_s) +
           " (the tail is the slowest iteration, at least the mean)";
  return "";
}

bool objective_inputs_finite(const StepTotals& t, const MemoryUsage& m) {
  for (const double v :
       {t.latency_s, t.throughput_tok_s, t.pipeline_throughput_tok_s, t.flops_all_pes, t.redundant_flops,
        t.hbm_bytes_all_pes, t.link_bytes_all_pes, t.compute_util, t.bw_util, t.efficiency, t.pes, t.tokens,
        m.weights_bytes, m.kv_bytes, m.transient_bytes, m.used_bytes, m.budget_bytes})
    if (!std::isfinite(v)) return false;
  return true;
}

}  // namespace tessera
