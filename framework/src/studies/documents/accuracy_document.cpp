#include "studies/documents/accuracy_document.hpp"

#include "tessera/version.hpp"

namespace tessera::accuracy {

namespace {

// The measured time of a collective row (s): the row's time, or for busbw the time that
// bandwidth implies (t = M / algbw, algbw = busbw · n / (2(n-1))).
double measured_seconds(const RowResult& r) {
  if (r.predicted <= 0 || r.measured <= 0) return 0;
  // busbw is inversely proportional to the time, a latency proportional.
  return r.metric.rfind("collective_busbw", 0) == 0 ? r.detail.seconds * r.predicted / r.measured
                                                    : r.detail.seconds * r.measured / r.predicted;
}

nlohmann::json report_json(const ModelReport& rep) {
  nlohmann::json j;
  j["latency"] = rep.latency;
  j["rows"] = nlohmann::json::array();
  for (const RowResult& r : rep.rows) {
    nlohmann::json row = {{"id", r.id},
                          {"source", r.source},
                          {"metric", r.metric},
                          {"unit", r.unit},
                          {"framework", r.framework},
                          {"measured", r.measured},
                          {"predicted", r.predicted},
                          {"ape", r.ape}};
    if (r.is_collective) {
      const CollectivePlan& c = r.collective;
      row["collective"] = {{"kind", comm_kind_name(c.kind)},
                           {"ranks", c.ranks},
                           {"bytes_per_rank_B", c.bytes},
                           {"machine", r.machine},
                           {"notes_algorithm", c.algorithm_note},
                           {"algorithm", coll_algorithm_name(r.detail.algorithm)},
                           {"protocol", protocol_name(r.detail.protocol)},
                           {"predicted_time_s", r.detail.seconds},
                           {"measured_time_s", measured_seconds(r)},
                           {"bw_efficiency", r.detail.bw_efficiency},
                           {"extra_latency_s", r.detail.extra_latency_s},
                           {"group", c.group},
                           {"apart", c.apart}};
      if (c.kind == CommKind::all_to_all) {
        row["collective"]["tokens_per_rank"] = c.tokens;
        row["collective"]["payload_B_per_element"] = c.payload_bytes;
      }
    }
    if (!r.framework_version.empty()) row["framework_version"] = r.framework_version;
    if (r.bound) row["bound"] = true;
    if (r.full_load)
      row["full_load"] = {{"batch_per_replica", r.full_load_batch},
                          {"kv_capacity_tokens", r.full_load_kv_tokens},
                          {"engine_rule", r.engine}};
    if (r.under_load) {
      const LoadAnswer& l = r.load;
      row["under_load"] = {{"statistic", r.load_statistic},  {"rate_per_s", l.rate_per_s},
                           {"clients", l.clients},           {"max_sequences", l.max_sequences},
                           {"token_budget", l.token_budget}, {"kv_blocks", l.kv_blocks},
                           {"block_tokens", l.block_tokens}, {"requests_measured", l.measured},
                           {"capacity_probes", l.probes},    {"engine_rule", r.engine},
                           {"lengths_from", r.lengths_from}};
    }
    if (r.serving)
      row["serving"] = {{"model", rep.serving}, {"predicted", r.serving_predicted}, {"ape", r.serving_ape}};
    if (r.simulated) {
      const SimulatedRow& m = r.simulation;
      row["simulated"] = {{"statistic", m.statistic},
                          {"statistic_stated", m.statistic_stated},
                          {"predicted", m.predicted},
                          {"ape", r.simulated_ape},
                          {"clients", m.clients},
                          {"requests", m.requests},
                          {"warmup", m.warmup},
                          {"kv_blocks", m.kv_blocks},
                          {"block_tokens", m.block_tokens},
                          {"preemptions", m.preemptions}};
      if (m.statistic != "rate") row["simulated"]["p50"] = m.p50;
    }
    j["rows"].push_back(std::move(row));
  }
  j["unmapped"] = nlohmann::json::array();
  for (const UnmappedRow& r : rep.unmapped)
    j["unmapped"].push_back({{"id", r.id}, {"source", r.source}, {"metric", r.metric}, {"reason", r.reason}});
  nlohmann::json by = nlohmann::json::object();
  for (const auto& [src, st] : rep.by_source)
    by[src] = {
        {"label", source_label(src)}, {"n", st.n}, {"median_ape", st.median_ape}, {"mean_ape", st.mean_ape}};
  nlohmann::json groups = nlohmann::json::object();
  nlohmann::json other_groups = nlohmann::json::object();
  for (const auto& [g, st] : rep.by_group)
    // Rows with a group of their own (a ceiling, full load, under a load) apart from the collectives'.
    (g == kGroupOfflineBound || g == kGroupFullLoad || g == kGroupUnderLoad ? other_groups : groups)[g] = {
        {"n", st.n}, {"median_ape", st.median_ape}, {"mean_ape", st.mean_ape}};
  nlohmann::json by_metric = nlohmann::json::object();
  for (const ModelReport::MetricCount& c : rep.by_metric) {
    by_metric[c.metric] = {{"mapped", c.mapped}, {"rows", c.rows}};
    if (c.errors.n) {
      by_metric[c.metric]["median_ape"] = c.errors.median_ape;
      by_metric[c.metric]["mean_ape"] = c.errors.mean_ape;
    }
  }
  if (!rep.serving.empty()) {
    nlohmann::json sby = nlohmann::json::object();
    for (const auto& [src, st] : rep.serving_by_source)
      sby[src] = {{"label", source_label(src)},
                  {"n", st.n},
                  {"median_ape", st.median_ape},
                  {"mean_ape", st.mean_ape}};
    nlohmann::json sun = nlohmann::json::array();
    for (const UnmappedRow& r : rep.serving_unmapped)
      sun.push_back({{"id", r.id}, {"source", r.source}, {"metric", r.metric}, {"reason", r.reason}});
    j["serving"] = {{"model", rep.serving},
                    {"overall",
                     {{"n", rep.serving_overall.n},
                      {"median_ape", rep.serving_overall.median_ape},
                      {"mean_ape", rep.serving_overall.mean_ape}}},
                    {"by_source", sby},
                    {"not_run", sun}};
  }
  if (rep.simulate) {
    auto stats = [](const ErrorStats& st) {
      return nlohmann::json{{"n", st.n}, {"median_ape", st.median_ape}, {"mean_ape", st.mean_ape}};
    };
    nlohmann::json by_source = nlohmann::json::object(), by_metric = nlohmann::json::object();
    for (const auto& [src, st] : rep.simulated_by_source) {
      by_source[src] = stats(st);
      by_source[src]["label"] = source_label(src);
    }
    for (const auto& [key, st] : rep.simulated_by_metric) by_metric[key] = stats(st);
    nlohmann::json not_run = nlohmann::json::array();
    for (const UnmappedRow& r : rep.simulated_not_run)
      not_run.push_back({{"id", r.id}, {"source", r.source}, {"metric", r.metric}, {"reason", r.reason}});
    j["simulated"] = {{"token_budget", kSimulatedTokenBudget},
                      {"overall", stats(rep.simulated_overall)},
                      {"by_source", by_source},
                      {"by_metric", by_metric},
                      {"compared_with_serving", rep.simulated_compared},
                      {"closer_than_serving", rep.simulated_improved},
                      {"not_run", not_run}};
  }
  j["summary"] = {
      {"by_collective_group", groups},
      {"overall",
       {{"n", rep.overall.n}, {"median_ape", rep.overall.median_ape}, {"mean_ape", rep.overall.mean_ape}}},
      {"by_source", by},
      {"by_metric", by_metric},
      {"mapped", rep.rows.size()},
      {"unmapped", rep.unmapped.size()}};
  if (!other_groups.empty()) j["summary"]["by_group"] = other_groups;
  return j;
}
}  // namespace

nlohmann::json reports_document(const std::vector<ModelReport>& reports) {
  if (reports.size() == 1) {
    nlohmann::json one = report_json(reports[0]);
    one["version"] = kVersion;
    return one;
  }
  nlohmann::json j;
  j["version"] = kVersion;
  j["models"] = nlohmann::json::array();
  for (const ModelReport& r : reports) j["models"].push_back(report_json(r));
  return j;
}

std::string reports_json(const std::vector<ModelReport>& reports) {
  return reports_document(reports).dump(2) + "\n";
}

}  // namespace tessera::accuracy
