#include "report/study_text/serve_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "host/plugin_defaults.hpp"
#include "report/study_text/explain_report.hpp"  // config_json
#include "report/study_text/search_report.hpp"   // objective_key, human_objective
#include "report/study_text/serving_stack_report.hpp"
#include "report/text/band_text.hpp"
#include "report/text/csv_cells.hpp"
#include "report/text/parallelism_label.hpp"
#include "report/text/text_table.hpp"
#include "studies/json/dp_groups.hpp"
#include "studies/json/json_number.hpp"
#include "tessera/units.hpp"
#include "tessera/version.hpp"

namespace tessera {

namespace {

std::string time_text(double s) { return std::isfinite(s) ? format_quantity(s, Dimension::time, 3) : "—"; }

std::string bytes_text(double b) { return format_quantity(b, Dimension::bytes, 3); }

// The index of the cost-per-million-tokens objective among the study's, or -1.
int cost_objective(const std::vector<ObjectiveInfo>& objectives) {
  for (std::size_t i = 0; i < objectives.size(); ++i)
    if (objectives[i].name == plugin_defaults::kCostPerMtokObjective) return static_cast<int>(i);
  return -1;
}

KnobsSeen varying_knobs(const ServeResult& r) {
  KnobsSeen k;
  for (const ServeRecord& rec : r.top) k.see(rec.config);
  for (const ServeRecord& rec : r.frontier) k.see(rec.config);
  if (r.closest_miss) k.see(r.closest_miss->config);
  return k;
}

std::string budget_text(std::int64_t b) { return b > 0 ? std::to_string(b) : "none"; }

std::string slo_text(const ServingSlo& slo) {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  if (slo.has_percentiles()) {  // each target with its statistic
    for (const SloTarget& t : slo.targets)
      add(slo_target_label(t) + " <= " + format_quantity(t.limit_s, Dimension::time));
    if (slo.min_tokens_per_s_per_user > 0)
      add("tokens/s/user mean >= " + format_quantity(slo.min_tokens_per_s_per_user, Dimension::none));
    return s + " (the steady state binds each metric's tightest)";
  }
  if (slo.ttft_s < kNoSlo) add("TTFT <= " + format_quantity(slo.ttft_s, Dimension::time));
  if (slo.tpot_s < kNoSlo) add("TPOT <= " + format_quantity(slo.tpot_s, Dimension::time));
  if (slo.e2e_s < kNoSlo) add("E2E <= " + format_quantity(slo.e2e_s, Dimension::time));
  if (slo.min_tokens_per_s_per_user > 0)
    add("tokens/s/user >= " + format_quantity(slo.min_tokens_per_s_per_user, Dimension::none));
  return s.empty() ? "none (every runnable point qualifies)" : s + " (SLOs apply to means)";
}

// Under a framework's KV rule: the capacity the engine allocates for the point's configuration,
// and which batch limit binds (docs/frameworks.md "KV capacity").
// The study computed both (studies/study_description.hpp's serve_point_notes).
void print_engine_kv(std::ostream& os, const StudyDescription& study, const EngineKvNote& note,
                     const ServeRecord& b, const char* pad) {
  if (!note.shown) return;
  os << pad << wrap_words(note.capacity, 100, std::string(pad) + "  ") << '\n';
  const bool staggered = study.scenario.plugins.serving.name != plugin_defaults::kStaticBatchServing;
  const std::int64_t kv = note.kv_max_batch;
  const std::int64_t budget = b.metrics.max_batch;  // 0: the token budget sets none
  const char* binds = "max sequences";
  std::int64_t least = b.point.batch;
  if (kv < least) {
    least = kv;
    binds = "KV capacity";
  }
  if (budget > 0 && budget < least) binds = "token budget";
  const std::string limits =
      "batch limits: max sequences " + std::to_string(b.point.batch) + ", KV capacity " + std::to_string(kv) +
      (staggered ? " (continuous batching, worst moment)" : " (all at ISL + OSL)") + ", token budget " +
      (budget > 0 ? std::to_string(budget) : std::string("none")) + "; " + binds + " binds";
  os << pad << wrap_words(limits, 100, std::string(pad) + "  ") << '\n';
}

// The best point's (or the closest miss's) lines of the text report.
// `label` ("best       ") opens the first line: the configuration in `explain --config` syntax,
// so that it can be pasted (tests/terminal/test_answers_cli.cpp), broken after a comma to fit `width`.
void print_point(std::ostream& os, const StudyDescription& study, const ServeRecord& b,
                 const EngineKvNote& kv_note, const std::string& label, std::size_t width) {
  const MachineSpec& m = study.machine();
  const char* pad = "           ";
  os << wrap_list(label, format_config(b.config, m), width > 0 ? width : 100) << '\n';  // as kColumns
  os << pad << "batch " << b.point.batch << " per replica, token budget " << budget_text(b.point.token_budget)
     << "; " << b.pes << ' ' << m.pe.name << (b.pes == 1 ? "" : "s") << ", " << b.replicas
     << (b.replicas == 1 ? " replica" : " replicas") << " (dp)\n";
  if (study.scenario.serving.speculative.given)
    os << pad
       << (b.point.speculative_tokens > 0
               ? "drafts k = " + std::to_string(b.point.speculative_tokens) +
                     (b.acceptance >= 0 ? " at acceptance " + fixed(b.acceptance, 2) : std::string()) + ": " +
                     fixed(b.point.tokens_per_verify, 2) + " tokens per verify step"
               : std::string("no drafting (k = 0): the engine without its drafter"))
       << '\n';
  if (b.metrics.max_batch > 0)
    os << pad << "largest batch the token budget sustains " << b.metrics.max_batch << '\n';
  const Band& band = study.band;
  const std::string lat = band_suffix(band, BandQuantity::latency);
  const std::string thr = band_suffix(band, BandQuantity::throughput);
  os << pad << "TTFT " << time_text(b.metrics.ttft_s) << lat << ", E2E " << time_text(b.metrics.e2e_s) << lat
     << '\n';
  os << pad << "TPOT " << time_text(b.metrics.tpot_s) << lat << " mean (tail "
     << time_text(b.metrics.tpot_tail_s) << lat << ")\n";
  os << pad << tokens_rate(b.tokens_per_s_per_user) << " tok/s/user" << thr << ", "
     << tokens_rate(b.tokens_per_s_per_pe) << " tok/s/PE" << thr << ", " << tokens_rate(b.tokens_per_s)
     << " tok/s in all" << thr << "\n";
  // Fitted to 100 columns, as the rest of the report (the statement names its provenance).
  os << pad << "band " << wrap_words(band_statement(band), 100, std::string(pad) + "     ") << '\n';
  const int cost = cost_objective(study.objectives);
  if (cost >= 0)
    os << pad << "cost per million tokens "
       << human_objective(study.objectives[static_cast<std::size_t>(cost)],
                          b.objectives[static_cast<std::size_t>(cost)])
       << '\n';
  // Under an engine's KV rule its pool decides (the next lines), not the memory model's budget.
  os << pad << "memory per " << m.pe.name << ' ' << bytes_text(b.used_bytes);
  if (kv_note.shown)
    os << " if all " << b.point.batch << " held " << study.workload.input + study.workload.output
       << " tokens (the engine's pool below decides)\n";
  else
    os << " of " << bytes_text(b.budget_bytes) << " at the peak KV (" << b.point.batch << " x "
       << study.workload.input + study.workload.output << " tokens)\n";
  print_engine_kv(os, study, kv_note, b, pad);
  bool any_other = false;
  for (std::size_t i = 0; i < study.objectives.size(); ++i) {
    const std::string& n = study.objectives[i].name;
    // The default serving objectives are printed in the lines above.
    const auto& shown = plugin_defaults::kServingObjectives;
    if (static_cast<int>(i) == cost || std::find(shown.begin(), shown.end(), n) != shown.end()) continue;
    os << (any_other ? ", " : pad) << n << ' ' << human_objective(study.objectives[i], b.objectives[i]);
    any_other = true;
  }
  if (any_other) os << '\n';
}

// The widest line of `text` (display columns).
std::size_t widest(const std::string& text) {
  std::size_t w = 0, start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    w = std::max(w, display_width(text.substr(start, end - start)));
    start = end + 1;
  }
  return w;
}

std::string render_table(const StudyDescription& study, const ServeResult& res,
                         const std::vector<ServeRecord>& rows, std::size_t limit, const KnobsSeen& k,
                         bool tail, std::size_t width = 0) {
  const MachineSpec& m = study.machine();
  const int cost = cost_objective(study.objectives);
  // Speculative decoding: the point's draft length k, and its acceptance rate when swept.
  const bool drafts = study.scenario.serving.speculative.given;
  const bool rates = !study.scenario.sweep.serving_acceptance.empty();
  std::vector<std::string> head{"#", "parallelism", "batch", "budget"};
  if (drafts) head.push_back("k");
  if (rates) head.push_back("accept");
  for (const char* h : {"PEs", "TTFT", "TPOT"}) head.push_back(h);
  if (tail) head.push_back("TPOT tail");
  head.push_back("tok/s/user");
  head.push_back("tok/s/PE");
  if (cost >= 0) head.push_back("USD/Mtok");
  std::vector<TextTable::Align> al(head.size(), TextTable::Align::right);
  al[1] = TextTable::Align::left;
  TextTable t(head, al);
  // Past the knobs (print_table): the token budget, then the batch go to fit `width`.
  t.set_fit(2, {1, "", false, false});
  t.set_fit(3, {2, "", false, false});
  // Rows that differ only in dp are one row naming the ranges of dp and of the PEs.
  std::size_t n = 0;
  for (const std::vector<std::size_t>& g : serve_dp_groups(res, rows)) {
    if (n++ >= limit) break;
    const ServeRecord& r = rows[g.front()];
    std::vector<std::int64_t> dps, pes;
    for (std::size_t at : g) {
      dps.push_back(rows[at].config.dp);
      pes.push_back(rows[at].pes);
    }
    std::vector<std::string> cells{std::to_string(n), parallelism_label(m, r.config, k, value_range(dps)),
                                   std::to_string(r.point.batch), budget_text(r.point.token_budget)};
    if (drafts) cells.push_back(std::to_string(r.point.speculative_tokens));
    if (rates) cells.push_back(fixed(r.acceptance, 2));
    for (std::string c : {value_range(pes), time_text(r.metrics.ttft_s), time_text(r.metrics.tpot_s)})
      cells.push_back(std::move(c));
    if (tail) cells.push_back(time_text(r.metrics.tpot_tail_s));
    cells.push_back(tokens_rate(r.tokens_per_s_per_user));
    cells.push_back(tokens_rate(r.tokens_per_s_per_pe));
    if (cost >= 0) cells.push_back(fixed(r.objectives[static_cast<std::size_t>(cost)], 3));
    t.add_row(std::move(cells));
  }
  std::ostringstream os;
  t.print(os, "  ", width);
  return os.str();
}

// At most kColumns wide: the TPOT tail column goes first, then the knobs beyond tp, pp, dp,
// ep (the best point's lines and --json name every knob).
constexpr std::size_t kColumns = 100;

void print_table(std::ostream& os, const StudyDescription& study, const ServeResult& res,
                 const std::vector<ServeRecord>& rows, std::size_t limit, const KnobsSeen& k,
                 std::size_t width) {
  const std::size_t cap = width > 0 ? width : kColumns;
  std::string text = render_table(study, res, rows, limit, k, true);
  if (widest(text) <= cap) {
    os << text;
    return;
  }
  text = render_table(study, res, rows, limit, k, false);
  if (widest(text) <= cap) {
    os << text;
    return;
  }
  KnobsSeen numeric;
  numeric.cp = k.cp;
  os << render_table(study, res, rows, limit, numeric, false, width)
     << "  (the rows differ in knobs beyond cp, tp, pp, dp, ep too: see --json or --csv)\n";
}

}  // namespace

