#include "report/study_text/capacity_report.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "report/text/csv_cells.hpp"
#include "report/text/parallelism_label.hpp"
#include "report/text/text_table.hpp"
#include "tessera/units.hpp"

namespace tessera {

namespace {

using requests::Capacity;
using requests::CapacityProbe;
using requests::CapacityStop;
using requests::LoadKind;

std::string stream_kind(const RequestsSpec& spec) {
  switch (spec.stream.arrival.kind) {
    case requests::ArrivalKind::poisson:
      return "Poisson arrivals";
    case requests::ArrivalKind::gamma:
      return "gamma arrivals (cv " + fixed(spec.stream.arrival.cv, 2) + ")";
    case requests::ArrivalKind::constant:
      return "evenly spaced arrivals";
    case requests::ArrivalKind::concurrency:
      return "a closed loop of clients";
    case requests::ArrivalKind::trace:
      return "the trace " + spec.trace_file + " replayed faster or slower";
  }
  return "";
}

std::string load_text(const Capacity& c) {
  if (!c.found) return "none met";
  if (c.stop == CapacityStop::ceiling) return "unbounded";  // no SLO binds: the figures are saturated
  if (c.kind == LoadKind::clients) return fixed(c.load, 0) + " clients";
  return fixed(c.load, c.load >= 100  ? 0
                       : c.load >= 10 ? 1
                                      : 2) +
         (c.conversations ? " conversations/s" : " req/s");
}

std::string percent_text(double d) {
  if (!std::isfinite(d)) return "—";
  const double p = std::round(100 * d);
  return (p > 0 ? "+" : p < 0 ? "−" : "") + fixed(std::abs(p), 0) + " %";
}

// The target that stops a higher load (Capacity::stopped_by), "none" at the ceiling, "—" else.
std::string binding_text(const Capacity& c, const std::vector<SloTarget>& targets) {
  if (c.stopped_by < targets.size()) return slo_target_label(targets[c.stopped_by]);
  return c.stop == CapacityStop::ceiling ? "none" : "—";
}

std::string slo_list(const std::vector<SloTarget>& targets) {
  std::string s;
  for (const SloTarget& t : targets)
    s += (s.empty() ? "" : ", ") + slo_target_label(t) +
         " <= " + format_quantity(t.limit_s, Dimension::time, 3);
  return s.empty() ? "no SLO: the saturated throughput" : s;
}

std::string point_text(const MachineSpec& m, const requests::Finalist& f, const KnobsSeen& k) {
  const ServingPoint& p = f.analytical.point;
  return parallelism_label(m, f.analytical.config, k) + ", batch " + std::to_string(p.batch) +
         ", token budget " + (p.token_budget > 0 ? std::to_string(p.token_budget) : "none");
}

void print_pair(std::ostream& os, const requests::PairCapacity& p, const std::vector<SloTarget>& targets) {
  const DisaggPair& d = p.pair;
  auto cfg = [](const ParallelConfig& c) {
    return "tp" + std::to_string(c.tp) + " pp" + std::to_string(c.pp) + " dp" + std::to_string(c.dp) + " ep" +
           std::to_string(c.ep);
  };
  os << "  disaggregated best pair (" << d.x << " prefill x " << cfg(d.prefill.config) << ", " << d.y
     << " decode x " << cfg(d.decode.config) << " batch " << d.decode.batch << "): ";
  if (!p.capacity.found) {
    os << "no load met the SLOs (" << p.capacity.probes.size() << " probes)\n";
    return;
  }
  os << load_text(p.capacity) << ", " << tokens_rate(p.tokens_per_s_per_pe) << " tok/s/PE (analytical "
     << tokens_rate(d.tokens_per_s_per_pe) << ", " << percent_text(p.difference) << "), "
     << binding_text(p.capacity, targets) << " binds\n";
}

}  // namespace

void print_capacity(std::ostream& os, const requests::CapacityStudy& study, const RequestsSpec& spec,
                    const MachineSpec& machine, std::size_t width) {
  const std::vector<SloTarget>& targets = study.targets;
  const requests::CapacitySettings& s = study.settings;
  os << "\ncapacity at the SLOs (" << slo_list(targets) << "): the analytical top " << study.requested
     << " simulated under " << stream_kind(spec) << "\n";
  if (study.finalists.empty()) {
    os << "  no serving point meets the SLO in the steady state: no finalist to simulate\n";
    if (study.disaggregated) print_pair(os, *study.disaggregated, targets);
    return;
  }
  KnobsSeen k;
  for (const requests::Finalist& f : study.finalists) k.see(f.analytical.config);
  const requests::Finalist& best = study.finalists.front();
  if (best.capacity.found && best.capacity.stop == CapacityStop::ceiling)
    os << "  best: " << point_text(machine, best, k) << ": no SLO binds up to "
       << fixed(best.capacity.load / best.capacity.probes.front().load, 0)
       << "x its analytical load, saturated at " << tokens_rate(best.capacity.at.output_tokens_per_s)
       << " tokens/s, " << tokens_rate(best.tokens_per_s_per_pe) << " tok/s/PE (analytical "
       << tokens_rate(best.analytical.tokens_per_s_per_pe) << ", " << percent_text(best.difference) << ")\n";
  else if (best.capacity.found)
    os << "  best: " << point_text(machine, best, k) << " carries " << load_text(best.capacity) << ", "
       << tokens_rate(best.capacity.at.output_tokens_per_s) << " tokens/s, "
       << tokens_rate(best.tokens_per_s_per_pe) << " tok/s/PE (analytical "
       << tokens_rate(best.analytical.tokens_per_s_per_pe) << ", " << percent_text(best.difference) << ")\n";
  else
    os << "  no finalist met the SLOs at any load down to "
       << (study.kind == LoadKind::clients ? std::string("one client")
                                           : fixed(100 / s.max_factor, 1) + " % of its analytical rate")
       << "\n";
  std::uint64_t fewest = 0;  // measured requests of the smallest probe (a trace: the whole trace)
  for (const requests::Finalist& f : study.finalists)
    for (const CapacityProbe& p : f.capacity.probes)
      if (fewest == 0 || p.measured < fewest) fewest = p.measured;
  os << "  each probe " << fewest << "+ measured requests (seed " << spec.stream.seed
     << "), bisection on the "
     << (study.kind == LoadKind::clients ? "clients to one client"
                                         : "rate to " + fixed(100 * s.tolerance, 0) + " %")
     << "; ";
  const std::size_t moved = study.moved();
  if (moved == 0)
    os << "no rank moved by more than " << requests::kRankShiftFlag << " places\n\n";
  else
    os << moved << " finalist" << (moved == 1 ? "" : "s") << " moved by more than "
       << requests::kRankShiftFlag << " places (*)\n\n";
  TextTable t(
      {"#", "was", "parallelism", "batch", "budget", "PEs", "capacity", "tok/s/PE", "analytical", "diff",
       "binds", "probes"},
      {TextTable::Align::right, TextTable::Align::right, TextTable::Align::left, TextTable::Align::right,
       TextTable::Align::right, TextTable::Align::right, TextTable::Align::right, TextTable::Align::right,
       TextTable::Align::right, TextTable::Align::right, TextTable::Align::left, TextTable::Align::right});
  for (const requests::Finalist& f : study.finalists) {
    const ServingPoint& p = f.analytical.point;
    t.add_row({std::to_string(f.simulated_rank) + (f.moved ? "*" : ""), std::to_string(f.analytical_rank),
               parallelism_label(machine, f.analytical.config, k), std::to_string(p.batch),
               p.token_budget > 0 ? std::to_string(p.token_budget) : "none", std::to_string(f.analytical.pes),
               load_text(f.capacity), f.capacity.found ? tokens_rate(f.tokens_per_s_per_pe) : "—",
               tokens_rate(f.analytical.tokens_per_s_per_pe),
               f.capacity.found ? percent_text(f.difference) : "—", binding_text(f.capacity, targets),
               std::to_string(f.capacity.probes.size())});
  }
  t.print(os, "  ", width);
  os << "  (capacity: the most load within every SLO, to the bisection's tolerance: capacities that close "
        "are a tie; tok/s/PE: output tokens there; analytical: the steady state's at the same point; was: "
        "the "
        "analytical rank)\n";
  if (study.disaggregated) print_pair(os, *study.disaggregated, targets);
}

void write_capacity_csv(std::ostream& os, const requests::CapacityStudy& study) {
  const char* load = requests::load_key(study.kind);
  os << "pool,simulated_rank,analytical_rank,study_rank,moved,cp,tp,pp,dp,ep,batch,token_budget_tokens,pes,"
        "found,"
        "stop,"
     << load << ",upper_" << load
     << ",requests_per_s,output_tokens_per_s,tokens_per_s_per_pe,analytical_tokens_per_s_per_pe,difference,"
        "goodput_requests_per_s,ttft_p99_s,tpot_p99_s,e2e_p99_s,binding,probes\n";
  const auto tail = [&](const Capacity& c, double per_pe, double analytical, double difference) {
    const bool f = c.found;
    const std::string binding = binding_text(c, study.targets);
    os << (f ? "true" : "false") << ',' << requests::capacity_stop_key(c.stop) << ','
       << (f ? csv_num(c.load) : "") << ',' << (c.upper > 0 ? csv_num(c.upper) : "") << ','
       << (f ? csv_num(c.at.requests_per_s) : "") << ',' << (f ? csv_num(c.at.output_tokens_per_s) : "")
       << ',' << (f ? csv_num(per_pe) : "") << ',' << csv_num(analytical) << ','
       << (f ? csv_num(difference) : "") << ',' << (f ? csv_num(c.at.goodput_requests_per_s) : "") << ','
       << (f ? csv_num(c.at.ttft_p99_s) : "") << ',' << (f ? csv_num(c.at.tpot_p99_s) : "") << ','
       << (f ? csv_num(c.at.e2e_p99_s) : "") << ',' << csv_text(binding == "—" ? "" : binding) << ','
       << c.probes.size() << '\n';
  };
  for (const requests::Finalist& f : study.finalists) {
    const ParallelConfig& c = f.analytical.config;
    os << "aggregated," << f.simulated_rank << ',' << f.analytical_rank << ',' << f.study_rank << ','
       << (f.moved ? "true" : "false") << ',' << c.cp << ',' << c.tp << ',' << c.pp << ',' << c.dp << ','
       << c.ep << ',' << f.analytical.point.batch << ',' << f.analytical.point.token_budget << ','
       << f.analytical.pes << ',';
    tail(f.capacity, f.tokens_per_s_per_pe, f.analytical.tokens_per_s_per_pe, f.difference);
  }
  if (study.disaggregated) {
    const requests::PairCapacity& p = *study.disaggregated;
    const ParallelConfig& c = p.pair.decode.config;
    os << "disaggregated,,,,false," << c.cp << ',' << c.tp << ',' << c.pp << ',' << c.dp << ',' << c.ep << ','
       << p.pair.decode.batch << ",0," << p.pair.pes << ',';
    tail(p.capacity, p.tokens_per_s_per_pe, p.pair.tokens_per_s_per_pe, p.difference);
  }
}

}  // namespace tessera
