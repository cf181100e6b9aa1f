#include "report/study_text/simulation_report.hpp"

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "report/text/csv_cells.hpp"
#include "report/text/text_table.hpp"
#include "tessera/units.hpp"

namespace tessera {

namespace {

std::string sim_time(double s) { return std::isfinite(s) ? format_quantity(s, Dimension::time, 3) : "—"; }

// "405 ms ± 12 ms": the value and its 95 % half-width (none under two batches).
std::string with_interval(double v, double hw) {
  if (!std::isfinite(hw)) return sim_time(v);
  if (hw <= 1e-9 * std::abs(v)) return sim_time(v) + " ± 0";  // every batch the same (rounding apart)
  return sim_time(v) + " ± " + sim_time(hw);
}

std::string arrivals_of(const RequestsSpec& spec);

// The arrivals, and the conversations and shared prefixes they carry.
std::string arrival_text(const RequestsSpec& spec) {
  const requests::StreamSpec& st = spec.stream;
  std::string s = arrivals_of(spec);
  if (st.conversation.turns > 1)
    s += " of " + std::to_string(st.conversation.turns) + " turns, " + sim_time(st.conversation.think_s) +
         " mean think time";
  if (st.prefix.groups > 0)
    s += "; " + std::to_string(st.prefix.groups) + " shared prefixes of " + std::to_string(st.prefix.tokens) +
         " tokens";
  return s;
}

std::string arrivals_of(const RequestsSpec& spec) {
  const requests::StreamSpec& st = spec.stream;
  const std::string what = st.conversation.turns > 1 ? "conversations" : "requests";  // an arrival starts one
  switch (st.arrival.kind) {
    case requests::ArrivalKind::poisson:
      return "Poisson arrivals at " + fixed(st.arrival.rate_per_s, 3) + " " + what + "/s";
    case requests::ArrivalKind::gamma:
      return "gamma arrivals at " + fixed(st.arrival.rate_per_s, 3) + " " + what + "/s, cv " +
             fixed(st.arrival.cv, 2);
    case requests::ArrivalKind::constant:
      return "one " + what.substr(0, what.size() - 1) + " every " + sim_time(1 / st.arrival.rate_per_s);
    case requests::ArrivalKind::concurrency:
      return std::to_string(st.arrival.concurrency) + " clients in a closed loop";
    case requests::ArrivalKind::trace:
      return "the trace " + spec.trace_file;
  }
  return "";
}

// The SLO table: each target, the statistic simulated and whether it holds.
void print_slo(std::ostream& os, const std::vector<requests::SloCheck>& checks, std::size_t width) {
  TextTable t({"SLO", "target", "simulated", "met"}, {TextTable::Align::left, TextTable::Align::right,
                                                      TextTable::Align::right, TextTable::Align::left});
  std::string missed;
  for (const requests::SloCheck& c : checks) {
    const std::string name = slo_target_label(c.target);
    t.add_row({name, "<= " + sim_time(c.target.limit_s), with_interval(c.value_s, c.half_width_s),
               c.met ? "yes" : "NO"});
    if (!c.met) missed += (missed.empty() ? "" : ", ") + name;
  }
  os << "\n";
  t.print(os, "  ", width);
  if (missed.empty())
    os << "  every SLO met under this stream\n";
  else
    os << "  missed under this stream: " << missed
       << " (the point was chosen by the steady state, which binds each metric's tightest target)\n";
}

std::string bounds_text(const requests::RequestBounds& b) {
  std::string s;
  auto add = [&](const char* name, double v) {
    if (v < kNoSlo) s += (s.empty() ? "" : ", ") + std::string(name) + " <= " + sim_time(v);
  };
  add("TTFT", b.ttft_s);
  add("TPOT", b.tpot_s);
  add("E2E", b.e2e_s);
  return s;
}

// "vLLM 0.19.0 rules: running first, prefill chunks beside decodes, ..." or the plugin's name.
std::string scheduler_text(const requests::SimulatedPoint& s) {
  if (!s.policy.empty()) return "plugin " + s.policy + " (in place of the engine's rules)";
  const requests::SchedulerRules& r = s.rules;
  std::string t = (s.rules_from.empty() ? std::string("vLLM V1 (no framework)") : s.rules_from) + " rules: ";
  t += r.order == requests::StepOrder::prefill_first ? "prefill first, alone" : "running first";
  t += r.mixed ? ", prefill chunks beside decodes" : "";
  t += r.budget == requests::BudgetCounts::prefill ? ", token limit counts prefill"
                                                   : ", token limit counts all";
  if (s.preemption == requests::Preemption::no_evict)
    t += ", admission when the whole output fits, never preempts";
  else
    t += std::string(r.admission == requests::Admission::reserve_output ? ", admission reserves outputs"
                                                                        : ", admission by blocks") +
         (r.victim == requests::Victim::fewest_output ? ", victim: fewest outputs" : ", victim: newest");
  return t;
}

const char* preemption_text(requests::Preemption p) {
  switch (p) {
    case requests::Preemption::recompute:
      return "preemption by recompute";
    case requests::Preemption::swap:
      return "preemption by swap to host memory";
    case requests::Preemption::no_evict:
      return "no-evict admission";
  }
  return "";
}

// What the scheduling rules did, the non-zero counts (docs/physics.md §12.5 "Scheduling rules").
std::string rule_events_text(const requests::RuleEvents& e) {
  std::string s;
  auto add = [&](std::int64_t n, const char* what) {
    if (n > 0) s += (s.empty() ? "" : "; ") + std::to_string(n) + " " + what;
  };
  add(e.decodes_held, "prefill batches ran while sequences waited to decode (prefill first)");
  add(e.reserve_deferrals, "admissions held back by the output reservation");
  add(e.commit_deferrals, "admissions held back by no-evict commitments");
  add(e.block_deferrals, "admissions held back for free KV blocks");
  add(e.budget_free_decodes,
      "decode tokens beside prefill chunks outside the batched-token limit (it counts prefill)");
  return s;
}

// What prefix caching did (docs/physics.md §12.7): the shares of the admitted prompts' full blocks
// found in HBM and loaded from each tier, and the tier hits recomputed.
std::string cache_text(const requests::CacheFigures& c) {
  if (c.looked_up == 0) return "no admitted prompt had a full block another request could have computed";
  const double all = static_cast<double>(c.looked_up);
  std::string s = fixed(100 * static_cast<double>(c.hits) / all, 1) +
                  " % of the admitted prompts' full blocks found in HBM";
  constexpr std::array<const char*, 2> tiers{"host DRAM", "SSD"};
  for (std::size_t i = 0; i < c.loaded.size() && i < tiers.size(); ++i)
    s += ", " + fixed(100 * static_cast<double>(c.loaded[i]) / all, 1) + " % loaded from " + tiers[i];
  if (c.declined > 0)
    s +=
        "; " + std::to_string(c.declined) + " blocks found offloaded were recomputed (quicker than the copy)";
  return s;
}

void print_result(std::ostream& os, const requests::SimResult& r, const RequestsSpec& spec,
                  std::size_t width) {
  TextTable t({"metric", "mean", "P50", "P90", "P99", "max"},
              {TextTable::Align::left, TextTable::Align::right, TextTable::Align::right,
               TextTable::Align::right, TextTable::Align::right, TextTable::Align::right});
  const std::pair<const char*, const requests::MetricSummary*> rows[] = {
      {"TTFT", &r.ttft}, {"TPOT", &r.tpot}, {"ITL", &r.itl}, {"end to end", &r.e2e}, {"queueing", &r.queue}};
  for (const auto& [name, m] : rows) {
    if (m->count == 0) {
      t.add_row({name, "—", "—", "—", "—", "—"});
      continue;
    }
    t.add_row({name, with_interval(m->mean, m->mean_half_width), sim_time(m->percentile[0]),
               sim_time(m->percentile[1]), with_interval(m->percentile[2], m->half_width[2]),
               sim_time(m->max)});
  }
  t.print(os, "  ", width);
  os << "  (± the 95 % interval by batch means; TPOT per request (E2E − TTFT)/(OSL − 1), ITL every gap)\n\n";
  os << "  throughput " << fixed(r.output_tokens_per_s, 1) << " tokens/s, " << fixed(r.requests_per_s, 3)
     << " requests/s; goodput " << fixed(r.goodput_requests_per_s, 3) << " requests/s";
  const std::string bounds = bounds_text(r.request_bounds);
  os << (bounds.empty() ? " (no SLO: every request)" : " within " + bounds + " each") << "\n";
  os << "  KV occupancy mean " << fixed(100 * r.kv_occupancy_mean, 1) << " %, peak "
     << fixed(100 * r.kv_occupancy_peak, 1) << " %; queue " << fixed(r.queue_depth_mean, 2)
     << " requests on average; " << r.preemptions << " preemptions";
  if (r.rejected > 0) os << "; " << r.rejected << " requests refused (longer than a replica's KV)";
  if (spec.trace_skipped > 0) os << "; " << spec.trace_skipped << " trace rows of failed requests left out";
  os << "\n";
  if (const std::string rules = rule_events_text(r.rule_events); !rules.empty())
    os << "  rules at work: " << rules << "\n";
  if (r.cache.on) os << "  prefix cache: " << cache_text(r.cache) << "\n";
  if (!r.slo.empty()) print_slo(os, r.slo, width);
}

}  // namespace

void print_simulation(std::ostream& os, const requests::SimulatedPoint& s, const RequestsSpec& spec,
                      std::size_t width) {
  const requests::SimResult& r = s.result;
  const ParallelConfig& c = s.config;
  os << "\nrequests simulated on the best point (cp" << c.cp << " tp" << c.tp << " pp" << c.pp << " dp"
     << c.dp << " ep" << c.ep << ", batch " << s.point.batch << ", token budget "
     << (s.point.token_budget > 0 ? std::to_string(s.point.token_budget) : "none") << ")\n";
  os << "  " << arrival_text(spec) << "; " << r.sent << " sent, " << r.measured << " measured ("
     << spec.stream.warmup << " warm-up), seed " << spec.stream.seed << "\n";
  os << "  replica KV " << s.kv.blocks << " blocks of " << s.kv.block_tokens << " tokens ("
     << (s.kv.engine_rule ? "the framework's KV rule" : "what the memory plugin fits beside the weights")
     << ")\n";
  os << "  scheduler " << scheduler_text(s) << "\n";
  if (s.prefix_caching && !r.cache.on)
    os << "  prefix cache: not simulated (a scheduler plugin's admissions take no cached blocks)\n";
  os << "\n";
  print_result(os, r, spec, width);
}

void print_disagg_simulation(std::ostream& os, const requests::SimulatedPair& s, const RequestsSpec& spec,
                             std::size_t width) {
  const requests::SimResult& r = s.result;
  const DisaggPair& p = s.pair;
  auto cfg = [](const ParallelConfig& c) {
    return "cp" + std::to_string(c.cp) + " tp" + std::to_string(c.tp) + " pp" + std::to_string(c.pp) + " dp" +
           std::to_string(c.dp) + " ep" + std::to_string(c.ep);
  };
  os << "\nrequests simulated on the best disaggregated pair: " << p.x << " prefill x ("
     << cfg(p.prefill.config) << ", " << p.prefill.batch << " prompts a prefill), " << p.y << " decode x ("
     << cfg(p.decode.config) << ", batch " << p.decode.batch << ")\n";
  os << "  " << arrival_text(spec) << "; " << r.sent << " sent, " << r.measured << " measured ("
     << spec.stream.warmup << " warm-up), seed " << spec.stream.seed << "\n";
  os << "  replica KV: prefill " << s.prefill_kv.blocks << ", decode " << s.decode_kv.blocks << " blocks of "
     << s.decode_kv.block_tokens << " tokens; " << preemption_text(s.decode_limits.preemption)
     << "; the first token reaches the client with the KV\n";
  if (s.prefix_caching)
    os << "  prefix cache: not simulated for disaggregated pools (every prompt computed whole)\n";
  os << "\n";
  print_result(os, r, spec, width);
  if (!r.disagg) return;
  const requests::DisaggFigures& f = *r.disagg;
  os << "  KV transfer mean " << sim_time(f.transfer.mean) << ", P99 " << sim_time(f.transfer.percentile[2])
     << "; waiting for decode KV mean " << sim_time(f.transfer_wait.mean) << ", P99 "
     << sim_time(f.transfer_wait.percentile[2]) << "\n";
  const std::pair<const char*, const requests::PoolFigures*> pools[] = {{"prefill", &f.prefill},
                                                                        {"decode", &f.decode}};
  for (const auto& [name, pf] : pools)
    os << "  " << name << " pool: " << pf->replicas << " replicas, KV mean "
       << fixed(100 * pf->kv_occupancy_mean, 1) << " %, peak " << fixed(100 * pf->kv_occupancy_peak, 1)
       << " %, queue " << fixed(pf->queue_depth_mean, 2) << ", " << pf->preemptions << " preemptions\n";
}

void write_simulation_csv_header(std::ostream& os) {
  os << "metric,count,mean_s,mean_half_width_s";
  for (double p : requests::kPercentiles) {
    const std::string key = "p" + std::to_string(static_cast<int>(p));
    os << ',' << key << "_s," << key << "_half_width_s";
  }
  os << ",max_s\n";
}

void write_simulation_csv(std::ostream& os, const requests::SimResult& r) {
  write_simulation_csv_header(os);
  const std::pair<const char*, const requests::MetricSummary*> rows[] = {
      {"ttft", &r.ttft}, {"tpot", &r.tpot}, {"itl", &r.itl}, {"e2e", &r.e2e}, {"queueing", &r.queue}};
  for (const auto& [name, m] : rows) {
    os << name << ',' << m->count << ',' << csv_num(m->mean) << ',' << csv_num(m->mean_half_width);
    for (std::size_t p = 0; p < requests::kPercentiles.size(); ++p)
      os << ',' << csv_num(m->percentile[p]) << ',' << csv_num(m->half_width[p]);
    os << ',' << csv_num(m->max) << '\n';
  }
}

}  // namespace tessera
