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

bool objective_inputs_finite(const StepTotals& t, const MemoryUsage& m) {
  for (const double v :
       {t.latency_s, t.throughput_tok_s, t.pipeline_throughput_tok_s, t.flops_all_pes, t.redundant_flops,
        t.hbm_bytes_all_pes, t.link_bytes_all_pes, t.compute_util, t.bw_util, t.efficiency, t.pes, t.tokens,
        m.weights_bytes, m.kv_bytes, m.transient_bytes, m.used_bytes, m.budget_bytes})
    if (!std::isfinite(v)) return false;
  return true;
}

}  // namespace tessera
