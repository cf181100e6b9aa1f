#include "report/explain_report.hpp"
#include "report/band_text.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <string_view>

#include "report/collective_explain.hpp"
#include "report/text_table.hpp"
#include "tessera/units.hpp"
#include "tessera/version.hpp"

namespace tessera {

namespace {

// Communication time a stage hides behind compute, per occurrence: a pure communication stage
// (no FLOPs, no HBM bytes) whose visible time is below its comm_s was overlapped with the GEMM
// before it (tp_overlap: chunked, docs/physics.md §7). attn.cp reports its overlap in visible_s.
double overlapped_s(const Stage& s) {
  if (s.flops > 0 || s.hbm_bytes > 0 || s.visible_s >= s.comm_s) return 0;
  return s.comm_s - s.visible_s;
}

nlohmann::json units_used_json(const Evaluation& e, const MachineSpec& m) {
  nlohmann::json u = nlohmann::json::object();
  u[m.pe.name] = e.layout.units_used[0];
  for (std::size_t p = 1; p <= m.levels.size() && p < e.layout.units_used.size(); ++p)
    u[m.levels[p - 1].name] = e.layout.units_used[p];
  return u;
}

const char* ttft_formula() {
  return "TTFT = sum_j t_stage(j) + (pp-1)*(t_stage(last) + hop) + lm_head; stages listed for one pipeline "
         "stage "
         "(ceil(L/pp) layers), averaged over chunks";
}

std::string workload_line(const Session& s) {
  const Workload& w = s.scenario().workload;
  std::string line = std::string(w.mode == Mode::decode ? "decode" : "prefill") + ", context " +
                     std::to_string(w.context) + " tokens, batch " + std::to_string(w.batch);
  if (w.mode == Mode::prefill && w.chunk_count() > 1)
    line +=
        ", chunk " + std::to_string(w.chunk_tokens()) + " (" + std::to_string(w.chunk_count()) + " chunks)";
  if (w.scope == Scope::attention) line += ", scope attention";
  return line;
}

// Parallel block: which stage carries the merged TP reduction ("" when nothing is merged).
std::string parallel_block_note(const Session& s, const Evaluation& e) {
  const ModelSpec& m = s.model();
  if (!m.parallel_block) return "";
  const Workload& w = s.scenario().workload;
  if (w.scope == Scope::attention)
    return "parallel block, scope attention: attn.tp_reduce is the attention's own all-reduce (no FFN to "
           "merge with)";
  const ReduceMerge r = parallel_block_merge(m, e.config, w.mode, w.scope);
  if (!r.dense && !r.moe) return "parallel block: tp = 1, no tensor-parallel reduction to merge";
  const bool dense = m.dense_ffn_layers() > 0, moe = m.moe_layers() > 0;
  std::string carriers;
  if (dense && r.dense) carriers = "ffn.reduce";
  if (moe && r.moe) carriers += std::string(carriers.empty() ? "" : " and ") + "moe.combine";
  std::string note = "parallel block: attention and FFN read the same input";
  if (!carriers.empty())
    note += "; " + carriers +
            " also reduces the attention output's partial sums (one TP reduction per layer, no "
            "attn.tp_reduce there)";
  if (moe && !r.moe)
    note +=
        "; the MoE layers keep attn.tp_reduce: moe.combine is an all-to-all, which sums nothing across "
        "the TP group";
  return note;
}

// The number formats (docs/physics.md §1): the three base formats, the attention math, and
// each part, dispatch payload only where the model has it.
std::string formats_line(const ModelSpec& m) {
  const DTypes& d = m.dtype;
  std::string line = std::string("weights ") + dtype_name(d.weights);
  const auto part = [&](const char* name, WeightPart p) {
    if (d.weights_of(p) != d.weights) line += std::string(", ") + name + " " + dtype_name(d.weights_of(p));
  };
  part("attention weights", WeightPart::attention);
  if (m.dense_ffn_layers() > 0) part("ffn weights", WeightPart::ffn);
  if (m.has_moe) part("expert weights", WeightPart::experts);
  part("lm_head weights", WeightPart::lm_head);
  line += std::string(", kv ") + dtype_name(d.kv) + ", attention " + dtype_name(d.attention_kernel()) +
          ", activations " + dtype_name(d.activations);
  if (m.has_moe) line += std::string(", dispatch ") + dtype_name(d.dispatch_payload());
  return line;
}

// The step whose collectives explain lists (prefill: the first chunk).
std::unique_ptr<StepWork> explained_work(const Session& s, const Evaluation& e) {
  auto w = std::make_unique<StepWork>();
  s.evaluator().explained_work(e.config, e.layout, 0, *w);
  return w;
}

// The work stage of stage i (the latency models time work stage i into stage i).
const StageWork* work_of(const StepWork& w, const Stage& s, std::size_t i) {
  if (i < static_cast<std::size_t>(w.size) && std::string_view(w.stages[i].name) == s.name)
    return &w.stages[i];
  for (int k = 0; k < w.size; ++k)
    if (std::string_view(w.stages[static_cast<std::size_t>(k)].name) == s.name)
      return &w.stages[static_cast<std::size_t>(k)];
  return nullptr;
}

std::string chunk_note(const Session& s) {
  const Workload& w = s.scenario().workload;
  if (w.mode != Mode::prefill || w.chunk_count() <= 1) return "";
  return "; chunk 1 of " + std::to_string(w.chunk_count()) + ", " + std::to_string(w.chunk_tokens()) +
         " tokens; the table averages the chunks";
}

}  // namespace

nlohmann::json explain_json(const Session& session, const Evaluation& e) {
  const ModelSpec& model = session.model();
  const MachineSpec& machine = session.machine();
  nlohmann::json j;
  j["scenario"] = session.scenario().name;
  j["version"] = kVersion;
  j["latency_model"] = session.latency_name();
  if (!session.calibration_note().empty()) j["calibration"] = session.calibration_note();
  j["model"] = {{"name", model.name},
                {"params_total", params_total(model)},
                {"params_active", params_active(model)},
                {"parallel_block", model.parallel_block}};
  j["formats"] = formats_line(model);
  j["machine"] = machine.name;
  j["config"] = config_json(e.config, machine);
  j["valid"] = e.valid;
  j["placement_valid"] = e.valid;
  if (!e.valid) {
    j["reason"] = describe_invalid(e.layout.reason, model, machine, e.config);
    return j;
  }
  j["units_used"] = units_used_json(e, machine);
  nlohmann::json stages = nlohmann::json::array();
  const auto work = explained_work(session, e);
  std::size_t index = 0;
  for (const Stage& s : e.stages) {
    const StageWork* w = work_of(*work, s, index++);
    nlohmann::json row = {{"name", s.name},
                          {"block", stage_block_name(s.block)},
                          {"count", s.count},
                          {"flops", s.flops},
                          {"hbm_bytes", s.hbm_bytes},
                          {"comm_bytes", s.comm_bytes},
                          {"compute_s", s.compute_s},
                          {"memory_s", s.memory_s},
                          {"comm_s", s.comm_s},
                          {"visible_s", s.visible_s},
                          {"bound", bound_name(s.bound)}};
    if (overlapped_s(s) > 0) row["overlapped_s"] = overlapped_s(s);
    if (s.has_comm_algorithm) row["algorithm"] = stage_algorithm_label(s);
    if (s.source && *s.source) row["source"] = s.source;  // a model that mixes sources (latency/measured)
    if (w && w->comm_count > 0) row["collectives"] = stage_collectives_json(*w, s, machine);
    if (w && w->has_cp && w->cp.steps > 0)
      row["point_to_point"] = {
          {"messages", w->cp.steps},
          {"level", w->cp.link.level > 0 && w->cp.link.level <= static_cast<int>(machine.levels.size())
                        ? machine.levels[static_cast<std::size_t>(w->cp.link.level - 1)].name
                        : machine.pe.name},
          {"bytes", w->cp.msg_bytes},
          {"seconds", p2p_message_time(w->cp.link, machine, w->cp.msg_bytes,
                                       {s.comm_bw_efficiency, s.comm_extra_latency})}};
    stages.push_back(std::move(row));
  }
  j["stages"] = stages;
  if (const std::string note = chunk_note(session); !note.empty()) j["collectives_note"] = note.substr(2);
  if (const std::string note = parallel_block_note(session, e); !note.empty())
    j["parallel_block_note"] = note;
  if (e.non_finite != NonFinite::none)
    j["reason"] = std::string("infeasible: non-finite ") + non_finite_name(e.non_finite);
  const MemoryUsage& m = e.memory;
  j["memory"] = {{"weights_bytes", m.weights_bytes},     {"kv_bytes", m.kv_bytes},
                 {"transient_bytes", m.transient_bytes}, {"used_bytes", m.used_bytes},
                 {"budget_bytes", m.budget_bytes},       {"fits_memory", m.fits}};
  const StepTotals& t = e.totals;
  j["totals"] = {{"latency_s", t.latency_s},
                 {"throughput_tok_s", t.throughput_tok_s},
                 {"pipeline_throughput_tok_s", t.pipeline_throughput_tok_s},
                 {"efficiency", t.efficiency},
                 {"compute_util", t.compute_util},
                 {"bw_util", t.bw_util},
                 {"pes", t.pes},
                 {"flops_all_pes", t.flops_all_pes},
                 {"redundant_flops", t.redundant_flops},
                 {"hbm_bytes_all_pes", t.hbm_bytes_all_pes},
                 {"link_bytes_all_pes", t.link_bytes_all_pes}};
  {
    const Band band = session_band(session);
    j["totals"]["latency_band"] = band_json(band, BandQuantity::latency, t.latency_s);
    j["totals"]["throughput_band"] = band_json(band, BandQuantity::throughput, t.throughput_tok_s);
    j["band"] = band_summary_json(band);
  }
  if (t.prefill_pipelined) j["totals"]["formula"] = ttft_formula();
  if (t.tier_count > 1) {  // a tier other than HBM served bytes (docs/physics.md §9)
    nlohmann::json tiers = nlohmann::json::array();
    for (int k = 0; k < t.tier_count; ++k) {
      const TierUse& u = t.tiers[static_cast<std::size_t>(k)];
      tiers.push_back({{"name", u.name},
                       {"bytes_all_pes", u.bytes_all_pes},
                       {"bandwidth_B_per_s", u.bandwidth},
                       {"util", u.util}});
    }
    j["totals"]["tiers"] = tiers;
  }
  nlohmann::json obj = nlohmann::json::object();
  const auto& slots = session.evaluator().objectives();
  for (std::size_t i = 0; i < slots.size(); ++i) obj[slots[i].name] = e.objectives[i];
  j["objectives"] = obj;
  return j;
}

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

void print_explain(std::ostream& os, const Session& session, const Evaluation& e, std::size_t width) {
  const ModelSpec& model = session.model();
  const MachineSpec& machine = session.machine();
  os << "Scenario  " << session.scenario().name << "  (latency model: " << session.latency_name() << ")\n";
  if (!session.calibration_note().empty()) os << "          " << session.calibration_note() << "\n";
  os << "Model     " << model.name << "  " << fixed(params_total(model) / 1e9, 2) << " B params, "
     << fixed(params_active(model) / 1e9, 2) << " B active per token\n";
  os << "Formats   " << formats_line(model) << "\n";
  os << "Machine   " << machine.name << "  (" << machine.total_pes() << " " << machine.pe.name << "s)\n";
  os << "Workload  " << workload_line(session) << "\n";
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
  if (e.totals.prefill_pipelined) os << "  (pp > 1 prefill: " << ttft_formula() << ")\n";
  print_stage_sources(os, e);
  if (const std::string note = parallel_block_note(session, e); !note.empty()) os << "  (" << note << ")\n";
  {
    const auto work = explained_work(session, e);
    bool any = false;
    std::size_t index = 0;
    for (const Stage& s : e.stages) {
      const StageWork* w = work_of(*work, s, index++);
      if (!w || (w->comm_count == 0 && !(w->has_cp && w->cp.steps > 0))) continue;
      if (!any)
        os << "Collectives (per occurrence, fastest first, * = chosen" << chunk_note(session) << "):\n";
      any = true;
      print_stage_collectives(os, *w, s, machine);
    }
  }
  for (const Stage& s : e.stages)
    if (overlapped_s(s) > 0)
      os << "  " << s.name << ": " << format_quantity(overlapped_s(s), t) << " of its "
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
  const bool decode = session.scenario().workload.mode == Mode::decode;
  os << "\nTotals:\n";
  const Band band = session_band(session);
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
