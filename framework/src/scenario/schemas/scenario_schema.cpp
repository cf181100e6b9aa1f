// The scenario's own sections (docs/specification.md §2.9 "Scenario"): dtype, workload, scope, plugins,
// sweep,
// report. Model and machine are parsed before, by their own schemas.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <utility>

#include "core/text/dotted_path.hpp"
#include "core/text/nearest_name.hpp"
#include "host/plugin_defaults.hpp"
#include "scenario/fields/field_access.hpp"
#include "scenario/fields/field_reader.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/schemas/schemas.hpp"
#include "scenario/schemas/serving_schema.hpp"
#include "scenario/sweeps/overrides.hpp"
#include "scenario/sweeps/sweep_size.hpp"
#include "tessera/limits.hpp"

namespace tessera::loader {

namespace {

bool valid_plugin_name(const std::string& s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (!(std::isalnum(c) || c == '_' || c == '-')) return false;
  }
  return true;
}

// A plugin name given as a scalar: must be a string (not a number, boolean or null).
std::optional<std::string> plugin_name(const YNode& n, const std::string& path, const std::string& example,
                                       Diags& d) {
  const std::string what =
      "a plugin name (e.g. " + example + ") or a mapping {name: " + example + ", <parameters>}";
  if (!n.is_scalar() || looks_non_string(n) || !valid_plugin_name(n.value)) {
    std::string found = describe(n);
    if (n.is_scalar() && looks_non_string(n))
      found = (n.value.empty() || n.value == "~" || n.value == "null") ? "nothing"
                                                                       : "the non-string value " + n.value;
    d.error(n.where, path + ": expected " + what + ", found " + found);
    return std::nullopt;
  }
  return n.value;
}

std::optional<PluginChoice> plugin_choice(const YNode& n, const std::string& path, const std::string& example,
                                          Diags& d) {
  PluginChoice c;
  c.where = n.where;
  if (n.is_mapping()) {
    const YEntry* name = n.find_entry("name");
    if (!name) {
      report_missing(n, path, "name", "the plugin's name, e.g. " + example, d);
      return std::nullopt;
    }
    auto nm = plugin_name(name->value, join_path(path, "name"), example, d);
    if (!nm) return std::nullopt;
    c.name = *nm;
    c.where = name->value.where;
    bool ok = true;
    for (const auto& e : n.entries) {
      if (e.key == "name") continue;
      RawParam p;
      p.key = e.key;
      p.where = e.value.where;
      const std::string kp = join_path(path, e.key);
      if (e.value.is_scalar() || (e.value.is_null() && !e.value.value.empty())) {
        p.text = e.value.value;  // an explicit `null` is text here: an enum may name a choice so
      } else if (e.value.is_sequence()) {
        p.is_list = true;
        for (const auto& item : e.value.items) {
          if (!item.is_scalar()) {
            d.error(item.where, kp + ": expected a list of values, found an item that is " + describe(item));
            ok = false;
            continue;
          }
          p.items.push_back(item.value);
          p.text += (p.text.empty() ? "" : ",") + item.value;
        }
      } else {
        d.error(e.value.where,
                kp + ": expected a parameter value or a list of values, found " + describe(e.value));
        ok = false;
        continue;
      }
      c.params.push_back(std::move(p));
    }
    if (!ok) return std::nullopt;
    return c;
  }
  auto nm = plugin_name(n, path, example, d);
  if (!nm) return std::nullopt;
  c.name = *nm;
  return c;
}

std::vector<PluginChoice> plugin_list(const YNode& n, const std::string& path, const std::string& example,
                                      Diags& d) {
  std::vector<PluginChoice> out;
  if (n.is_sequence()) {
    if (n.items.empty())
      d.error(n.where, path + ": expected at least one plugin (e.g. [" + example + "]), found an empty list");
    for (std::size_t i = 0; i < n.items.size(); ++i)
      if (auto c = plugin_choice(n.items[i], path + "[" + std::to_string(i) + "]", example, d))
        out.push_back(std::move(*c));
    return out;
  }
  if (auto c = plugin_choice(n, path, example, d)) out.push_back(std::move(*c));
  return out;
}

PluginChoice default_choice(const char* name) {
  PluginChoice c;
  c.name = name;
  return c;
}

// Serve mode: the serving model, and objectives defaulting to kServingObjectives; elsewhere
// plugins.serving is refused.
void parse_plugins(const YNode* n, Mode mode, PluginChoices& p, Diags& d) {
  const bool serve = mode == Mode::serve;
  p.latency = {default_choice(plugin_defaults::kLatency)};
  p.memory = default_choice(plugin_defaults::kMemory);
  p.search = default_choice(plugin_defaults::kSearch);
  p.serving = serve ? default_choice(plugin_defaults::kServing) : PluginChoice{};
  p.objectives.clear();
  if (serve)
    for (const char* name : plugin_defaults::kServingObjectives) p.objectives.push_back(default_choice(name));
  else
    for (const char* name : plugin_defaults::kObjectives) p.objectives.push_back(default_choice(name));
  if (!n || !expect_mapping(*n, "plugins", d)) return;
  if (serve) {
    if (const YNode* sv = n->find("serving"))
      if (auto c = plugin_choice(*sv, "plugins.serving", plugin_defaults::kServing, d))
        p.serving = std::move(*c);
  } else {
    refuse_outside_serve(*n, "plugins", "serving", "decode and prefill time one step", d);
  }
  check_keys(*n, "plugins", *schema_keys("plugins"), d);
  if (const YNode* l = n->find("latency")) {
    auto v = plugin_list(*l, "plugins.latency", plugin_defaults::kLatency, d);
    if (!v.empty()) p.latency = std::move(v);
  }
  if (const YNode* m = n->find("memory"))
    if (auto c = plugin_choice(*m, "plugins.memory", plugin_defaults::kMemory, d)) p.memory = std::move(*c);
  if (const YNode* s = n->find("search"))
    if (auto c = plugin_choice(*s, "plugins.search", plugin_defaults::kSearch, d)) p.search = std::move(*c);
  if (const YNode* o = n->find("objectives")) {
    auto v = plugin_list(*o, "plugins.objectives", plugin_defaults::kObjectives[0], d);
    if (!v.empty()) p.objectives = std::move(v);
  }
}

std::vector<const YNode*> items_of(const YNode& n) {
  std::vector<const YNode*> v;
  if (n.is_sequence())
    for (const auto& i : n.items) v.push_back(&i);
  else
    v.push_back(&n);
  return v;
}

// A sweep list longer than the limit list.values: refused at the list, before any item is read.
bool list_too_long(const YNode& n, std::size_t size, const std::string& path, Diags& d) {
  if (size <= current_limits().list_values) return false;
  d.error(n.where, path + ": a list of " + std::to_string(size) + " values " + limit_exceeded("list.values"));
  return true;
}

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

// A list (or a single value) of positive integers without repeats, each read by `row`.
std::optional<std::vector<std::int32_t>> int_list(const YNode& n, const std::string& path,
                                                  const schema::FieldRow& row, Diags& d) {
  const std::vector<const YNode*> items = items_of(n);
  if (list_too_long(n, items.size(), path, d)) return std::nullopt;
  if (items.empty()) {
    d.error(n.where,
            path + ": expected a list of positive integers (e.g. [1, 2, 4, 8]), found an empty list");
    return std::nullopt;
  }
  std::vector<std::int32_t> out;
  bool ok = true;
  for (const YNode* i : items) {
    if (!i->is_scalar()) {
      d.error(i->where, path + ": expected a positive integer, found " + describe(*i));
      ok = false;
      continue;
    }
    const auto v = read_field(*i, path, row, d);
    if (!v) {
      ok = false;
      continue;
    }
    out.push_back(static_cast<std::int32_t>(v->integer));
  }
  if (!ok) return std::nullopt;
  if (!report_repeats(out, items, path, d)) return std::nullopt;
  return out;
}

template <typename E>
std::optional<std::vector<E>> choice_list(const YNode& n, const std::string& path,
                                          const std::vector<std::pair<std::string, E>>& table, bool ci,
                                          Diags& d) {
  std::vector<std::string> names;
  for (const auto& [s, e] : table) names.push_back(s);
  const auto items = items_of(n);
  if (list_too_long(n, items.size(), path, d)) return std::nullopt;
  if (items.empty()) {
    d.error(n.where, path + ": expected a list of " + join_names(names) + ", found an empty list");
    return std::nullopt;
  }
  std::vector<E> out;
  bool ok = true;
  for (const YNode* i : items) {
    bool found = false;
    if (i->is_scalar()) {
      for (const auto& [s, e] : table) {
        std::string a = s, b = i->value;
        if (ci) {
          for (auto& ch : a) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
          for (auto& ch : b) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        }
        if (a == b) {
          found = true;
          if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
        }
      }
    }
    if (!found) {
      d.error(i->where, path + ": expected one of " + join_names(names) + ", found " + describe(*i) +
                            (i->is_scalar() ? did_you_mean(i->value, names) : std::string()));
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return out;
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

void parse_sweep(const YNode* n, const MachineSpec* machine, const ServingSpec* serving, Sweep& s, Diags& d) {
  if (!n || !expect_mapping(*n, "sweep", d)) return;
  check_keys(*n, "sweep", *schema_keys("sweep"), d);
  if (const YNode* par = n->find("parallelism")) {
    const std::string pp = "sweep.parallelism";
    if (expect_mapping(*par, pp, d)) {
      check_keys(*par, pp, *schema_keys(pp), d);
      const std::pair<const char*, std::vector<std::int32_t>*> numeric[] = {
          {"cp", &s.cp}, {"tp", &s.tp}, {"pp", &s.pp}, {"dp", &s.dp}, {"ep", &s.ep}};
      for (const auto& [key, dst] : numeric)
        if (const YNode* v = par->find(key))
          if (auto l = int_list(*v, join_path(pp, key), row_of(join_path(pp, key)), d)) *dst = std::move(*l);
      if (const YNode* v = par->find("kv_shard_mode"))
        if (auto l = choice_list<KvShardMode>(*v, pp + ".kv_shard_mode",
                                              row_choices<KvShardMode>(pp + ".kv_shard_mode"), false, d))
          s.kv_shard_mode = std::move(*l);
      if (const YNode* v = par->find("ffn_shard_scope"))
        if (auto l = choice_list<FfnShardScope>(*v, pp + ".ffn_shard_scope",
                                                row_choices<FfnShardScope>(pp + ".ffn_shard_scope"), true, d))
          s.ffn_shard_scope = std::move(*l);
      if (const YNode* v = par->find("cp_ring_variant"))
        if (auto l = choice_list<CpRingVariant>(
                *v, pp + ".cp_ring_variant", row_choices<CpRingVariant>(pp + ".cp_ring_variant"), false, d))
          s.cp_ring_variant = std::move(*l);
      if (machine) {
        if (const YNode* v = par->find("tp_placement"))
          if (auto l = placement_list(*v, pp + ".tp_placement", *machine, d)) {
            s.tp_placement = std::move(*l);
            s.tp_placement_where = v->where;
          }
        if (const YNode* v = par->find("cp_placement"))
          if (auto l = placement_list(*v, pp + ".cp_placement", *machine, d)) {
            s.cp_placement = std::move(*l);
            s.cp_placement_where = v->where;
          }
      }
    }
  }
  // Placement defaults: the PE and the first level (only the PE on a machine without levels).
  if (machine && machine->levels.empty()) {
    s.tp_placement.erase(std::remove(s.tp_placement.begin(), s.tp_placement.end(), 1), s.tp_placement.end());
    s.cp_placement.erase(std::remove(s.cp_placement.begin(), s.cp_placement.end(), 1), s.cp_placement.end());
  }
  if (const YNode* hw = n->find("hardware")) {
    const std::string hp = "sweep.hardware";
    if (expect_mapping(*hw, hp, d)) {
      for (const auto& e : hw->entries) {
        const std::string kp = join_path(hp, e.key);
        if (e.key.rfind("plugins.", 0) == 0) {
          // A scenario plugin's parameter: typed against the plugin's schema once plugins are
          // loaded (scenario/sweeps/plugin_axes.hpp); each point re-creates the plugin.
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
            continue;
          }
          const std::size_t want = named ? 4u : 3u;
          bool empty_part = false;
          for (const auto& part : parts) empty_part |= part.empty();
          if (parts.size() != want || empty_part) {
            const std::string what = k == "objectives" ? "an objective" : "a " + k;
            d.error(e.key_where,
                    kp + ": " + what + " plugin parameter is " + form + ", found '" + e.key + "'");
            continue;
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
          if (!read_axis_texts(e.value, kp, axis, d)) continue;
          s.hardware.push_back(std::move(axis));
          continue;
        }
        if (e.key.rfind("serving.prefill_machine.", 0) == 0 ||
            e.key.rfind("serving.decode_machine.", 0) == 0) {
          // A field of a pool's own machine: machine.<path>'s row and checks, on that machine.
          const bool prefill = e.key[8] == 'p';
          const std::string pool = prefill ? "serving.prefill_machine" : "serving.decode_machine";
          const PoolMachine* pm = !serving  ? nullptr
                                  : prefill ? &serving->prefill_machine
                                            : &serving->decode_machine;
          const std::string rest = e.key.substr(pool.size() + 1);
          if (!pm || !pm->given) {
            d.error(e.key_where, kp + ": '" + e.key + "' names the " + (prefill ? "prefill" : "decode") +
                                     " pool's own machine, but " + pool + " is not given (the pool runs on " +
                                     "`machine`: sweep machine." + rest +
                                     " when neither pool has a machine of its own; else give " + pool +
                                     ", e.g. the file `machine:` names)");
            continue;
          }
          if (rest.rfind("plugins.", 0) == 0 || rest.rfind("efficiency.", 0) == 0) {
            d.error(e.key_where,
                    kp + ": '" + e.key +
                        "': a pool machine's plugin blocks are not swept; set one value with --set");
            continue;
          }
          const FieldPath field = resolve_machine_field("machine." + rest, &pm->machine);
          if (!field.error.empty()) {
            d.error(e.key_where, kp + ": " + rename_machine_paths(field.error, pool));
            continue;
          }
          read_field_axis(e, kp, field, s, d);
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
          const auto parts = split_dotted(e.key);
          const bool eff = parts[1] == "efficiency";
          if (parts.size() != (eff ? 3u : 4u) || parts.back().empty() || (!eff && parts[2].empty())) {
            d.error(e.key_where,
                    kp + ": a machine-block parameter is machine.plugins.<plugin>.<param>, found '" + e.key +
                        "'");
            continue;
          }
          HardwareAxis axis;
          axis.path = e.key;
          // machine.efficiency.<param>: the plugin that declares `efficiency` as its block's key,
          // found once plugins are loaded (scenario/sweeps/plugin_axes.cpp).
          if (eff)
            axis.block_key = parts[1];
          else
            axis.plugin = parts[2];
          axis.param = parts.back();
          axis.where = e.key_where;
          if (read_axis_texts(e.value, kp, axis, d)) s.hardware.push_back(std::move(axis));
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
        d.error(hw->where, hp + ": a hardware grid of " + points_text(points) + " points " +
                               limit_exceeded("hardware.points"));
    }
  }
  const std::uint64_t grid = sweep_grid_points(s);
  if (grid > current_limits().grid_points) {
    const YNode* par = n->find("parallelism");
    d.error(par ? par->where : n->where, "sweep.parallelism: a parallelism grid of " + points_text(grid) +
                                             " points " + limit_exceeded("grid.points"));
  }
}

// The sizes of the workload's mode: decode and prefill read context (required), batch and
// chunk and refuse input and output; serve reads input and output (required) and refuses
// context, batch and chunk, naming what replaces each. Serve's step fields: context = input,
// batch 1, chunk 0 (the serving study sweeps batch and budget, sweep.serving).
void parse_workload_sizes(const YNode& w, Workload& out, Diags& d) {
  const bool serve = out.mode == Mode::serve;
  const char* const refused[][2] = {
      {"batch", "the sequences in flight are swept: use sweep.serving.batch"},
      {"chunk", "prefill chunks follow the token budget: use sweep.serving.token_budget"},
      {"context", "a request's prompt length is workload.input"}};
  if (serve) {
    for (const auto& [key, instead] : refused)
      if (const YEntry* e = w.find_entry(key))
        d.error(e->key_where, std::string("workload.") + key + ": not in workload.mode: serve; " + instead);
  } else {
    for (const char* key : {"input", "output"})
      refuse_outside_serve(w, "workload", key, "decode and prefill take workload.context", d);
  }
  for (const schema::FieldRow* r : schema::child_rows("workload")) {
    if (!r->slot.integer) continue;
    const std::string key(schema::field_key(*r));
    const bool serve_key = key == "input" || key == "output";
    if (serve_key != serve) continue;
    const YNode* n = w.find(key);
    if (!n) {
      if (serve_key || key == "context") report_missing(w, "workload", key, field_expectation(*r), d);
      continue;
    }
    schema::FieldSite site;
    site.workload = &out;
    if (const auto v = read_field(*n, "workload." + key, *r, d)) *r->slot.integer(site) = v->integer;
  }
  if (serve) {
    out.context = out.input;
    out.batch = 1;
    out.chunk = 0;
  }
}

void parse_report(const YNode* n, ReportSpec& r, Diags& d) {
  if (!n || !expect_mapping(*n, "report", d)) return;
  check_keys(*n, "report", *schema_keys("report"), d);
  if (const YNode* t = n->find("top"))
    if (auto v = read_int(*t, "report.top", d)) {
      if (static_cast<std::uint64_t>(*v) > current_limits().report_top)
        d.error(t->where, "report.top: " + t->value + " rows " + limit_exceeded("report.top"));
      else
        r.top = *v;
    }
  if (const YNode* c = n->find("csv"))
    if (auto v = read_string(*c, "report.csv", d)) r.csv = *v;
  if (const YNode* j = n->find("json"))
    if (auto v = read_string(*j, "report.json", d)) r.json = *v;
  if (const YNode* sc = n->find("scopes"))
    if (auto l = choice_list<Scope>(*sc, "report.scopes", row_choices<Scope>("report.scopes"), false, d))
      r.scopes = std::move(*l);
}

}  // namespace

void parse_scenario_sections(const YNode& root, const MachineSpec* machine, Scenario& s, Diags& d) {
  if (const YNode* name = root.find("name"))
    if (auto v = read_string(*name, "name", d)) s.name = *v;
  if (const YNode* desc = root.find("description")) read_string(*desc, "description", d);

  // workload
  if (const YNode* w =
          member(root, "", "workload", true, "e.g. {mode: decode, context: 128K, batch: 1}", d)) {
    if (expect_mapping(*w, "workload", d)) {
      check_keys(*w, "workload", *schema_keys("workload"), d);
      if (const YNode* m = field_member(*w, "workload", row_of("workload.mode"), d)) {
        s.mode_where = m->where;
        // The row's choices are in Mode's order (tests/scenario/test_serving_fields.cpp).
        if (auto v = read_field(*m, "workload.mode", row_of("workload.mode"), d))
          for (const auto& [name, mode] : row_choices<Mode>("workload.mode"))
            if (name == v->text) s.workload.mode = mode;
      }
      parse_workload_sizes(*w, s.workload, d);
      const YNode* c = w->find("chunk");
      if (c && s.workload.context > 0 && s.workload.chunk > s.workload.context) {
        d.error(c->where, "workload.chunk: expected at most the context (" +
                              std::to_string(s.workload.context) + " tokens), found " + c->value);
        s.workload.chunk = 0;
      }
    }
  }
  if (const YNode* sc = root.find("scope"))
    if (auto v = read_field(*sc, "scope", row_of("scope"), d))
      s.workload.scope = v->text == "full" ? Scope::full : Scope::attention;

  parse_plugins(root.find("plugins"), s.workload.mode, s.plugins, d);
  parse_sweep(root.find("sweep"), machine, &s.serving, s.sweep, d);
  parse_sweep_serving(root.find("sweep"), s.workload.mode, s.sweep, d);
  parse_serving(root, s.workload.mode, s.serving, d);
  parse_report(root.find("report"), s.report, d);
}

}  // namespace tessera::loader
