#include "studies/documents/simulation_document.hpp"

#include <array>
#include <cmath>
#include <string>

#include "studies/json/config_json.hpp"

namespace tessera::studies {

namespace {

// null for a statistic that is not defined (no value, or no interval under two batches).
nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json metric_json(const requests::MetricSummary& m) {
  nlohmann::json j;
  j["count"] = m.count;
  j["mean_s"] = number(m.mean);
  j["mean_half_width_s"] = number(m.mean_half_width);
  for (std::size_t p = 0; p < requests::kPercentiles.size(); ++p) {
    const std::string key = "p" + std::to_string(static_cast<int>(requests::kPercentiles[p]));
    j[key + "_s"] = number(m.percentile[p]);
    j[key + "_half_width_s"] = number(m.half_width[p]);
  }
  j["max_s"] = number(m.max);
  nlohmann::json cdf = nlohmann::json::array();  // P1..P99: with max_s, the latency CDF of the charts
  for (double v : m.cdf) cdf.push_back(number(v));
  j["cdf_s"] = cdf;
  return j;
}

// The per-request bounds goodput counts (null: none on that metric).
nlohmann::json bounds_json(const requests::RequestBounds& b) {
  auto v = [](double x) { return x < kNoSlo ? nlohmann::json(x) : nlohmann::json(nullptr); };
  return {{"ttft_s", v(b.ttft_s)}, {"tpot_s", v(b.tpot_s)}, {"e2e_s", v(b.e2e_s)}};
}

const char* arrival_name(requests::ArrivalKind k) {
  constexpr std::array<const char*, 5> names{"poisson", "gamma", "constant", "concurrency", "trace"};
  return names[static_cast<std::size_t>(k)];
}

}  // namespace

nlohmann::json stream_json(const RequestsSpec& spec) {
  nlohmann::json stream;
  stream["arrival"] = arrival_name(spec.stream.arrival.kind);
  if (spec.stream.arrival.kind == requests::ArrivalKind::poisson ||
      spec.stream.arrival.kind == requests::ArrivalKind::gamma ||
      spec.stream.arrival.kind == requests::ArrivalKind::constant)
    stream["rate_per_s"] = spec.stream.arrival.rate_per_s;
  if (spec.stream.arrival.kind == requests::ArrivalKind::gamma) stream["cv"] = spec.stream.arrival.cv;
  if (spec.stream.arrival.kind == requests::ArrivalKind::concurrency)
    stream["concurrency"] = spec.stream.arrival.concurrency;
  if (spec.stream.arrival.kind == requests::ArrivalKind::trace) {
    stream["trace"] = spec.trace_file;
    stream["trace_rows_left_out"] = spec.trace_skipped;
  }
  if (spec.stream.prefix.groups > 0)
    stream["prefix"] = {{"groups", spec.stream.prefix.groups}, {"tokens", spec.stream.prefix.tokens}};
  if (spec.stream.conversation.turns > 1)
    stream["conversation"] = {{"turns", spec.stream.conversation.turns},
                              {"think_s", spec.stream.conversation.think_s}};
  stream["seed"] = spec.stream.seed;
  stream["requests"] = spec.stream.requests;
  stream["warmup"] = spec.stream.warmup;
  stream["router"] = spec.router == requests::Router::round_robin ? "round_robin" : "least_outstanding";
  return stream;
}

namespace {

const char* preemption_name(requests::Preemption p) {
  constexpr std::array<const char*, 3> names{"recompute", "swap", "no_evict"};
  return names[static_cast<std::size_t>(p)];
}

// What prefix caching did (blocks; docs/physics.md §12.7), null when off. The tiers in order:
// dram, then ssd.
nlohmann::json cache_json(const requests::CacheFigures& c) {
  if (!c.on) return nullptr;
  nlohmann::json loaded = nlohmann::json::object();
  constexpr std::array<const char*, 2> tiers{"dram", "ssd"};
  for (std::size_t i = 0; i < c.loaded.size() && i < tiers.size(); ++i) loaded[tiers[i]] = c.loaded[i];
  return {{"prompt_blocks", c.looked_up},
          {"hbm_hit_blocks", c.hits},
          {"loaded_blocks", loaded},
          {"declined_blocks", c.declined}};
}

void add_result(nlohmann::json& j, const requests::SimResult& r) {
  j["requests_sent"] = r.sent;
  j["requests_measured"] = r.measured;
  j["requests_rejected"] = r.rejected;
  j["ttft"] = metric_json(r.ttft);
  j["tpot"] = metric_json(r.tpot);
  j["itl"] = metric_json(r.itl);
  j["e2e"] = metric_json(r.e2e);
  j["queueing"] = metric_json(r.queue);
  j["window_s"] = number(r.window_s);
  j["output_tokens_per_s"] = number(r.output_tokens_per_s);
  j["requests_per_s"] = number(r.requests_per_s);
  j["goodput_requests_per_s"] = number(r.goodput_requests_per_s);
  j["goodput_request_bounds"] = bounds_json(r.request_bounds);
  nlohmann::json slo = nlohmann::json::array();
  for (const requests::SloCheck& c : r.slo)
    slo.push_back({{"metric", slo_latency_key(c.target.metric)},
                   {"statistic", slo_statistic_key(c.target)},
                   {"limit_s", c.target.limit_s},
                   {"value_s", number(c.value_s)},
                   {"half_width_s", number(c.half_width_s)},
                   {"met", c.met}});
  j["slo"] = slo;
  j["slo_met"] = r.slo_met();
  j["kv_occupancy_mean"] = number(r.kv_occupancy_mean);
  j["kv_occupancy_peak"] = number(r.kv_occupancy_peak);
  j["queue_depth_mean"] = number(r.queue_depth_mean);
  j["preemptions"] = r.preemptions;
  j["engine_iterations"] = r.iterations;
  j["swapped_blocks"] = r.swapped_blocks;
  j["rule_events"] = {{"decodes_held", r.rule_events.decodes_held},
                      {"reserve_deferrals", r.rule_events.reserve_deferrals},
                      {"commit_deferrals", r.rule_events.commit_deferrals},
                      {"block_deferrals", r.rule_events.block_deferrals},
                      {"budget_free_decodes", r.rule_events.budget_free_decodes}};
  j["prefix_cache"] = cache_json(r.cache);
  nlohmann::json series = nlohmann::json::array();
  for (const requests::TimeSample& t : r.series)
    series.push_back({{"start_s", t.start_s},
                      {"kv_occupancy_mean", t.kv_occupancy_mean},
                      {"kv_occupancy_peak", t.kv_occupancy_peak},
                      {"queue_depth_mean", t.queue_depth_mean},
                      {"queue_depth_peak", t.queue_depth_peak}});
  j["time_series_bin_s"] =
      r.series.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.series.front().width_s);
  j["time_series"] = series;
}

}  // namespace

