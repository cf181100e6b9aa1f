#include "studies/documents/capacity_document.hpp"

#include "studies/documents/disagg_document.hpp"
#include "studies/documents/simulation_document.hpp"
#include "studies/json/config_json.hpp"
#include "studies/json/json_number.hpp"

namespace tessera::studies {

namespace {

// "TTFT P99" (the target a probe's binding index names; null without targets).
nlohmann::json binding_name(const std::vector<SloTarget>& slo, std::size_t i) {
  if (i >= slo.size()) return nullptr;
  return slo_target_label(slo[i]);
}

nlohmann::json probe_json(const requests::CapacityProbe& p, requests::LoadKind kind,
                          const std::vector<SloTarget>& slo) {
  nlohmann::json j;
  j[requests::load_key(kind)] = json_number(p.load);
  j["requests_measured"] = p.measured;
  j["met"] = p.met;
  j["binding"] = binding_name(slo, p.binding);
  j["binding_ratio"] = slo.empty() ? nlohmann::json(nullptr) : json_number(p.binding_ratio);
  j["binding_half_width_ratio"] = slo.empty() ? nlohmann::json(nullptr) : json_number(p.binding_precision);
  j["ttft_p99_s"] = json_number(p.ttft_p99_s);
  j["tpot_p99_s"] = json_number(p.tpot_p99_s);
  j["e2e_p99_s"] = json_number(p.e2e_p99_s);
  j["requests_per_s"] = json_number(p.requests_per_s);
  j["output_tokens_per_s"] = json_number(p.output_tokens_per_s);
  j["goodput_requests_per_s"] = json_number(p.goodput_requests_per_s);
  return j;
}

nlohmann::json settings_json(const requests::CapacitySettings& s) {
  return {{"min_requests", s.min_requests},
          {"max_requests", s.max_requests},
          {"precision", s.precision},
          {"tolerance", s.tolerance},
          {"max_probes", s.max_probes},
          {"max_factor", s.max_factor},
          {"rank_shift_flag", requests::kRankShiftFlag}};
}

}  // namespace

nlohmann::json capacity_json(const requests::Capacity& c, const std::vector<SloTarget>& slo) {
  nlohmann::json j;
  j["found"] = c.found;
  j["stop"] = requests::capacity_stop_key(c.stop);
  j[requests::load_key(c.kind)] = c.found ? json_number(c.load) : nlohmann::json(nullptr);
  j["upper"] = c.upper > 0 ? json_number(c.upper) : nlohmann::json(nullptr);
  const bool f = c.found;
  j["requests_per_s"] = f ? json_number(c.at.requests_per_s) : nlohmann::json(nullptr);
  j["output_tokens_per_s"] = f ? json_number(c.at.output_tokens_per_s) : nlohmann::json(nullptr);
  j["goodput_requests_per_s"] = f ? json_number(c.at.goodput_requests_per_s) : nlohmann::json(nullptr);
  j["ttft_p99_s"] = f ? json_number(c.at.ttft_p99_s) : nlohmann::json(nullptr);
  j["tpot_p99_s"] = f ? json_number(c.at.tpot_p99_s) : nlohmann::json(nullptr);
  j["e2e_p99_s"] = f ? json_number(c.at.e2e_p99_s) : nlohmann::json(nullptr);
  j["binding"] = binding_name(slo, c.stopped_by);  // what stops a higher load (null: nothing)
  nlohmann::json probes = nlohmann::json::array();
  for (const requests::CapacityProbe& p : c.probes) probes.push_back(probe_json(p, c.kind, slo));
  j["probes"] = probes;
  return j;
}

nlohmann::json capacity_study_json(const Session& session, const requests::CapacityStudy& study,
                                   const RequestsSpec& spec) {
  const std::vector<SloTarget>& slo = study.targets;  // the probes' binding indices name these
  nlohmann::json j;
  j["load"] = requests::load_key(study.kind);
  // what the load counts: an open loop's arrivals start a conversation each when it has turns
  j["load_unit"] = study.kind == requests::LoadKind::clients ? "clients"
                   : spec.stream.conversation.turns > 1      ? "conversations/s"
                                                             : "requests/s";
  j["simulate_top"] = study.requested;
  j["simulated"] = study.finalists.size();
  j["moved"] = study.moved();
  j["settings"] = settings_json(study.settings);
  nlohmann::json targets = nlohmann::json::array();  // what every probe checks
  for (const SloTarget& t : slo)
    targets.push_back({{"metric", slo_latency_key(t.metric)},
                       {"statistic", slo_statistic_key(t)},
                       {"name", binding_name(slo, static_cast<std::size_t>(&t - slo.data()))},
                       {"limit_s", json_number(t.limit_s)}});
  j["targets"] = targets;
  // The stream the probes draw: its rate or clients is what the search varies (absent here); its
  // requests and warm-up size each probe with the settings (docs/physics.md §12.6).
  nlohmann::json stream = stream_json(spec);
  for (const char* varied : {"rate_per_s", "concurrency"}) stream.erase(varied);
  j["stream"] = stream;
  nlohmann::json finalists = nlohmann::json::array();
  for (const requests::Finalist& f : study.finalists) {
    nlohmann::json e;
    e["config"] = config_json(f.analytical.config, session.machine());
    e["batch"] = f.analytical.point.batch;
    e["token_budget"] = f.analytical.point.token_budget;
    e["pes"] = f.analytical.pes;
    e["study_rank"] = f.study_rank;  // the serve study's (its first objective)
    e["analytical_rank"] = f.analytical_rank;
    e["simulated_rank"] = f.simulated_rank;
    e["moved"] = f.moved;
    e["analytical"] = {{"requests_per_s", json_number(f.analytical.metrics.requests_per_s *
                                                      static_cast<double>(f.analytical.replicas))},
                       {"tokens_per_s", json_number(f.analytical.tokens_per_s)},
                       {"tokens_per_s_per_pe", json_number(f.analytical.tokens_per_s_per_pe)}};
    e["tokens_per_s_per_pe"] =
        f.capacity.found ? json_number(f.tokens_per_s_per_pe) : nlohmann::json(nullptr);
    e["difference"] = f.capacity.found ? json_number(f.difference) : nlohmann::json(nullptr);
    e["kv_blocks"] = f.kv.blocks;
    e["kv_block_tokens"] = f.kv.block_tokens;
    e["capacity"] = capacity_json(f.capacity, slo);
    finalists.push_back(e);
  }
  j["finalists"] = finalists;
  if (study.disaggregated) {
    const requests::PairCapacity& p = *study.disaggregated;
    nlohmann::json d;
    d["pair"] = disagg_pair_json(session, p.pair);
    d["analytical"] = {{"requests_per_s", json_number(p.pair.requests_per_s)},
                       {"tokens_per_s", json_number(p.pair.tokens_per_s)},
                       {"tokens_per_s_per_pe", json_number(p.pair.tokens_per_s_per_pe)}};
    d["tokens_per_s_per_pe"] =
        p.capacity.found ? json_number(p.tokens_per_s_per_pe) : nlohmann::json(nullptr);
    d["difference"] = p.capacity.found ? json_number(p.difference) : nlohmann::json(nullptr);
    d["capacity"] = capacity_json(p.capacity, slo);
    j["disaggregated"] = d;
  } else {
    j["disaggregated"] = nullptr;
  }
  return j;
}

}  // namespace tessera::studies
