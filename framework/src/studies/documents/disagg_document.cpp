// The disaggregated study's JSON: disagg_document.hpp.
#include "studies/documents/disagg_document.hpp"

#include "studies/json/band_json.hpp"
#include "studies/json/config_json.hpp"
#include "studies/json/json_number.hpp"

namespace tessera {

const char* transfer_overlap_name(TransferOverlap o) {
  return o == TransferOverlap::none ? "none" : "layerwise";
}

const MachineSpec& disagg_pool_machine(const Session& session, bool prefill) {
  const ServingSpec& sv = session.scenario().serving;
  const PoolMachine& pm = prefill ? sv.prefill_machine : sv.decode_machine;
  return pm.given ? pm.machine : session.machine();
}

std::string aggregated_machine_label(const AggregatedOn& a) {
  return a.machine + " (the " + a.pool + " pool's)";
}

DisaggBestAggregated disagg_best_aggregated(const Session& session, const ServeResult& agg,
                                            const std::vector<AggregatedOn>& also) {
  DisaggBestAggregated b{session.machine().name, agg.best_tokens_per_s_per_pe};
  for (const AggregatedOn& a : also)
    if (a.result.best_tokens_per_s_per_pe > b.tokens_per_s_per_pe)
      b = {aggregated_machine_label(a), a.result.best_tokens_per_s_per_pe};
  return b;
}

std::string disagg_link_name(const Session& session, const DisaggPair& p) {
  if (p.level < 0) return "serving.disaggregated.transfer";
  return session.machine().levels[static_cast<std::size_t>(p.level)].name;
}

nlohmann::json disagg_pair_json(const Session& session, const DisaggPair& p) {
  auto pool = [&](const PoolCandidate& c, std::int64_t n, bool prefill) {
    nlohmann::json j;
    const MachineSpec& m = disagg_pool_machine(session, prefill);
    if (session.scenario().serving.separate_machines()) j["machine"] = m.name;
    j["config"] = config_json(c.config, m);
    j["batch"] = c.batch;
    j["instances"] = n;
    j["pes_per_instance"] = c.pes;
    j[prefill ? "prefill_s" : "tpot_s"] = json_number(c.time_s);
    j["requests_per_s_per_instance"] = json_number(c.requests_per_s);
    return j;
  };
  nlohmann::json j;
  j["prefill"] = pool(p.prefill, p.x, true);
  j["decode"] = pool(p.decode, p.y, false);
  j["pes"] = p.pes;
  j["link"] = disagg_link_name(session, p);
  j["link_bandwidth_B_per_s"] = json_number(p.link.bandwidth);
  j["link_latency_s"] = json_number(p.link.latency);
  j["kv_bytes_per_request"] = json_number(p.transfer.bytes);
  j["kv_endpoint_bytes"] = json_number(p.transfer.endpoint_bytes);
  j["kv_messages"] = p.transfer.messages;
  j["resharded"] = p.transfer.resharded;
  j["transfer_s"] = json_number(p.transfer.time_s);
  j["transfer_exposed_s"] = json_number(p.transfer_exposed_s);
  j["ttft_s"] = json_number(p.ttft_s);
  j["tpot_s"] = json_number(p.tpot_s);
  j["e2e_s"] = json_number(p.e2e_s);
  j["requests_per_s"] = json_number(p.requests_per_s);
  j["bound"] = p.prefill_bound ? "prefill" : "decode";
  j["prefill_link_bound"] = p.prefill_link_bound;
  j["decode_link_bound"] = p.decode_link_bound;
  j["prefill_utilization"] = json_number(p.prefill_utilization);
  j["decode_utilization"] = json_number(p.decode_utilization);
  j["tokens_per_s"] = json_number(p.tokens_per_s);
  j["tokens_per_s_per_pe"] = json_number(p.tokens_per_s_per_pe);
  j["tokens_per_s_per_user"] = json_number(p.tokens_per_s_per_user);
  const Band band = disaggregated_band(session);
  j["ttft_band"] = band_json(band, BandQuantity::latency, p.ttft_s);
  j["tpot_band"] = band_json(band, BandQuantity::latency, p.tpot_s);
  j["tokens_per_s_per_pe_band"] = band_json(band, BandQuantity::throughput, p.tokens_per_s_per_pe);
  j["tokens_per_s_per_user_band"] = band_json(band, BandQuantity::throughput, p.tokens_per_s_per_user);
  return j;
}

nlohmann::json disagg_json(const Session& session, const DisaggStudy& d, const ServeResult& agg,
                           const std::vector<AggregatedOn>& also) {
  const DisaggregationSpec& spec = session.scenario().serving.disaggregated;
  const DisaggCounts& c = d.result.counts;
  nlohmann::json j;
  j["band"] = band_summary_json(disaggregated_band(session));
  j["transfer_overlap"] = transfer_overlap_name(spec.overlap);
  j["max_replicas"] = spec.max_replicas;
  j["prefill_batch"] = spec.prefill_batch;
  j["counts"] = {{"configurations", d.pools.configurations},
                 {"prefill_points", d.pools.prefill_points},
                 {"prefill_candidates", d.pools.prefill.size()},
                 {"prefill_kept", c.prefill_kept},
                 {"decode_points", d.pools.decode_points},
                 {"decode_candidates", d.pools.decode.size()},
                 {"decode_kept", c.decode_kept},
                 {"pairs", c.pairs},
                 {"non_finite", d.pools.non_finite},
                 {"framework_dropped", d.pools.stack_dropped},
                 {"over_budget", c.over_budget},
                 {"over_machine", c.over_machine},
                 {"no_link", c.no_link},
                 {"slo_miss", c.slo_miss},
                 {"within_slo", c.within_slo}};
  j["best"] = d.result.best ? disagg_pair_json(session, *d.result.best) : nlohmann::json(nullptr);
  nlohmann::json f = nlohmann::json::array();
  for (const DisaggPair& p : d.result.frontier) f.push_back(disagg_pair_json(session, p));
  j["frontier"] = f;
  j["aggregated_best_tokens_per_s_per_pe"] =
      agg.best_tokens_per_s_per_pe > 0 ? json_number(agg.best_tokens_per_s_per_pe) : nlohmann::json(nullptr);
  j["queueing_modelled"] = false;
  if (!also.empty()) {
    // Pools on machines of their own: the aggregated best on each, the gain against the best.
    nlohmann::json on = nlohmann::json::array();
    on.push_back({{"machine", session.machine().name},
                  {"best_tokens_per_s_per_pe", json_number(agg.best_tokens_per_s_per_pe)}});
    for (const AggregatedOn& a : also)
      on.push_back({{"machine", aggregated_machine_label(a)},
                    {"best_tokens_per_s_per_pe", json_number(a.result.best_tokens_per_s_per_pe)}});
    j["aggregated_on"] = on;
    const DisaggBestAggregated b = disagg_best_aggregated(session, agg, also);
    j["aggregated_best_tokens_per_s_per_pe"] =
        b.tokens_per_s_per_pe > 0 ? json_number(b.tokens_per_s_per_pe) : nlohmann::json(nullptr);
    j["aggregated_best_machine"] = b.machine;
    j["prefill_machine"] = disagg_pool_machine(session, true).name;
    j["decode_machine"] = disagg_pool_machine(session, false).name;
    const bool ok = d.result.best && b.tokens_per_s_per_pe > 0;
    j["gain"] = ok ? json_number(d.result.best->tokens_per_s_per_pe / b.tokens_per_s_per_pe)
                   : nlohmann::json(nullptr);
    return j;
  }
  const double gain = disaggregation_gain(d.result, agg);
  j["gain"] = gain > 0 ? json_number(gain) : nlohmann::json(nullptr);
  return j;
}

}  // namespace tessera
