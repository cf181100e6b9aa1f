#include "report/study_text/explain_report.hpp"
#include "report/text/band_text.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <string_view>

#include "report/text/collective_explain.hpp"
#include "report/text/text_table.hpp"
#include "studies/documents/explain_parts.hpp"
#include "tessera/units.hpp"

namespace tessera {

namespace {

std::string workload_line(const StudyDescription& s) {
  const Workload& w = s.scenario.workload;
  std::string line = std::string(w.mode == Mode::decode ? "decode" : "prefill") + ", context " +
                     std::to_string(w.context) + " tokens, batch " + std::to_string(w.batch);
  if (w.mode == Mode::prefill && w.chunk_count() > 1)
    line +=
        ", chunk " + std::to_string(w.chunk_tokens()) + " (" + std::to_string(w.chunk_count()) + " chunks)";
  if (w.scope == Scope::attention) line += ", scope attention";
  return line;
}

}  // namespace

namespace {
// Where each stage's time came from, when the latency model says (Stage::source: a measured
// table, or the model it fell back on and why).
void print_stage_sources(std::ostream& os, const Evaluation& e) {
  std::size_t width = 0;
  for (const Stage& s : e.stages)
    if (s.source && *s.source) width = std::max(width, std::string_view(s.name).size());
  if (width == 0) return;
  os << "Stage sources:\n";
  for (const Stage& s : e.stages)
    if (s.source && *s.source)
      os << "  " << s.name << std::string(width - std::string_view(s.name).size() + 2, ' ') << s.source
         << "\n";
}
}  // namespace

void print_explain(std::ostream& os, const StudyDescription& study, const studies::ExplainResult& result,
                   std::size_t width) {
  const Evaluation& e = result.evaluation;
  const ModelSpec& model = study.model();
  const MachineSpec& machine = study.machine();
  os << "Scenario  " << study.scenario.name << "  (latency model: " << study.latency_name << ")\n";
  if (!study.calibration_note.empty()) os << "          " << study.calibration_note << "\n";
  os << "Model     " << model.name << "  " << fixed(params_total(model) / 1e9, 2) << " B params, "
     << fixed(params_active(model) / 1e9, 2) << " B active per token\n";
  os << "Formats   " << explain_parts::formats_line(model) << "\n";
  os << "Machine   " << machine.name << "  (" << machine.total_pes() << " " << machine.pe.name << "s)\n";
  os << "Workload  " << workload_line(study) << "\n";
  os << wrap_list("Config    ", format_config(e.config, machine), width) << "\n\n";
  if (!e.valid) {
    os << "INVALID: " << describe_invalid(e.layout.reason, model, machine, e.config) << "\n";
    return;
  }
  const Dimension t = Dimension::time;
  // The algorithm of each collective is named in the "Collectives" block below the table (the
  // table stays within a 120-column terminal).
  TextTable table({"stage", "count", "FLOP", "HBM", "comm", "compute", "memory", "comm time", "visible",
                   "x count", "bound"});
  double total = 0;
  for (const Stage& s : e.stages) {
    total += s.count * s.visible_s;
    table.add_row({s.name, fixed(s.count, s.count == std::floor(s.count) ? 0 : 2),
                   format_quantity(s.flops, Dimension::flops), format_quantity(s.hbm_bytes, Dimension::bytes),
                   format_quantity(s.comm_bytes, Dimension::bytes), format_quantity(s.compute_s, t),
                   format_quantity(s.memory_s, t), format_quantity(s.comm_s, t),
                   format_quantity(s.visible_s, t), format_quantity(s.count * s.visible_s, t),
                   bound_name(s.bound)});
  }
  table.add_separator();
  table.add_row({"sum", "", "", "", "", "", "", "", "", format_quantity(total, t), ""});
  // Fitting a width: the bytes and FLOPs go first, then the per-occurrence visible time (x count
  // holds it times the count); the stage, the times and the bound stay.
  table.set_fit(4, {5, "", false, false});
  table.set_fit(2, {4, "", false, false});
  table.set_fit(3, {3, "", false, false});
  table.set_fit(8, {2, "", false, false});
  table.set_fit(7, {0, "comm t", false, false});
  os << "Stages (per " << machine.pe.name << ", per occurrence):\n";
  table.print(os, "  ", width);
  if (e.totals.prefill_pipelined) os << "  (pp > 1 prefill: " << explain_parts::ttft_formula() << ")\n";
  print_stage_sources(os, e);
  if (const std::string& note = result.parallel_block_note; !note.empty()) os << "  (" << note << ")\n";
  {
    const std::shared_ptr<const StepWork>& work = result.work;
    bool any = false;
    std::size_t index = 0;
    for (const Stage& s : e.stages) {
      const StageWork* w = explain_parts::work_of(*work, s, index++);
      if (!w || (w->comm_count == 0 && !(w->has_cp && w->cp.steps > 0))) continue;
      if (!any) os << "Collectives (per occurrence, fastest first, * = chosen" << result.chunk_note << "):\n";
      any = true;
      print_stage_collectives(os, *w, s, machine);
    }
  }
  for (const Stage& s : e.stages)
    if (explain_parts::overlapped_s(s) > 0)
      os << "  " << s.name << ": " << format_quantity(explain_parts::overlapped_s(s), t) << " of its "
         << format_quantity(s.comm_s, t) << " comm time overlapped with the GEMM before it (chunked)\n";

  const MemoryUsage& m = e.memory;
  const std::string memory_label = "Memory per " + machine.pe.name + ":  ";
  const std::string memory = "weights " + format_quantity(m.weights_bytes, Dimension::bytes) + ", KV " +
                             format_quantity(m.kv_bytes, Dimension::bytes) + ", transient " +
                             format_quantity(m.transient_bytes, Dimension::bytes) + " = " +
                             format_quantity(m.used_bytes, Dimension::bytes) + " of " +
                             format_quantity(m.budget_bytes, Dimension::bytes) + " budget  -> " +
                             (m.fits ? "fits" : "DOES NOT FIT");
  os << "\n" << memory_label;
  if (width == 0 || display_width(memory_label + memory) <= width)
    os << memory << "\n";
  else
    os << wrap_words(memory, width, std::string(memory_label.size(), ' ')) << "\n";

  const StepTotals& x = e.totals;
  const bool decode = study.scenario.workload.mode == Mode::decode;
  os << "\nTotals:\n";
  const Band& band = study.band;
  os << "  " << (decode ? "step latency " : "TTFT         ") << format_quantity(x.latency_s, t)
     << band_suffix(band, BandQuantity::latency) << "\n";
  os << "  throughput   " << fixed(x.throughput_tok_s, 1) << " tok/s"
     << band_suffix(band, BandQuantity::throughput);
  if (x.pipeline_throughput_tok_s > 0)
    os << "  (pipeline-full: " << fixed(x.pipeline_throughput_tok_s, 1) << " tok/s)";
  os << "\n  PEs          " << static_cast<long long>(x.pes) << "  (";
  for (std::size_t p = 1; p <= machine.levels.size(); ++p)
    os << (p > 1 ? ", " : "") << e.layout.units_used[p] << " " << machine.levels[p - 1].name;
  os << ")\n";
  os << "  band         " << wrap_words(band_statement(band), 100, "               ") << "\n";
  os << "  compute util " << fixed(100 * x.compute_util, 2) << " %,  bw util " << fixed(100 * x.bw_util, 2)
     << " %,  efficiency " << fixed(x.efficiency, 4) << "\n";
  os << "  FLOP all PEs " << format_quantity(x.flops_all_pes, Dimension::flops) << " (redundant "
     << format_quantity(x.redundant_flops, Dimension::flops) << "),  HBM all PEs "
     << format_quantity(x.hbm_bytes_all_pes, Dimension::bytes) << "\n";
  if (x.tier_count > 1) {  // a tier other than HBM served bytes (docs/physics.md §9)
    os << "  memory tiers";
    for (int k = 0; k < x.tier_count; ++k) {
      const TierUse& u = x.tiers[static_cast<std::size_t>(k)];
      os << (k > 0 ? ",  " : " ") << u.name << " " << format_quantity(u.bytes_all_pes, Dimension::bytes)
         << " (" << fixed(100 * u.util, 2) << " % of " << format_quantity(u.bandwidth, Dimension::bandwidth)
         << ")";
    }
    os << "\n";
  }
  if (e.non_finite != NonFinite::none)
    os << "\nINFEASIBLE: non-finite " << non_finite_name(e.non_finite)
       << " (the physics gave inf or NaN; docs/limits.md \"Non-finite results\")\n";
}

}  // namespace tessera
