// The scenario's `sweep` section (scenario/schemas/sweep_schema.hpp): sweep.parallelism and
// sweep.hardware, and the sizes of their grids.
#include "scenario/schemas/sweep_schema.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <utility>

#include "core/text/dotted_path.hpp"
#include "core/text/nearest_name.hpp"
#include "scenario/fields/field_access.hpp"
#include "scenario/fields/field_reader.hpp"
#include "scenario/fields/mapping_reader.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/schemas/schemas.hpp"
#include "scenario/schemas/serving_schema.hpp"
#include "scenario/sweeps/overrides.hpp"
#include "scenario/sweeps/sweep_size.hpp"
#include "tessera/limits.hpp"

namespace tessera::loader {

namespace {

// The values of a plugin-typed hardware axis as written (typed once plugins are loaded): false
// when the list is empty, too long or holds a non-scalar.
bool read_axis_texts(const YNode& n, const std::string& kp, HardwareAxis& axis, Diags& d) {
  const auto items = items_of(n);
  if (list_too_long(n, items.size(), kp, d)) return false;
  if (items.empty()) {
    d.error(n.where, kp + ": expected a list of values, found an empty list");
    return false;
  }
  bool ok = true;
  for (const YNode* i : items) {
    if (!i->is_scalar()) {
      d.error(i->where, kp + ": expected a value, found " + describe(*i));
      ok = false;
      continue;
    }
    axis.texts.push_back(i->value);
    axis.value_where.push_back(i->where);
    axis.values.push_back(NAN);
  }
  return ok;
}

// A machine field's hardware axis (machine.<path> or a pool machine's): each value typed and
// ranged by the field's row, as in the machine file; appended to s.hardware when all read.
void read_field_axis(const YEntry& e, const std::string& kp, const FieldPath& field, Sweep& s, Diags& d) {
  HardwareAxis axis;
  axis.path = e.key;
  axis.dimension = field.dimension();
  axis.where = e.key_where;
  const auto items = items_of(e.value);
  if (list_too_long(e.value, items.size(), kp, d)) return;
  if (items.empty()) d.error(e.value.where, kp + ": expected a list of values, found an empty list");
  bool ok = !items.empty();
  for (const YNode* i : items) {
    const auto v = read_field(*i, kp, *field.row, d);
    if (!v) {
      ok = false;
      continue;
    }
    axis.values.push_back(v->number);
  }
  if (ok) s.hardware.push_back(std::move(axis));
}

std::optional<std::vector<std::int8_t>> placement_list(const YNode& n, const std::string& path,
                                                       const MachineSpec& m, Diags& d) {
  std::vector<std::string> names{"pe"};
  if (m.pe.name != "pe") names.push_back(m.pe.name);
  for (const auto& l : m.levels) names.push_back(l.name);
  const auto items = items_of(n);
  if (list_too_long(n, items.size(), path, d)) return std::nullopt;
  if (items.empty()) {
    d.error(n.where,
            path + ": expected a list of placements (" + join_names(names) + "), found an empty list");
    return std::nullopt;
  }
  std::vector<std::int8_t> out;
  bool ok = true;
  for (const YNode* i : items) {
    std::optional<int> p;
    if (i->is_scalar()) p = m.placement_index(i->value);
    if (!p) {
      d.error(i->where, path + ": expected a placement of machine '" + m.name + "' (" + join_names(names) +
                            "), found " + describe(*i) +
                            (i->is_scalar() ? did_you_mean(i->value, names) : std::string()));
      ok = false;
      continue;
    }
    const auto v = static_cast<std::int8_t>(*p);
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  if (!ok) return std::nullopt;
  return out;
}

// A point count for a message: "more than 18446744073709551614" when the product saturated.
std::string points_text(std::uint64_t n) {
  if (n == std::numeric_limits<std::uint64_t>::max()) return "more than 2^64";
  return std::to_string(n);
}

// A scenario plugin's parameter axis: plugins.latency.<name>.<param>,
// plugins.objectives.<name>.<param>, plugins.memory.<param> or plugins.search.<param>.
void read_plugin_param_axis(const YEntry& e, const std::string& kp, Sweep& s, Diags& d) {
  const auto parts = split_dotted(e.key);
  const std::string& k = parts.size() > 1 ? parts[1] : parts[0];
  const bool named = k == "latency" || k == "objectives";
  const bool single = k == "memory" || k == "search";
  const std::string form = named ? "plugins." + k + ".<name>.<param>" : "plugins." + k + ".<param>";
  if (!named && !single) {
    d.error(e.key_where, kp +
                             ": a plugin parameter axis is plugins.latency.<name>.<param>, "
                             "plugins.objectives.<name>.<param>, plugins.memory.<param> or "
                             "plugins.search.<param>, found '" +
                             e.key + "'");
    return;
  }
  const std::size_t want = named ? 4u : 3u;
  bool empty_part = false;
  for (const auto& part : parts) empty_part |= part.empty();
  if (parts.size() != want || empty_part) {
    const std::string what = k == "objectives" ? "an objective" : "a " + k;
    d.error(e.key_where, kp + ": " + what + " plugin parameter is " + form + ", found '" + e.key + "'");
    return;
  }
  HardwareAxis axis;
  axis.path = e.key;
  axis.scenario_plugin = true;
  axis.plugin_kind = k == "latency"      ? PluginKind::latency
                     : k == "objectives" ? PluginKind::objective
                     : k == "memory"     ? PluginKind::memory
                                         : PluginKind::search;
  if (named) axis.plugin = parts[2];
  axis.param = parts.back();
  axis.where = e.key_where;
  if (!read_axis_texts(e.value, kp, axis, d)) return;
  s.hardware.push_back(std::move(axis));
}

// A field of a pool's own machine: serving.prefill_machine.<path> or
// serving.decode_machine.<path>, given that the pool has a machine of its own.
void read_pool_machine_axis(const YEntry& e, const std::string& kp, const ServingSpec* serving, Sweep& s,
                            Diags& d) {
  const bool prefill = e.key[8] == 'p';
  const std::string pool = prefill ? "serving.prefill_machine" : "serving.decode_machine";
  const PoolMachine* pm = !serving ? nullptr : prefill ? &serving->prefill_machine : &serving->decode_machine;
  const std::string rest = e.key.substr(pool.size() + 1);
  if (!pm || !pm->given) {
    d.error(e.key_where, kp + ": '" + e.key + "' names the " + (prefill ? "prefill" : "decode") +
                             " pool's own machine, but " + pool + " is not given (the pool runs on " +
                             "`machine`: sweep machine." + rest +
                             " when neither pool has a machine of its own; else give " + pool +
                             ", e.g. the file `machine:` names)");
    return;
  }
  if (rest.rfind("plugins.", 0) == 0 || rest.rfind("efficiency.", 0) == 0) {
    d.error(e.key_where,
            kp + ": '" + e.key + "': a pool machine's plugin blocks are not swept; set one value with --set");
    return;
  }
  const FieldPath field = resolve_machine_field("machine." + rest, &pm->machine);
  if (!field.error.empty()) {
    d.error(e.key_where, kp + ": " + rename_machine_paths(field.error, pool));
    return;
  }
  read_field_axis(e, kp, field, s, d);
}

// A machine-block parameter axis: machine.plugins.<plugin>.<param> or machine.efficiency.<param>.
void read_machine_block_axis(const YEntry& e, const std::string& kp, Sweep& s, Diags& d) {
  const auto parts = split_dotted(e.key);
  const bool eff = parts[1] == "efficiency";
  if (parts.size() != (eff ? 3u : 4u) || parts.back().empty() || (!eff && parts[2].empty())) {
    d.error(e.key_where,
            kp + ": a machine-block parameter is machine.plugins.<plugin>.<param>, found '" + e.key + "'");
    return;
  }
  HardwareAxis axis;
  axis.path = e.key;
  // machine.efficiency.<param>: the plugin that declares `efficiency` as its block's key, found
  // once plugins are loaded (scenario/sweeps/plugin_axes.cpp).
  if (eff)
    axis.block_key = parts[1];
  else
    axis.plugin = parts[2];
  axis.param = parts.back();
  axis.where = e.key_where;
  if (read_axis_texts(e.value, kp, axis, d)) s.hardware.push_back(std::move(axis));
}

// serving.speculative.steps or .acceptance: explore's serving study drafts with each value, typed and
// ranged by the field's row (a serve scenario with serving.speculative, checked with the block).
void read_speculative_axis(const YEntry& e, const std::string& kp, Sweep& s, Diags& d) {
  const schema::FieldRow* row = schema::find_field(e.key);
  if (!row || (e.key != "serving.speculative.steps" && e.key != "serving.speculative.acceptance")) {
    d.error(e.key_where,
            kp +
                ": a speculative decoding axis is serving.speculative.steps or "
                "serving.speculative.acceptance, found '" +
                e.key + "'" +
                did_you_mean(e.key, {"serving.speculative.steps", "serving.speculative.acceptance"}));
    return;
  }
  const std::size_t before = s.hardware.size();
  FieldPath field;
  field.row = row;
  field.canonical = e.key;
  read_field_axis(e, kp, field, s, d);
  if (s.hardware.size() > before) {
    s.hardware.back().speculative = true;
    s.hardware.back().integer = e.key == "serving.speculative.steps";
  }
}

// sweep.hardware: one axis per key (a machine field, a machine-block or scenario plugin
// parameter, a field of a pool's own machine), and the grid they span within hardware.points.
void parse_hardware(const YNode& hw, const MachineSpec* machine, const ServingSpec* serving, Sweep& s,
                    Diags& d) {
  const std::string hp = "sweep.hardware";
  if (!expect_mapping(hw, hp, d)) return;
  for (const auto& e : hw.entries) {
    const std::string kp = join_path(hp, e.key);
    if (e.key.rfind("plugins.", 0) == 0) {
      // A scenario plugin's parameter: typed against the plugin's schema once plugins are
      // loaded (scenario/sweeps/plugin_axes.hpp); each point re-creates the plugin.
      read_plugin_param_axis(e, kp, s, d);
      continue;
    }
    if (e.key.rfind("serving.speculative.", 0) == 0) {
      read_speculative_axis(e, kp, s, d);
      continue;
    }
    if (e.key.rfind("serving.prefill_machine.", 0) == 0 || e.key.rfind("serving.decode_machine.", 0) == 0) {
      // A field of a pool's own machine: machine.<path>'s row and checks, on that machine.
      read_pool_machine_axis(e, kp, serving, s, d);
      continue;
    }
    if (e.key.rfind("machine.", 0) != 0) {
      d.error(e.key_where, kp +
                               ": expected a dotted machine field path such as machine.pe.hbm.bandwidth "
                               "or machine.levels.<level>.link_bw, found '" +
                               e.key + "'");
      continue;
    }
    if (e.key.rfind("machine.plugins.", 0) == 0 || e.key.rfind("machine.efficiency.", 0) == 0) {
      // A machine-block parameter: typed against the plugin's schema once plugins are loaded.
      read_machine_block_axis(e, kp, s, d);
      continue;
    }
    const FieldPath field = resolve_machine_field(e.key, machine);
    if (!field.error.empty()) {
      d.error(e.key_where, kp + ": " + field.error);
      continue;
    }
    read_field_axis(e, kp, field, s, d);
  }
  // Sized by multiplication (saturating), never by enumeration: a 1000^4 grid is refused at once.
  const std::uint64_t points = sweep_hardware_points(s);
  if (points > current_limits().hardware_points)
    d.error(hw.where, hp + ": a hardware grid of " + points_text(points) + " points " +
                          limit_exceeded("hardware.points"));
}

}  // namespace

void parse_sweep(const YNode* n, const MachineSpec* machine, Scenario& sc, Diags& d) {
  Sweep& s = sc.sweep;
  const bool serve = sc.workload.mode == Mode::serve;
  if (serve) {
    s.serving_batch.assign(std::begin(kDefaultServingBatch), std::end(kDefaultServingBatch));
    s.serving_token_budget.assign(std::begin(kDefaultServingTokenBudget),
                                  std::end(kDefaultServingTokenBudget));
  }
  if (!n) return;
  const schema::FieldSite site{.workload = &sc.workload, .scenario = &sc};
  // Placements name the machine's levels (unread without a machine); the hardware axes are typed
  // by the machine's rows and the plugins' schemas; sweep.serving is serve's alone.
  const auto placement = [&](std::vector<std::int8_t>& dst, SourceLocation& where) {
    return [&, machine](const YNode* v, const std::string& path) {
      if (!machine) return;
      if (auto l = placement_list(*v, path, *machine, d)) {
        dst = std::move(*l);
        where = v->where;
      }
    };
  };
  const ChildReader readers[] = {
      {"sweep.parallelism.tp_placement", placement(s.tp_placement, s.tp_placement_where)},
      {"sweep.parallelism.cp_placement", placement(s.cp_placement, s.cp_placement_where)},
      {"sweep.hardware",
       [&](const YNode* v, const std::string&) { parse_hardware(*v, machine, &sc.serving, s, d); }},
      {"sweep.serving",
       [&](const YNode* v, const std::string& path) {
         if (serve)
           read_mapping(*v, path, "sweep.serving", site, d);
         else
           refuse_outside_serve(*n, "sweep", "serving",
                                "decode and prefill time one step of workload.batch sequences", d);
       }},
  };
  if (!read_mapping(*n, "sweep", "sweep", site, d, readers)) return;
  // Placement defaults: the PE and the first level (only the PE on a machine without levels).
  if (machine && machine->levels.empty()) {
    s.tp_placement.erase(std::remove(s.tp_placement.begin(), s.tp_placement.end(), 1), s.tp_placement.end());
    s.cp_placement.erase(std::remove(s.cp_placement.begin(), s.cp_placement.end(), 1), s.cp_placement.end());
  }
  const std::uint64_t grid = sweep_grid_points(s);
  if (grid > current_limits().grid_points) {
    const YNode* par = n->find("parallelism");
    d.error(par ? par->where : n->where, "sweep.parallelism: a parallelism grid of " + points_text(grid) +
                                             " points " + limit_exceeded("grid.points"));
  }
}

}  // namespace tessera::loader
