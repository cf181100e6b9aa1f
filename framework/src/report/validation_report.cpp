#include "report/validation_report.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "report/text_table.hpp"
#include "tessera/version.hpp"

namespace tessera::validation {

namespace {
std::string pct(double f) { return fixed(100 * f, 1) + " %"; }
std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}
std::string clip(const std::string& s, std::size_t n) { return s.size() <= n ? s : s.substr(0, n - 1) + "~"; }

// 1 KiB = 1024 B, as nccl-tests labels sizes.
std::string human_bytes(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  return num(b) + " " + units[u];
}

std::string human_time(double s) {
  if (s >= 1) return num(s) + " s";
  if (s >= 1e-3) return num(s * 1e3) + " ms";
  return num(s * 1e6) + " us";
}

std::string algorithm_label(const CollectiveDetail& d) {
  std::string a = coll_algorithm_name(d.algorithm);
  if (d.protocol != Protocol::none) a += std::string("/") + protocol_name(d.protocol);
  return a;
}

// The measured time of a collective row (s): the row's time, or for busbw the time that
// bandwidth implies (t = M / algbw, algbw = busbw · n / (2(n-1))).
double measured_seconds(const RowResult& r) {
  if (r.predicted <= 0 || r.measured <= 0) return 0;
  // busbw is inversely proportional to the time, a latency proportional.
  return r.metric.rfind("collective_busbw", 0) == 0 ? r.detail.seconds * r.predicted / r.measured
                                                    : r.detail.seconds * r.measured / r.predicted;
}

void print_collectives(std::ostream& os, const ModelReport& rep, bool show_rows) {
  bool any = false;
  for (const RowResult& r : rep.rows) any = any || r.is_collective;
  if (!any) return;
  if (show_rows) {
    os << "collective rows (M per rank; t = the predicted time of one call; busbw = M/t * 2(n-1)/n):\n";
    TextTable t(
        {"id", "machine", "collective", "n", "M", "algorithm", "t", "measured", "predicted", "unit", "APE",
         "group"},
        {TextTable::Align::right, TextTable::Align::left, TextTable::Align::left, TextTable::Align::right,
         TextTable::Align::right, TextTable::Align::left, TextTable::Align::right, TextTable::Align::right,
         TextTable::Align::right, TextTable::Align::left, TextTable::Align::right, TextTable::Align::left});
    for (const RowResult& r : rep.rows) {
      if (!r.is_collective) continue;
      const std::string kind = r.metric.substr(r.metric.find(':') + 1);
      t.add_row({r.id, r.machine, kind, std::to_string(r.collective.ranks), human_bytes(r.collective.bytes),
                 algorithm_label(r.detail), human_time(r.detail.seconds), num(r.measured), num(r.predicted),
                 r.unit, pct(r.ape), r.collective.apart ? "apart" : r.collective.group});
    }
    t.print(os);
    os << "\n";
  }
  TextTable g(
      {"collective group", "n", "median APE", "mean APE"},
      {TextTable::Align::left, TextTable::Align::right, TextTable::Align::right, TextTable::Align::right});
  for (const auto& [name, st] : rep.by_group)
    if (name != kGroupOfflineBound)
      g.add_row({name == kGroupMoEAmbiguous ? name + std::string(" (apart)") : name, std::to_string(st.n),
                 pct(st.median_ape), pct(st.mean_ape)});
  g.print(os);
  os << "\n";
}
// Serving rows (analysis/serving_rows.hpp): the same quantity through the serving model, beside
// the step-level prediction above.
void print_serving(std::ostream& os, const ModelReport& rep, bool show_rows) {
  if (rep.serving.empty()) return;
  os << "\nserving rows (concurrency, ISL and OSL stated) through serving/" << rep.serving
     << " (means; no token budget):\n";
  if (show_rows) {
    TextTable t(
        {"id", "source", "metric", "measured", "step model", "serving", "unit", "APE"},
        {TextTable::Align::right, TextTable::Align::left, TextTable::Align::left, TextTable::Align::right,
         TextTable::Align::right, TextTable::Align::right, TextTable::Align::left, TextTable::Align::right});
    for (const RowResult& r : rep.rows)
      if (r.serving)
        t.add_row({r.id, clip(source_label(r.source), 26), r.metric, num(r.measured), num(r.predicted),
                   num(r.serving_predicted), r.unit, pct(r.serving_ape)});
    t.print(os, "  ");
    os << "\n";
  }
  TextTable s(
      {"source (serving rows)", "n", "median APE", "mean APE"},
      {TextTable::Align::left, TextTable::Align::right, TextTable::Align::right, TextTable::Align::right});
  for (const auto& [src, st] : rep.serving_by_source)
    s.add_row({clip(source_label(src), 40), std::to_string(st.n), pct(st.median_ape), pct(st.mean_ape)});
  s.add_separator();
  s.add_row({"overall", std::to_string(rep.serving_overall.n), pct(rep.serving_overall.median_ape),
             pct(rep.serving_overall.mean_ape)});
  s.print(os, "  ");
  if (!rep.serving_unmapped.empty()) {
    os << "  not run through the serving model (" << rep.serving_unmapped.size() << "):\n";
    TextTable u({"id", "metric", "reason"},
                {TextTable::Align::right, TextTable::Align::left, TextTable::Align::left});
    for (const UnmappedRow& r : rep.serving_unmapped) u.add_row({r.id, r.metric, r.reason});
    u.print(os, "    ");
  }
}
}  // namespace