void write_serve_csv_header(std::ostream& os, const StudyDescription& study) {
  os << "cp,tp,pp,dp,ep,kv_shard_mode,ffn_shard_scope,tp_placement,cp_placement,cp_ring_variant,batch,"
        "token_budget_tokens,"
     << (study.scenario.serving.speculative.given ? "draft_tokens,tokens_per_verify,acceptance," : "")
     << "replicas,pes,ttft_s,tpot_s,tpot_tail_s,e2e_s,tokens_per_s,tokens_per_s_per_pe,"
        "tokens_per_s_per_user,prefill_time_share,max_batch,chunk_tokens,chunk_iterations,kv_tokens_peak,"
        "kv_fits,used_bytes,budget_bytes";
  for (const ObjectiveInfo& o : study.objectives) os << ",objective_" << objective_key(o);
  os << ",runnable,feasible,verdict,slo_ratio,reason\n";
}

void write_serve_csv_row(std::ostream& os, const StudyDescription& study, const ServeRecord& r) {
  const MachineSpec& m = study.machine();
  const ParallelConfig& c = r.config;
  const bool timed = r.verdict != ServingVerdict::invalid;
  const auto num = [&](double v) { return csv_num(timed ? v : NAN); };
  const ServingMetrics& mt = r.metrics;
  os << c.cp << ',' << c.tp << ',' << c.pp << ',' << c.dp << ',' << c.ep << ','
     << kv_shard_mode_name(c.kv_shard_mode) << ',' << csv_escape(ffn_shard_scope_name(c.ffn_shard_scope))
     << ',' << m.placement_name(c.tp_placement) << ',' << m.placement_name(c.cp_placement) << ','
     << cp_ring_variant_name(c.cp_ring_variant) << ',' << r.point.batch << ',' << r.point.token_budget << ',';
  if (study.scenario.serving.speculative.given)
    os << r.point.speculative_tokens << ',' << csv_num(r.point.tokens_per_verify) << ','
       << (r.acceptance >= 0 ? csv_num(r.acceptance) : std::string()) << ',';
  os << r.replicas << ',' << r.pes << ',' << num(mt.ttft_s) << ',' << num(mt.tpot_s) << ','
     << num(mt.tpot_tail_s) << ',' << num(mt.e2e_s) << ',' << num(r.tokens_per_s) << ','
     << num(r.tokens_per_s_per_pe) << ',' << num(r.tokens_per_s_per_user) << ',' << num(mt.prefill_time_share)
     << ',' << mt.max_batch << ',' << mt.chunk << ',' << mt.chunk_iterations << ',' << num(mt.kv_tokens_peak)
     << ',' << (mt.kv_fits ? "true" : "false") << ',' << num(r.used_bytes) << ',' << num(r.budget_bytes);
  const std::size_t k = study.objectives.size();
  for (std::size_t i = 0; i < k; ++i) os << ',' << csv_num(r.runnable ? r.objectives[i] : NAN);
  os << ',' << (r.runnable ? "true" : "false") << ',' << (r.feasible ? "true" : "false") << ','
     << serving_verdict_name(r.verdict) << ',' << csv_num(r.runnable ? r.slo_ratio : NAN) << ','
     << csv_escape(r.reason) << '\n';
}