nlohmann::json simulation_header_json(const ParallelConfig& config, const ServingPoint& point,
                                      const RequestsSpec& spec, const MachineSpec& machine) {
  nlohmann::json j;
  j["config"] = config_json(config, machine);
  j["batch"] = point.batch;
  j["token_budget"] = point.token_budget;
  j["stream"] = stream_json(spec);
  return j;
}

nlohmann::json simulation_json(const requests::SimulatedPoint& s, const RequestsSpec& spec,
                               const MachineSpec& machine) {
  const requests::SimResult& r = s.result;
  nlohmann::json j = simulation_header_json(s.config, s.point, spec, machine);
  j["replica_kv_blocks"] = s.kv.blocks;
  j["replica_kv_block_tokens"] = s.kv.block_tokens;
  j["replica_kv_from"] = s.kv.engine_rule ? "framework KV rule" : "memory plugin";
  j["preemption"] = preemption_name(s.preemption);
  j["scheduler"] = {{"rules_from", s.rules_from.empty() ? "vllm-v1" : s.rules_from},
                    {"order", requests::step_order_name(s.rules.order)},
                    {"mixed", s.rules.mixed},
                    {"budget_counts", requests::budget_counts_name(s.rules.budget)},
                    {"victim", requests::victim_name(s.rules.victim)},
                    {"admission", requests::admission_name(s.rules.admission)},
                    {"policy", s.policy.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.policy)}};
  add_result(j, r);
  return j;
}

