#include "report/simulation_report.hpp"

#include <cmath>
#include <string>

#include "report/csv_cells.hpp"
#include "report/text_table.hpp"
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

std::string arrival_text(const RequestsSpec& spec) {
  const requests::StreamSpec& st = spec.stream;
  switch (st.arrival.kind) {
    case requests::ArrivalKind::poisson:
      return "Poisson arrivals at " + fixed(st.arrival.rate_per_s, 3) + " requests/s";
    case requests::ArrivalKind::gamma:
      return "gamma arrivals at " + fixed(st.arrival.rate_per_s, 3) + " requests/s, cv " +
             fixed(st.arrival.cv, 2);
    case requests::ArrivalKind::constant:
      return "one request every " + sim_time(1 / st.arrival.rate_per_s);
    case requests::ArrivalKind::concurrency:
      return std::to_string(st.arrival.concurrency) + " clients in a closed loop";
    case requests::ArrivalKind::trace:
      return "the trace " + spec.trace_file;
  }
  return "";
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
     << ")\n\n";
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
     << " requests/s; goodput " << fixed(r.goodput_requests_per_s, 3)
     << " requests/s within the SLO per request\n";
  os << "  KV occupancy mean " << fixed(100 * r.kv_occupancy_mean, 1) << " %, peak "
     << fixed(100 * r.kv_occupancy_peak, 1) << " %; queue " << fixed(r.queue_depth_mean, 2)
     << " requests on average; " << r.preemptions << " preemptions";
  if (r.rejected > 0) os << "; " << r.rejected << " requests refused (longer than a replica's KV)";
  if (spec.trace_skipped > 0) os << "; " << spec.trace_skipped << " trace rows of failed requests left out";
  os << "\n";
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
