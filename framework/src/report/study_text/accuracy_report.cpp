#include "report/study_text/accuracy_report.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "report/text/text_table.hpp"

namespace tessera::accuracy {

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
    if (name != kGroupOfflineBound && name != kGroupFullLoad && name != kGroupUnderLoad)
      g.add_row({name == kGroupMoEAmbiguous ? name + std::string(" (apart)") : name, std::to_string(st.n),
                 pct(st.median_ape), pct(st.mean_ape)});
  g.print(os);
  os << "\n";
}
// Serving rows (analysis/accuracy/serving_rows.hpp): the same quantity through the serving model, beside
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
// --simulate (analysis/accuracy/simulated_rows.hpp): the rows at a stated concurrency through the
// request simulator, beside the serving model's mean.
void print_simulated(std::ostream& os, const ModelReport& rep, bool show_rows) {
  if (!rep.simulate) return;
  os << "\nrows at a stated concurrency through the request simulator (closed loop, fixed ISL/OSL, "
     << "token budget " << kSimulatedTokenBudget << "):\n";
  if (show_rows) {
    TextTable t({"id", "metric", "statistic", "clients", "measured", "serving", "simulated", "unit", "APE"},
                {TextTable::Align::right, TextTable::Align::left, TextTable::Align::left,
                 TextTable::Align::right, TextTable::Align::right, TextTable::Align::right,
                 TextTable::Align::right, TextTable::Align::left, TextTable::Align::right});
    for (const RowResult& r : rep.rows)
      if (r.simulated)
        t.add_row({r.id, r.metric,
                   r.simulation.statistic + (r.simulation.statistic_stated ? "" : " (not stated)"),
                   std::to_string(r.simulation.clients), num(r.measured),
                   r.serving ? num(r.serving_predicted) : "-", num(r.simulation.predicted), r.unit,
                   pct(r.simulated_ape)});
    t.print(os, "  ");
    os << "\n";
  }
  TextTable s(
      {"metric and statistic", "n", "median APE", "mean APE"},
      {TextTable::Align::left, TextTable::Align::right, TextTable::Align::right, TextTable::Align::right});
  for (const auto& [key, st] : rep.simulated_by_metric)
    s.add_row({key, std::to_string(st.n), pct(st.median_ape), pct(st.mean_ape)});
  s.add_separator();
  s.add_row({"overall", std::to_string(rep.simulated_overall.n), pct(rep.simulated_overall.median_ape),
             pct(rep.simulated_overall.mean_ape)});
  s.print(os, "  ");
  if (rep.simulated_compared > 0)
    os << "  closer than the serving model on " << rep.simulated_improved << " of " << rep.simulated_compared
       << " rows\n";
  if (!rep.simulated_not_run.empty()) {
    os << "  stating a concurrency or a rate, not simulated (" << rep.simulated_not_run.size() << "):\n";
    TextTable u({"id", "metric", "reason"},
                {TextTable::Align::right, TextTable::Align::left, TextTable::Align::left});
    for (const UnmappedRow& r : rep.simulated_not_run) u.add_row({r.id, r.metric, r.reason});
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
      if (name == kGroupOfflineBound) {
        os << name << " (apart, a ceiling: predicted >= measured expected): n " << st.n << ", median "
           << pct(st.median_ape) << "\n";
      } else if (name == kGroupFullLoad) {
        os << name << " (no batch stated: the best over the batches the engine's KV rule admits; in the "
           << "medians above): n " << st.n << ", median " << pct(st.median_ape) << "\n";
      } else if (name == kGroupUnderLoad) {
        os << name << " (a request rate, a percentile or MLPerf Server's throughput: the simulated stream; "
           << "in the medians above): n " << st.n << ", median " << pct(st.median_ape) << "\n";
      }
    print_serving(os, rep, show_rows);
    print_simulated(os, rep, show_rows);
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

}  // namespace tessera::accuracy
