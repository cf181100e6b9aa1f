// Reports of the disaggregated study (disagg_report.hpp).
#include "report/study_text/disagg_report.hpp"

#include <cmath>
#include <string>

#include "report/study_text/explain_report.hpp"  // config_json
#include "report/text/band_text.hpp"
#include "report/text/text_table.hpp"
#include "studies/json/json_number.hpp"
#include "tessera/units.hpp"

namespace tessera {

namespace {

// "tp8 pp1 dp2" (cp and ep when not 1, the KV sharding when replicated): the full knobs are in --json.
std::string short_config(const ParallelConfig& c) {
  std::string s;
  if (c.cp != 1) s += "cp" + std::to_string(c.cp) + ' ';
  s += "tp" + std::to_string(c.tp) + " pp" + std::to_string(c.pp) + " dp" + std::to_string(c.dp);
  if (c.ep != 1) s += " ep" + std::to_string(c.ep);
  if (c.kv_shard_mode != KvShardMode::split) s += " kv=replicate";
  return s;
}

std::string t3(double s) { return format_quantity(s, Dimension::time, 3); }

void print_pair(std::ostream& os, const DisaggNotes& notes, const DisaggPair& p) {
  const Band& band = notes.band;
  const std::string lat = band_suffix(band, BandQuantity::latency);
  const std::string thr = band_suffix(band, BandQuantity::throughput);
  os << p.x << " x prefill [" << short_config(p.prefill.config) << ", batch " << p.prefill.batch << "] + "
     << p.y << " x decode [" << short_config(p.decode.config) << ", batch " << p.decode.batch
     << "] = " << p.pes << " PEs\n";
  os << "           " << fixed(p.tokens_per_s_per_pe, 1) << " tok/s/PE" << thr << ", "
     << fixed(p.tokens_per_s_per_user, 1) << " tok/s/user" << thr << ", TPOT " << t3(p.tpot_s) << lat
     << "\n           TTFT " << t3(p.ttft_s) << lat << " (prefill " << t3(p.prefill.time_s) << lat
     << " + KV transfer " << t3(p.transfer_exposed_s) << " exposed of " << t3(p.transfer.time_s)
     << ")\n           " << fixed(p.requests_per_s, 2) << " req/s" << thr << ", "
     << (p.prefill_bound ? "prefill" : "decode") << "-bound"
     << ((p.prefill_bound ? p.prefill_link_bound : p.decode_link_bound) ? " (by its link)" : "")
     << "; pools busy " << fixed(100 * p.prefill_utilization, 0) << " % (prefill), "
     << fixed(100 * p.decode_utilization, 0) << " % (decode); queueing not modelled\n"
     << "           KV " << format_quantity(p.transfer.bytes, Dimension::bytes, 3) << " per request over "
     << notes.best_link << (p.transfer.resharded ? " (resharded)" : "") << '\n'
     << "           band " << wrap_words(band_statement(band), 100, "                ") << '\n';
}

// Why no pair meets the SLO, from the counts.
std::string no_pair_reason(const DisaggStudy& d) {
  const DisaggCounts& c = d.result.counts;
  if (c.prefill_kept == 0)
    return d.pools.prefill.empty() ? "no prefill point fits"
                                   : "no prefill point's prefill time is within the TTFT SLO";
  if (c.decode_kept == 0)
    return d.pools.decode.empty() ? "no decode point fits" : "no decode point's TPOT is within the SLO";
  if (c.within_slo == 0 && c.slo_miss == 0) return "every pair exceeds the PE budget or the machine";
  return "every pair misses the SLO (TTFT with the KV transfer, or E2E)";
}

}  // namespace

void print_disagg_text(std::ostream& os, const StudyDescription& study, const DisaggStudy& d,
                       const DisaggNotes& notes, const ServeResult& agg, std::size_t frontier_rows,
                       const std::vector<AggregatedOn>& also, std::size_t width) {
  const DisaggregationSpec& spec = study.scenario.serving.disaggregated;
  const DisaggCounts& c = d.result.counts;
  os << "\nDisaggregated: a prefill pool and a decode pool, rate-matched\n";
  if (study.scenario.serving.separate_machines())
    os << "machines   prefill on " << notes.prefill_machine << ", decode on " << notes.decode_machine
       << " (linked by serving.disaggregated.transfer)\n";
  os << "           KV transfer " << transfer_overlap_name(spec.overlap) << ", up to " << spec.max_replicas
     << " instances per pool\n";
  os << "pools      " << d.pools.configurations << " configurations; prefill: " << d.pools.prefill.size()
     << " of " << d.pools.prefill_points << " points fit, " << c.prefill_kept
     << " Pareto-kept within the SLO\n";
  os << "           decode: " << d.pools.decode.size() << " of " << d.pools.decode_points << " fit, "
     << c.decode_kept << " kept\n";
  os << "pairs      " << c.pairs << " (kept prefill x kept decode x " << spec.max_replicas
     << "^2): " << c.within_slo << " within the SLO\n";
  os << "           " << c.slo_miss << " missing it, " << c.over_budget << " over the PE budget, "
     << c.over_machine << " over the machine, " << c.no_link << " without a link\n";
  if (d.pools.stack_dropped > 0)
    os << "           " << d.pools.stack_dropped
       << " configurations dropped: the framework runs pp 1 only in a disaggregated pool\n";
  if (d.pools.non_finite > 0)
    os << "           " << d.pools.non_finite
       << " pool points dropped: a step time not a positive finite number\n";
  if (!d.result.best) {
    os << "no disaggregated pair meets the SLO: " << no_pair_reason(d) << '\n';
    return;
  }
  os << "best       ";
  print_pair(os, notes, *d.result.best);
  os << "frontier   tokens/s/PE vs tokens/s/user: " << d.result.frontier.size() << " pairs\n";
  using A = TextTable::Align;
  TextTable t({"tok/s/user", "tok/s/PE", "PEs", "prefill x n", "b", "decode x n", "B", "TTFT", "TPOT"},
              {A::right, A::right, A::right, A::left, A::right, A::left, A::right, A::right, A::right});
  // Fitting a width: the two batches go first, then TTFT (the best's lines name them).
  t.set_fit(4, {2, "", false, false});
  t.set_fit(6, {2, "", false, false});
  t.set_fit(7, {1, "", false, false});
  std::size_t rows = 0;
  for (const DisaggPair& p : d.result.frontier) {
    if (rows++ == frontier_rows) break;
    t.add_row({fixed(p.tokens_per_s_per_user, 1), fixed(p.tokens_per_s_per_pe, 1), std::to_string(p.pes),
               short_config(p.prefill.config) + " x" + std::to_string(p.x), std::to_string(p.prefill.batch),
               short_config(p.decode.config) + " x" + std::to_string(p.y), std::to_string(p.decode.batch),
               t3(p.ttft_s), t3(p.tpot_s)});
  }
  t.print(os, "           ", width);
  if (!also.empty()) {
    os << "aggregated on " << study.machine().name
       << " (`machine`): " << fixed(agg.best_tokens_per_s_per_pe, 1) << " tok/s/PE at the SLO\n";
    for (const AggregatedOn& a : also)
      os << "aggregated on " << aggregated_machine_label(a) << ": "
         << fixed(a.result.best_tokens_per_s_per_pe, 1) << " tok/s/PE at the SLO\n";
    const DisaggBestAggregated& b = notes.best_aggregated;
    if (b.tokens_per_s_per_pe > 0)
      os << "gain       disaggregated / the better aggregated (on " << b.machine
         << ") at the SLO: " << fixed(d.result.best->tokens_per_s_per_pe, 1) << " / "
         << fixed(b.tokens_per_s_per_pe, 1)
         << " tok/s/PE = " << fixed(d.result.best->tokens_per_s_per_pe / b.tokens_per_s_per_pe, 2) << "x\n";
    else
      os << "gain       n/a: the aggregated study has no point within the SLO on any machine\n";
    return;
  }
  const double gain = disaggregation_gain(d.result, agg);
  if (gain > 0)
    os << "gain       disaggregated / aggregated at the SLO: " << fixed(d.result.best->tokens_per_s_per_pe, 1)
       << " / " << fixed(agg.best_tokens_per_s_per_pe, 1) << " tok/s/PE = " << fixed(gain, 2) << "x\n";
  else
    os << "gain       n/a: the aggregated study has no point within the SLO\n";
}

}  // namespace tessera