void print_reports(std::ostream& os, const std::vector<ModelReport>& reports, bool show_rows,
                   std::size_t width) {
  for (const ModelReport& rep : reports) {
    os << "== latency model: " << rep.latency << " ==\n";
    if (show_rows) {
      TextTable t({"id", "source", "metric", "framework", "measured", "predicted", "unit", "APE"},
                  {TextTable::Align::right, TextTable::Align::left, TextTable::Align::left,
                   TextTable::Align::left, TextTable::Align::right, TextTable::Align::right,
                   TextTable::Align::left, TextTable::Align::right});
      t.set_fit(1, {2, "", false, false});  // source, then framework, when it must fit `width`
      t.set_fit(3, {1, "", false, false});
      for (const RowResult& r : rep.rows)
        t.add_row({r.id, clip(source_label(r.source), 26), r.metric, r.framework, num(r.measured),
                   num(r.predicted), r.unit, pct(r.ape)});
      t.print(os, "", width);
      os << "\n";
    }
    print_collectives(os, rep, show_rows);
    TextTable s(
        {"source", "n", "median APE", "mean APE"},
        {TextTable::Align::left, TextTable::Align::right, TextTable::Align::right, TextTable::Align::right});
    for (const auto& [src, st] : rep.by_source)
      s.add_row({clip(source_label(src), 40), std::to_string(st.n), pct(st.median_ape), pct(st.mean_ape)});
    s.add_separator();
    s.add_row(
        {"overall", std::to_string(rep.overall.n), pct(rep.overall.median_ape), pct(rep.overall.mean_ape)});
    s.print(os);
    for (const auto& [name, st] : rep.by_group)
      if (name == kGroupOfflineBound)
        os << name << " (apart, a ceiling: predicted >= measured expected): n " << st.n << ", median "
           << pct(st.median_ape) << "\n";
    print_serving(os, rep, show_rows);
    if (!rep.unmapped.empty()) {
      os << "\nunmapped rows (" << rep.unmapped.size() << "):\n";
      TextTable u({"id", "metric", "reason"},
                  {TextTable::Align::right, TextTable::Align::left, TextTable::Align::left});
      for (const UnmappedRow& r : rep.unmapped) u.add_row({r.id, r.metric, r.reason});
      u.print(os, "  ");
    }
    os << "\nmapped per metric:\n";
    TextTable pm(
        {"metric", "mapped", "rows", "median APE"},
        {TextTable::Align::left, TextTable::Align::right, TextTable::Align::right, TextTable::Align::right});
    for (const ModelReport::MetricCount& c : rep.by_metric)
      pm.add_row({c.metric, std::to_string(c.mapped), std::to_string(c.rows),
                  c.errors.n ? pct(c.errors.median_ape) : "-"});
    pm.print(os, "  ");
    const std::size_t total = rep.rows.size() + rep.unmapped.size();
    os << "\nmapped " << rep.rows.size() << " of " << total << " rows\n\n";
  }
}

namespace {
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
    if (r.serving)
      row["serving"] = {{"model", rep.serving}, {"predicted", r.serving_predicted}, {"ape", r.serving_ape}};
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
    (g == kGroupOfflineBound ? other_groups : groups)[g] = {
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

}  // namespace tessera::validation