namespace {

// The drafter line (serving.speculative, docs/physics.md §12.8): the method, k and the acceptance,
// or the lists the sweep searches.
void print_drafter(std::ostream& os, const Scenario& s) {
  const SpeculativeSpec& p = s.serving.speculative;
  if (!p.given) return;
  const Sweep& sw = s.sweep;
  os << "drafter    "
     << (p.method == SpeculativeMethod::mtp ? std::string("the model's MTP module")
         : p.method == SpeculativeMethod::eagle
             ? std::string("an EAGLE-3 head")
             : "the draft model " + (p.draft_model ? p.draft_model->name : std::string("?")));
  if (!sw.serving_speculative_steps.empty()) {
    std::string ks;
    for (std::int64_t k : sw.serving_speculative_steps) ks += (ks.empty() ? "" : ", ") + std::to_string(k);
    os << " drafts k in {" << ks << "} tokens";
  } else {
    os << " drafts " << p.steps << (p.steps == 1 ? " token" : " tokens");
  }
  os << " per iteration, acceptance ";
  if (!sw.serving_acceptance.empty()) {
    std::string list;
    for (double a : sw.serving_acceptance) list += (list.empty() ? "" : ", ") + fixed(a, 2);
    os << "in {" << list << "} each (geometric): each point's own tokens per verify step\n";
    return;
  }
  if (p.acceptance >= 0) {
    os << fixed(p.acceptance, 2) << " each (geometric)";
  } else {
    const std::size_t n = sw.serving_speculative_steps.empty() ? static_cast<std::size_t>(p.steps)
                                                               : p.acceptance_by_position.size();
    for (std::size_t i = 0; i < n; ++i) os << (i ? "/" : "") << fixed(p.acceptance_by_position[i], 2);
    os << " by position";
  }
  if (sw.serving_speculative_steps.empty())
    os << ": " << fixed(p.tokens_per_verify(), 2) << " tokens per verify step\n";
  else
    os << ": each point's own tokens per verify step\n";
}

// The report's opening lines: the scenario, workload, SLO, PE budget, plugins, framework, the
// ranking axes and the counts of the points evaluated and why the others are not runnable.
void print_serve_heading(std::ostream& os, const StudyDescription& study, const ServeResult& res) {
  const Scenario& s = study.scenario;
  const MachineSpec& m = s.machine;
  const ServeCounts& c = res.counts;
  os << "scenario   " << s.name << ": " << s.model.name << " on " << m.name << " (" << m.total_pes() << ' '
     << m.pe.name << "s)\n";
  os << "workload   serve: ISL " << s.workload.input << " prompt tokens, OSL " << s.workload.output
     << " output tokens per request\n";
  os << "SLO        " << slo_text(s.serving.slo) << '\n';
  if (res.max_pes > 0)
    os << "budget     at most " << res.max_pes << " PEs per configuration (all replicas)\n";
  else
    os << "budget     no PE budget (serving.max_pes or --max-pes N sets one)\n";
  os << "plugins    serving " << s.plugins.serving.name << ", latency " << study.latency_name << ", memory "
     << s.plugins.memory.name << '\n';
  print_serving_stack_text(os, s, &c);
  print_drafter(os, s);
  os << "ranked by ";
  for (const ServeAxis& a : res.axes) os << ' ' << a.name << (a.direction == Direction::maximize ? "↑" : "↓");
  os << '\n';
  os << "counts     " << c.configurations << " configurations";
  if (c.over_budget > 0) os << " (" << c.over_budget << " over the PE budget)";
  os << " x " << c.points << " serving points: " << c.evaluated << " evaluated\n";
  os << "           " << c.runnable << " runnable: " << c.within_slo << " within the SLO, " << c.slo_miss
     << " missing it\n";
  os << "           not runnable: KV does not fit " << c.kv_overflow << ", unsupported " << c.unsupported
     << ", invalid " << c.invalid << ", non-finite " << c.non_finite << "\n\n";
}

// When no point runs: which reasons there were (the counts above), and where to look.
void print_no_runnable_point(std::ostream& os, const StudyDescription& study, const ServeCounts& c) {
  std::string why;
  auto add = [&](std::uint64_t n, const char* what) {
    if (n > 0) why += std::string(why.empty() ? "" : ", ") + what;
  };
  add(c.over_budget, "over the PE budget");
  add(c.invalid, "invalid");
  add(c.unsupported, "unsupported by the serving plugin");
  add(c.kv_overflow, "KV does not fit");
  add(c.non_finite, "non-finite");
  os << "no runnable point (" << why << ").\n"
     << "The reason and the serving plugin's largest sustainable batch of every point are in --csv\n"
        "(columns reason, max_batch): a smaller batch, a larger token budget or more PEs may run.\n";
  if (c.kv_overflow > 0 && study.scenario.engine_kv.active())
    os << "Under " << study.scenario.engine_kv.label
       << "'s KV rule each point's reason states the engine's pool\n(\"exceeds the ... KV capacity of N "
          "tokens\"): a pool of 0 tokens means its memory fraction of the GPU\nis spent before the KV cache "
          "(engine: knobs, docs/frameworks.md \"KV capacity\").\n";
}

}  // namespace

