#include "report/study_text/search_report.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "host/plugin_defaults.hpp"
#include "report/text/band_text.hpp"
#include "report/text/csv_cells.hpp"
#include "report/text/text_table.hpp"
#include "studies/json/dp_groups.hpp"
#include "studies/json/json_number.hpp"
#include "tessera/units.hpp"
#include "tessera/version.hpp"

namespace tessera {

namespace {

// An objective that is also a field of every record, printed once in the best line.
bool is_record_objective(const std::string& name) {
  for (const char* record : plugin_defaults::kRecordObjectives)
    if (name == record) return true;
  return false;
}

std::string fmt_tokens(double v) {
  if (v >= 1e6) return fixed(v / 1e6, 3) + " Mtok/s";
  if (v >= 1e4) return fixed(v / 1e3, 2) + " ktok/s";
  if (v >= 100) return fixed(v, 1) + " tok/s";
  return fixed(v, 3) + " tok/s";
}

std::string fmt_usd(double v) {
  if (v >= 1e6) return fixed(v / 1e6, 3) + " MUSD";
  if (v >= 1e3) return fixed(v / 1e3, 1) + " kUSD";
  return fixed(v, 0) + " USD";
}

std::string fmt_bytes(double v) { return format_quantity(v, Dimension::bytes, 3); }

std::string units_text(const MachineSpec& m, const ConfigRecord& r) {
  std::string s;
  for (std::size_t p = 1; p <= m.levels.size() && p < r.units_used.size(); ++p) {
    if (!s.empty()) s += ", ";
    s += std::to_string(r.units_used[p]) + " " + m.levels[p - 1].name;
  }
  return s;
}

}  // namespace

std::string human_objective(const ObjectiveInfo& o, double v) {
  if (!std::isfinite(v)) return "—";
  if (o.unit == "s") return format_quantity(v, Dimension::time, 4);
  if (o.unit == "tok/s") return fmt_tokens(v);
  if (o.unit == "USD") return fmt_usd(v);
  if (o.unit == "J/tok") return format_quantity(v, Dimension::energy, 4) + "/tok";
  if (o.unit == "PE") return std::to_string(static_cast<long long>(std::llround(v)));
  if (o.unit.empty()) return fixed(v, 4);
  return format_quantity(v, Dimension::none, 4) + " " + o.unit;
}

void write_search_csv_header(std::ostream& os, const StudyDescription& study,
                             const std::vector<ObjectiveInfo>& objectives) {
  const MachineSpec& m = study.machine();
  os << "cp,tp,pp,dp,ep,kv_shard_mode,ffn_shard_scope,tp_placement,cp_placement,cp_ring_variant";
  for (const auto& o : objectives) os << ",objective_" << objective_key(o);
  os << ",latency_s,throughput_tok_s,pipeline_throughput_tok_s,efficiency,compute_util,bw_util,pes";
  for (std::size_t p = 0; p <= m.levels.size(); ++p) os << ",units_used_" << machine_level_name(m, p);
  os << ",fits_memory,placement_valid,feasible,reason,weights_bytes,kv_bytes,transient_bytes,used_bytes,"
        "budget_bytes,"
        "hbm_utilization\n";
}

void write_search_csv_row(std::ostream& os, const StudyDescription& study,
                          const std::vector<ObjectiveInfo>& objectives, const ConfigRecord& r) {
  const MachineSpec& m = study.machine();
  const ParallelConfig& c = r.config;
  os << c.cp << ',' << c.tp << ',' << c.pp << ',' << c.dp << ',' << c.ep << ','
     << kv_shard_mode_name(c.kv_shard_mode) << ',' << csv_escape(ffn_shard_scope_name(c.ffn_shard_scope))
     << ',' << m.placement_name(c.tp_placement) << ',' << m.placement_name(c.cp_placement) << ','
     << cp_ring_variant_name(c.cp_ring_variant);
  for (std::size_t i = 0; i < objectives.size(); ++i) os << ',' << csv_num(r.valid ? r.objectives[i] : NAN);
  os << ',' << csv_num(r.latency_s) << ',' << csv_num(r.throughput_tok_s) << ','
     << csv_num(r.pipeline_throughput_tok_s) << ',' << csv_num(r.efficiency) << ',' << csv_num(r.compute_util)
     << ',' << csv_num(r.bw_util) << ',' << r.pes;
  for (std::size_t p = 0; p <= m.levels.size(); ++p) os << ',' << r.units_used[p];
  os << ',' << (r.fits_memory ? "true" : "false") << ',' << (r.placement_valid ? "true" : "false") << ','
     << (r.feasible ? "true" : "false") << ',' << csv_escape(r.reason) << ',' << csv_num(r.weights_bytes)
     << ',' << csv_num(r.kv_bytes) << ',' << csv_num(r.transient_bytes) << ',' << csv_num(r.used_bytes) << ','
     << csv_num(r.budget_bytes) << ',' << csv_num(r.hbm_utilization) << '\n';
}

std::string search_csv(const StudyDescription& study, const SearchResult& res) {
  std::ostringstream os;
  write_search_csv_header(os, study, study.objectives);
  for (const ConfigRecord& r : res.records) write_search_csv_row(os, study, study.objectives, r);
  return os.str();
}

void print_scenario_header(std::ostream& os, const StudyDescription& study) {
  const Scenario& s = study.scenario;
  const Workload& w = s.workload;
  os << "scenario   " << s.name << ": " << s.model.name << " on " << s.machine.name << " ("
     << s.machine.total_pes() << " " << s.machine.pe.name << "s), "
     << (w.mode == Mode::decode ? "decode" : "prefill") << ", context " << w.context << ", batch " << w.batch;
  if (w.mode == Mode::prefill && w.chunk_count() > 1) os << ", chunk " << w.chunk_tokens();
  os << ", scope " << (w.scope == Scope::attention ? "attention" : "full") << '\n';
  os << "plugins    latency " << study.latency_name << ", memory " << s.plugins.memory.name << ", search "
     << s.plugins.search.name << ", objectives";
  for (const auto& o : study.objectives)
    os << ' ' << o.name << (o.direction == Direction::maximize ? "↑" : "↓");
  os << '\n';
}

void print_search_text(std::ostream& os, const StudyDescription& study, const SearchResult& res,
                       std::size_t pareto_rows, std::size_t width) {
  const MachineSpec& m = study.machine();
  const std::vector<ObjectiveInfo>& objs = study.objectives;
  print_scenario_header(os, study);
  os << "counts     enumerated " << res.counts.enumerated << ", valid " << res.counts.valid << ", feasible "
     << res.counts.feasible << ", evaluated " << res.counts.evaluated;
  if (res.counts.non_finite > 0) os << ", infeasible for a non-finite quantity " << res.counts.non_finite;
  os << "\n\n";
  if (!res.best) {
    if (res.counts.non_finite > 0)
      os << "no feasible configuration: every evaluated config is invalid, exceeds the per-PE memory "
            "budget, or gives a non-finite quantity (see the reason column of --csv)\n";
    else
      os << "no feasible configuration: every evaluated config is invalid or exceeds the per-PE memory "
            "budget\n";
    return;
  }
  const ConfigRecord& b = res.records[*res.best];
  const Band& band = study.band;
  // `explain --config` syntax: the line can be pasted (tests/terminal/test_answers_cli.cpp).
  os << wrap_list("best       ", format_config(b.config, m), width) << '\n';
  os << "           latency " << format_quantity(b.latency_s, Dimension::time)
     << band_suffix(band, BandQuantity::latency) << ", throughput " << fmt_tokens(b.throughput_tok_s)
     << band_suffix(band, BandQuantity::throughput);
  if (b.pipeline_throughput_tok_s > 0)
    os << " (pipeline-full " << fmt_tokens(b.pipeline_throughput_tok_s) << ")";
  os << ", efficiency " << fixed(b.efficiency, 4) << " (compute " << fixed(b.compute_util, 4)
     << ", bandwidth " << fixed(b.bw_util, 4) << ")\n";
  os << "           " << b.pes << ' ' << m.pe.name << "s";
  const std::string u = units_text(m, b);
  if (!u.empty()) os << " in " << u;
  os << "; memory per " << m.pe.name << ' ' << fmt_bytes(b.used_bytes) << " of " << fmt_bytes(b.budget_bytes)
     << " (" << fixed(100 * b.hbm_utilization, 1) << " %: weights " << fmt_bytes(b.weights_bytes) << ", KV "
     << fmt_bytes(b.kv_bytes) << ", transient " << fmt_bytes(b.transient_bytes) << ")\n";
  for (std::size_t i = 0; i < objs.size(); ++i)
    if (!is_record_objective(objs[i].name))
      os << "           " << objs[i].name << ' ' << human_objective(objs[i], b.objectives[i]) << '\n';
  os << "band       " << wrap_words(band_statement(band), 100, "           ") << '\n';

  const auto table = [&](const std::vector<std::size_t>& rows, std::size_t limit) {
    std::vector<std::string> head{"#", "cp", "tp", "pp", "dp", "ep", "kv", "ffn", "tp@", "cp@", "ring"};
    std::vector<TextTable::Align> al(11, TextTable::Align::right);
    for (std::size_t i = 6; i < 11; ++i) al[i] = TextTable::Align::left;
    for (const auto& o : objs) {
      head.push_back(o.name + (o.direction == Direction::maximize ? " ↑" : " ↓"));
      al.push_back(TextTable::Align::right);
    }
    bool has_latency = false;
    for (const auto& o : objs) has_latency = has_latency || o.name == plugin_defaults::kLatencyObjective;
    if (!has_latency) {
      head.push_back("latency");
      al.push_back(TextTable::Align::right);
    }
    head.push_back("memory");
    al.push_back(TextTable::Align::right);
    TextTable t(head, al);
    // Fitting a width: a knob that is the same in every row is named once; then memory, the
    // placements and the ring go, before the other knobs (the best's lines name every knob).
    for (std::size_t i = 1; i <= 10; ++i) t.set_fit(i, {0, "", true, false});
    const int drop_rank[11] = {0, 0, 0, 0, 0, 0, 2, 2, 3, 3, 4};
    for (std::size_t i = 6; i <= 10; ++i) t.set_fit(i, {drop_rank[i], "", true, false});
    for (std::size_t i = 0; i < objs.size(); ++i)
      if (objs[i].name == plugin_defaults::kEfficiencyObjective)
        t.set_fit(11 + i, {0, objs[i].direction == Direction::maximize ? "eff ↑" : "eff ↓", false, false});
    t.set_fit(head.size() - 1, {5, "", false, false});
    // Rows that differ only in dp are one row naming the ranges of dp and of the PE count.
    std::size_t n = 0;
    for (const std::vector<std::size_t>& g : run_dp_groups(res, rows)) {
      if (n++ >= limit) break;
      const ConfigRecord& r = res.records[rows[g.front()]];
      const ParallelConfig& c = r.config;
      std::vector<std::int64_t> dps, pes;
      for (std::size_t at : g) {
        dps.push_back(res.records[rows[at]].config.dp);
        pes.push_back(res.records[rows[at]].pes);
      }
      std::vector<std::string> cells{std::to_string(n),
                                     std::to_string(c.cp),
                                     std::to_string(c.tp),
                                     std::to_string(c.pp),
                                     value_range(dps),
                                     std::to_string(c.ep),
                                     kv_shard_mode_name(c.kv_shard_mode),
                                     ffn_shard_scope_name(c.ffn_shard_scope),
                                     m.placement_name(c.tp_placement),
                                     m.placement_name(c.cp_placement),
                                     cp_ring_variant_name(c.cp_ring_variant)};
      for (std::size_t i = 0; i < objs.size(); ++i)
        cells.push_back(g.size() > 1 && is_pe_count_objective(objs[i])
                            ? value_range(pes)
                            : human_objective(objs[i], r.objectives[i]));
      if (!has_latency) cells.push_back(format_quantity(r.latency_s, Dimension::time));
      cells.push_back(fmt_bytes(r.used_bytes));
      t.add_row(std::move(cells));
    }
    t.print(os, "  ", width);
  };

  os << "\nPareto frontier over";
  for (const auto& o : objs) os << ' ' << o.name;
  os << ": " << res.pareto.size() << " configs";
  // Frontier rows in the ranking's order: the first objective, then the next ones, then fewer PEs.
  std::vector<std::size_t> pf = res.pareto;
  std::stable_sort(pf.begin(), pf.end(), [&](std::size_t a, std::size_t bb) {
    const ConfigRecord &x = res.records[a], &y = res.records[bb];
    if (x.score != y.score) return x.score < y.score;
    for (std::size_t i = 1; i < objs.size(); ++i)
      if (x.objectives[i] != y.objectives[i])
        return oriented(x.objectives[i], objs[i].direction) < oriented(y.objectives[i], objs[i].direction);
    return x.pes < y.pes;
  });
  const std::size_t pf_rows = run_dp_groups(res, pf).size();
  if (pf_rows < pf.size())
    os << " in " << pf_rows << " rows (configurations that differ only in dp share one)";
  if (pf_rows > pareto_rows)
    os << " (first " << pareto_rows << " rows by "
       << (objs.empty() ? plugin_defaults::kLatencyObjective : objs[0].name) << ')';
  os << '\n';
  table(pf, pareto_rows);
  os << "\nTop " << res.top.size() << " by "
     << (objs.empty() ? plugin_defaults::kLatencyObjective : objs[0].name);
  const std::size_t top_rows = run_dp_groups(res, res.top).size();
  if (top_rows < res.top.size())
    os << " in " << top_rows << " rows (configurations that differ only in dp share one)";
  os << '\n';
  table(res.top, res.top.size());
  if (band.has_band())
    os << "  latencies " << band_short(band, BandQuantity::latency) << ", throughputs "
       << band_short(band, BandQuantity::throughput) << " " << band_provenance(band) << '\n';
  else
    os << "  every latency and throughput above: " << wrap_words(band_statement(band), 100, "    ") << '\n';
}

}  // namespace tessera