nlohmann::json disagg_simulation_json(const requests::SimulatedPair& s, const RequestsSpec& spec,
                                      const MachineSpec& prefill_machine, const MachineSpec& decode_machine) {
  const requests::SimResult& r = s.result;
  nlohmann::json j;
  auto pool = [&](const PoolCandidate& c, std::int64_t instances, const requests::ReplicaKv& kv,
                  const requests::EngineLimits& lim, const MachineSpec& m, const requests::PoolFigures* f) {
    nlohmann::json p;
    p["config"] = config_json(c.config, m);
    p["instances"] = instances;
    p["batch"] = c.batch;
    p["replica_kv_blocks"] = kv.blocks;
    p["replica_kv_block_tokens"] = kv.block_tokens;
    p["replica_kv_from"] = kv.engine_rule ? "framework KV rule" : "memory plugin";
    p["preemption"] = preemption_name(lim.preemption);
    if (f) {
      p["replicas"] = f->replicas;
      p["kv_occupancy_mean"] = number(f->kv_occupancy_mean);
      p["kv_occupancy_peak"] = number(f->kv_occupancy_peak);
      p["queue_depth_mean"] = number(f->queue_depth_mean);
      p["preemptions"] = f->preemptions;
      p["engine_iterations"] = f->iterations;
    }
    return p;
  };
  const requests::DisaggFigures* f = r.disagg ? &*r.disagg : nullptr;
  j["prefill"] = pool(s.pair.prefill, s.pair.x, s.prefill_kv, s.prefill_limits, prefill_machine,
                      f ? &f->prefill : nullptr);
  j["decode"] =
      pool(s.pair.decode, s.pair.y, s.decode_kv, s.decode_limits, decode_machine, f ? &f->decode : nullptr);
  j["first_token"] = "prefill, delivered with the KV";
  j["stream"] = stream_json(spec);
  add_result(j, r);
  if (f) {
    j["kv_transfer"] = metric_json(f->transfer);
    j["kv_transfer_wait"] = metric_json(f->transfer_wait);
  }
  j["steady_state_requests_per_s"] = number(s.pair.requests_per_s);
  return j;
}

nlohmann::json request_json(const requests::RequestOutcome& o, std::uint64_t warmup) {
  const requests::Request& r = o.request;
  const double ttft = o.first_token_s - r.arrival_s;
  const double e2e = o.finish_s - r.arrival_s;
  nlohmann::json j;
  j["id"] = r.id;
  j["arrival_s"] = r.arrival_s;
  j["replica"] = o.replica;
  j["input_tokens"] = r.input;
  j["output_tokens"] = r.output;
  j["prefix_id"] = r.prefix_id >= 0 ? nlohmann::json(r.prefix_id) : nlohmann::json(nullptr);
  j["priority"] = r.priority;
  j["first_scheduled_s"] = o.first_scheduled_s;
  j["first_token_s"] = o.first_token_s;
  j["finish_s"] = o.finish_s;
  j["ttft_s"] = ttft;
  j["tpot_s"] = number(r.output > 1 ? (e2e - ttft) / static_cast<double>(r.output - 1) : NAN);
  j["e2e_s"] = e2e;
  j["queue_s"] = o.first_scheduled_s - r.arrival_s;
  j["max_gap_s"] = o.max_gap_s;
  j["preemptions"] = o.preemptions;
  j["measured"] = r.id >= warmup;
  return j;
}

}  // namespace tessera::studies