void print_serve_text(std::ostream& os, const StudyDescription& study, const ServeResult& res,
                      const ServePointNotes& notes, std::size_t frontier_rows, std::size_t width) {
  const KnobsSeen k = varying_knobs(res);
  print_serve_heading(os, study, res);
  if (const ServeRecord* b = res.best()) {
    print_point(os, study, *b, notes.best, "best       ", width);
    os << "\nPareto frontier over";
    for (const ServeAxis& a : res.axes) os << ' ' << a.name;
    os << ": " << res.frontier.size() << " points";
    const std::size_t frontier_groups = serve_dp_groups(res, res.frontier).size();
    if (frontier_groups < res.frontier.size())
      os << " in " << frontier_groups << " rows\n  (configurations that differ only in dp share one)";
    if (frontier_groups > frontier_rows)
      os << "\n  (the first " << frontier_rows << " rows by " << res.axes.front().name << ')';
    os << '\n';
    print_table(os, study, res, res.frontier, frontier_rows, k, width);
    os << "\nTop " << res.top.size() << " by " << res.axes.front().name;
    const std::size_t top_groups = serve_dp_groups(res, res.top).size();
    if (top_groups < res.top.size()) os << " in " << top_groups << " rows";
    os << '\n';
    print_table(os, study, res, res.top, res.top.size(), k, width);
    const Band& band = study.band;
    if (band.has_band())
      os << "  times "
         << wrap_words(band_short(band, BandQuantity::latency) + ", rates " +
                           band_short(band, BandQuantity::throughput) + " " + band_provenance(band),
                       100, "        ")
         << '\n';
    else
      os << "  every time and rate above: " << wrap_words(band_statement(band), 100, "    ") << '\n';
    return;
  }
  if (res.closest_miss) {
    os << "no point meets the SLO; the closest miss is " << fixed(res.closest_miss->slo_ratio, 2)
       << "x the SLO (" << res.closest_miss->reason << "):\n";
    print_point(os, study, *res.closest_miss, notes.closest_miss, "miss       ", width);
    return;
  }
  print_no_runnable_point(os, study, res.counts);
}

}  // namespace tessera
