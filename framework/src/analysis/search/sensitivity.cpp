#include "analysis/search/sensitivity.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "host/machine_blocks.hpp"
#include "host/plugin_roles.hpp"
#include "scenario/fields/field_access.hpp"
#include "scenario/sweeps/plugin_axes.hpp"
#include "tessera/error.hpp"
#include "tessera/physics/layout.hpp"
#include "tessera/plugin/descriptor.hpp"

namespace tessera {

const std::vector<std::int32_t>& seed_sweep_values(const std::string& knob) {
  static const std::map<std::string, std::vector<std::int32_t>> kValues{
      {"cp", {1, 2, 4, 6, 8, 10, 12, 14, 16, 24, 32, 48, 64, 96, 128, 192, 256}},
      {"tp", {1, 2, 4, 6, 8, 10, 12, 14, 16, 24, 32, 48, 64}},
      {"pp", {1, 2, 4, 6, 8, 10, 12, 14, 16, 20, 24, 32}},
      {"dp", {1, 2, 4, 6, 8, 12, 16}},
      {"ep", {1, 2, 4, 6, 8, 12, 16, 32}},
  };
  const auto it = kValues.find(knob);
  if (it == kValues.end()) throw Error("no seed sweep list for knob '" + knob + "'");
  return it->second;
}

std::int32_t& parallel_degree(ParallelConfig& c, const std::string& knob) {
  if (knob == "cp") return c.cp;
  if (knob == "tp") return c.tp;
  if (knob == "pp") return c.pp;
  if (knob == "dp") return c.dp;
  return c.ep;
}

std::vector<KnobSweep> parallelism_sensitivity(const Session& session, const ParallelConfig& best) {
  std::vector<KnobSweep> out;
  Evaluation scratch;
  for (const char* name : {"cp", "tp", "pp", "dp", "ep"}) {
    KnobSweep k;
    k.knob = name;
    const auto field = [&](ParallelConfig& c) -> std::int32_t& { return parallel_degree(c, name); };
    ParallelConfig b = best;
    k.baseline = field(b);
    k.values = seed_sweep_values(name);
    for (std::int32_t v : k.values) {
      ParallelConfig c = best;
      field(c) = v;
      c = canonicalize(session.model(), c);
      k.records.push_back(evaluate_record(session, c, scratch));
    }
    out.push_back(std::move(k));
  }
  return out;
}

namespace {
// The scenario's choice of the session's latency model.
const PluginChoice& running_latency(const Session& session) {
  for (const PluginChoice& c : session.scenario().plugins.latency)
    if (c.name == session.latency_name()) return c;
  return session.scenario().plugins.latency.front();
}

constexpr const char* kLatencyParamPrefix = "plugins.latency.";
}  // namespace

std::vector<std::pair<std::string, std::string>> hardware_knobs(const Session& session) {
  const MachineSpec& m = session.machine();
  std::vector<std::pair<std::string, std::string>> k{{"machine.pe.hbm.bandwidth", "HBM bandwidth"},
                                                     {"machine.pe.hbm.capacity", "HBM capacity"}};
  // The machine keys whose peaks the step runs at: the GEMMs' format first, then the attention
  // kernels' and the other parts' where they differ (docs/physics.md §1). A format the PE lacks
  // runs at a fallback's peak: the key holding that peak.
  const ModelSpec& model = session.model();
  const DTypes& dt = model.dtype;
  std::vector<DType> formats{dt.gemm(WeightPart::other), dt.attention_kernel(),
                             dt.gemm(WeightPart::attention), dt.gemm(WeightPart::lm_head)};
  if (model.dense_ffn_layers() > 0) formats.push_back(dt.gemm(WeightPart::ffn));
  if (model.has_moe) {
    formats.push_back(dt.gemm(WeightPart::experts));
    formats.push_back(dt.gemm(WeightPart::shared_experts));
  }
  std::vector<std::string> keys;
  for (const DType t : formats) {
    const double peak = m.peak_flops(t);
    std::string fmt;
    if (m.pe.flops[static_cast<std::size_t>(t)] == peak) fmt = dtype_name(t);
    for (std::size_t i = 0; fmt.empty() && i < kDTypeCount; ++i)
      if (m.pe.flops[i] == peak && peak > 0) fmt = dtype_name(static_cast<DType>(i));
    if (fmt.empty() || std::find(keys.begin(), keys.end(), fmt) != keys.end()) continue;
    keys.push_back(fmt);
    k.emplace_back("machine.pe.flops." + fmt, "peak " + fmt + " FLOP/s");
  }
  for (const LevelSpec& l : m.levels) {
    k.emplace_back("machine.levels." + l.name + ".link_bw", l.name + " link bandwidth");
    k.emplace_back("machine.levels." + l.name + ".latency", l.name + " link latency");
  }
  k.emplace_back("machine.stage_overhead", "stage overhead");
  // The running latency plugin's numeric machine-block parameters, when the machine file gives
  // its block under `plugins:` (a block under a top-level key, `efficiency:`, holds fitted
  // constants, not hardware).
  const MachineBlock* b =
      machine_block_for(session.registry(), session.scenario().machine_blocks, session.latency_name());
  const LoadedPlugin* p = session.registry().find(PluginKind::latency, session.machine_block_owner());
  if (b && p && b->label.rfind("machine.plugins.", 0) == 0) {
    const PluginDescriptor& d = *p->descriptor;
    for (std::uint32_t i = 0; i < d.machine_param_count; ++i) {
      const ParamSpec& ps = d.machine_params[i];
      if (ps.type != ParamType::integer && ps.type != ParamType::real && ps.type != ParamType::quantity)
        continue;
      k.emplace_back(b->label + "." + ps.name, session.latency_name() + " " + ps.name);
    }
  }
  // The running latency plugin's numeric parameters that the scenario sets
  // (plugins.latency.<name>.<param>): each perturbation re-creates the plugin.
  const PluginChoice& lat = running_latency(session);
  for (const RawParam& r : lat.params) {
    const ParamSpec* ps = plugin_param_spec(session.registry(), PluginKind::latency, lat.name, r.key);
    if (!ps ||
        (ps->type != ParamType::integer && ps->type != ParamType::real && ps->type != ParamType::quantity))
      continue;
    k.emplace_back("plugins.latency." + lat.name + "." + r.key, lat.name + " " + r.key);
  }
  return k;
}

namespace {

// A machine-block knob "machine.plugins.<plugin>.<param>" names <param> of the running plugin's
// block (machine.efficiency); "" for a machine field.
std::string block_param(const std::string& path) {
  if (path.rfind("machine.plugins.", 0) != 0) return "";
  return path.substr(path.rfind('.') + 1);
}

Dimension block_dimension(const Session& session, const std::string& param) {
  // The schema the block is read with: the model's own, or its fallback's (host/plugin_roles.hpp).
  const LoadedPlugin* p = session.registry().find(PluginKind::latency, session.machine_block_owner());
  for (std::uint32_t i = 0; p && i < p->descriptor->machine_param_count; ++i)
    if (param == p->descriptor->machine_params[i].name) return p->descriptor->machine_params[i].dimension;
  return Dimension::none;
}

void set_knob(MachineSpec& m, const std::string& path, double v) {
  const std::string param = block_param(path);
  if (param.empty()) return set_machine_field(m, path, v);
  if (std::holds_alternative<std::int64_t>(m.efficiency.values().find(param)->second))
    m.efficiency.set(param, static_cast<std::int64_t>(std::llround(v)));
  else
    m.efficiency.set(param, v);
}

double best_latency(const Session& s, const SearchStrategy& strategy, const SearchOptions& options) {
  SearchOptions o = options;
  o.on_progress = nullptr;  // the study reports its own progress
  o.top = 1;
  const SearchResult r = run_search(s, strategy, o);
  return r.best ? r.records[*r.best].latency_s : NAN;
}

// The knob's value and dimension into h, from the scenario's latency plugin choice or the machine.
// Returns the plugin parameter's schema entry; nullptr for a machine knob.
const ParamSpec* read_knob_value(const Session& session, HardwareElasticity& h) {
  const KnobValue k = hardware_knob_value(session, h.path);
  h.value = k.value;
  h.dimension = k.dimension;
  return k.spec;
}

// The latencies with the knob scaled by 1 - step and 1 + step, of the fixed configuration `best`
// and of a re-optimised search, their elasticities and a note where one is missing, into h.
void measure_knob_elasticity(const Session& session, const SearchStrategy& strategy,
                             const ParallelConfig& best, const SearchOptions& options, double step,
                             const ParamSpec* spec, HardwareElasticity& h, Evaluation& scratch) {
  double lat[2][2] = {{NAN, NAN}, {NAN, NAN}};  // [minus/plus][fixed/reopt]
  for (int side = 0; side < 2; ++side) {
    const auto s = with_hardware_knob(session, h.path, h.value * (side == 0 ? 1 - step : 1 + step), spec);
    s->evaluator().evaluate(best, scratch);
    lat[side][0] = scratch.valid && scratch.non_finite == NonFinite::none ? scratch.totals.latency_s : NAN;
    lat[side][1] = best_latency(*s, strategy, options);
  }
  h.latency_minus_fixed = lat[0][0];
  h.latency_plus_fixed = lat[1][0];
  h.latency_minus_reopt = lat[0][1];
  h.latency_plus_reopt = lat[1][1];
  h.elasticity_fixed = central_elasticity(lat[0][0], lat[1][0], step);
  h.elasticity_reopt = central_elasticity(lat[0][1], lat[1][1], step);
  if (std::isnan(h.elasticity_reopt))
    h.note = "nothing feasible on a perturbed machine";
  else if (std::isnan(h.elasticity_fixed))
    h.note = "the fixed configuration is invalid or non-finite on a perturbed machine";
}

}  // namespace

double central_elasticity(double y_minus, double y_plus, double step) {
  if (!(y_minus > 0) || !(y_plus > 0) || !std::isfinite(y_minus) || !std::isfinite(y_plus)) return NAN;
  return (std::log(y_plus) - std::log(y_minus)) / (std::log1p(step) - std::log1p(-step));
}

KnobValue hardware_knob_value(const Session& session, const std::string& path) {
  const std::string param = block_param(path);
  KnobValue k;
  if (path.rfind(kLatencyParamPrefix, 0) == 0) {
    // plugins.latency.<name>.<param>: the value the scenario gave, validated and SI.
    const PluginChoice& model = running_latency(session);
    const std::string pname = path.substr(path.rfind('.') + 1);
    k.spec = plugin_param_spec(session.registry(), PluginKind::latency, model.name, pname);
    k.value = session.registry().validate_choice(PluginKind::latency, model).real(pname);
    k.dimension = k.spec ? k.spec->dimension : Dimension::none;
  } else {
    k.value =
        param.empty() ? get_machine_field(session.machine(), path) : session.machine().efficiency.real(param);
    k.dimension = param.empty() ? machine_field_dimension(path) : block_dimension(session, param);
  }
  return k;
}

std::unique_ptr<Session> with_hardware_knob(const Session& session, const std::string& path, double value,
                                            const ParamSpec* spec) {
  MachineSpec m = session.machine();
  std::vector<PluginParamValue> set;
  if (path.rfind(kLatencyParamPrefix, 0) == 0)
    set.push_back({.kind = PluginKind::latency,
                   .plugin = running_latency(session).name,
                   .param = path.substr(path.rfind('.') + 1),
                   .value = value,
                   .integer = spec && spec->type == ParamType::integer});
  else
    set_knob(m, path, value);
  return session.with_point(m, set);
}

std::vector<HardwareElasticity> hardware_sensitivity(const Session& session, const SearchStrategy& strategy,
                                                     const ParallelConfig& best, const SearchOptions& options,
                                                     double step) {
  std::vector<HardwareElasticity> out;
  Evaluation scratch;
  const auto knobs = hardware_knobs(session);
  const ProgressCallback& progress = options.on_progress;
  report_progress(progress, 0, knobs.size(), "hardware knobs");
  for (const auto& [path, label] : knobs) {
    HardwareElasticity h;
    h.path = path;
    h.label = label;
    const ParamSpec* spec = read_knob_value(session, h);
    if (!(h.value > 0)) {
      h.elasticity_fixed = h.elasticity_reopt = NAN;
      h.note = "value is 0: no relative change";
      out.push_back(std::move(h));
      continue;
    }
    if (spec && (h.value * (1 - step) < spec->min || h.value * (1 + step) > spec->max)) {
      // The plugin's schema would refuse a perturbed value: no elasticity.
      h.elasticity_fixed = h.elasticity_reopt = NAN;
      h.note = "a perturbation of " + std::to_string(static_cast<int>(std::lround(step * 100))) +
               " % leaves the parameter's range";
      out.push_back(std::move(h));
      report_progress(progress, out.size(), knobs.size(), "hardware knobs");
      continue;
    }
    measure_knob_elasticity(session, strategy, best, options, step, spec, h, scratch);
    out.push_back(std::move(h));
    report_progress(progress, out.size(), knobs.size(), "hardware knobs");
  }
  const auto mag = [](const HardwareElasticity& h) {
    const double a = std::isnan(h.elasticity_reopt) ? 0 : std::fabs(h.elasticity_reopt);
    const double b = std::isnan(h.elasticity_fixed) ? 0 : std::fabs(h.elasticity_fixed);
    return std::make_pair(a, b);
  };
  std::stable_sort(out.begin(), out.end(), [&](const auto& x, const auto& y) { return mag(x) > mag(y); });
  return out;
}

SensitivityStudy sensitivity_study(const Session& session, const SearchStrategy& strategy, bool parallelism,
                                   bool hardware, const SearchOptions& options) {
  const SearchResult result = run_search(session, strategy, options);
  if (!result.best)
    throw Error("no feasible configuration in scenario " + session.scenario().name + ": nothing to perturb");
  SensitivityStudy study;
  study.best = result.records[*result.best];
  study.objectives = result.objectives;
  study.has_parallelism = parallelism;
  study.has_hardware = hardware;
  if (parallelism) study.parallelism = parallelism_sensitivity(session, study.best.config);
  if (hardware) study.hardware = hardware_sensitivity(session, strategy, study.best.config, options);
  return study;
}

}  // namespace tessera
