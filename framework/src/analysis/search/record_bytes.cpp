#include "analysis/search/record_bytes.hpp"

namespace tessera {

void write_record(ByteWriter& w, const ConfigRecord& r) {
  w.put(static_cast<const EvaluatedConfig&>(r));
  w.put(r.grid_index);
  for (double v :
       {r.score, r.pipeline_throughput_tok_s, r.efficiency, r.compute_util, r.bw_util, r.weights_bytes,
        r.kv_bytes, r.transient_bytes, r.used_bytes, r.budget_bytes, r.hbm_utilization})
    w.put(v);
  w.put(r.units_used);
  w.put(r.valid);
  w.put(r.placement_valid);
  w.put(r.invalid_reason);
  w.put(r.non_finite);
  w.put_text(r.reason);
}

void check_evaluated(ByteReader& in, const EvaluatedConfig& e) {
  in.check_bool(e.fits_memory);
  in.check_bool(e.feasible);
  const ParallelConfig& c = e.config;
  if (c.cp < 1 || c.tp < 1 || c.pp < 1 || c.dp < 1 || c.ep < 1 || static_cast<int>(c.kv_shard_mode) > 1 ||
      static_cast<int>(c.ffn_shard_scope) > 2 || static_cast<int>(c.cp_ring_variant) > 2)
    in.fail();
}

ConfigRecord read_record(ByteReader& in) {
  ConfigRecord r;
  static_cast<EvaluatedConfig&>(r) = in.get<EvaluatedConfig>();
  check_evaluated(in, r);
  r.grid_index = in.get<std::int64_t>();
  for (double* v :
       {&r.score, &r.pipeline_throughput_tok_s, &r.efficiency, &r.compute_util, &r.bw_util, &r.weights_bytes,
        &r.kv_bytes, &r.transient_bytes, &r.used_bytes, &r.budget_bytes, &r.hbm_utilization})
    *v = in.get<double>();
  r.units_used = in.get<decltype(r.units_used)>();
  r.valid = in.get<bool>();
  r.placement_valid = in.get<bool>();
  r.invalid_reason = in.get<InvalidReason>();
  r.non_finite = in.get<NonFinite>();
  if (r.invalid_reason > InvalidReason::bad_knob || r.non_finite > NonFinite::objective) in.fail();
  r.reason = in.get_text();
  return r;
}

}  // namespace tessera
