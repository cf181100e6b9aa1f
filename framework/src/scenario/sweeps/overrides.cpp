#include "scenario/sweeps/overrides.hpp"

#include <algorithm>

#include "core/text/dotted_path.hpp"
#include "core/text/nearest_name.hpp"
#include "host/plugin_defaults.hpp"
#include "scenario/fields/field_table.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/schemas/schemas.hpp"

namespace tessera::loader {

std::vector<Override> file_overrides(const YNode& root, const std::string& scenario_dir, Diags& d) {
  std::vector<Override> out;
  const YNode* o = root.find("overrides");
  if (!o || o->is_null()) return out;
  if (!o->is_mapping()) {
    d.error(o->where,
            "overrides: expected a mapping of dotted paths to values, e.g. "
            "{machine.pe.hbm.bandwidth: 1.5 TB/s}, found " +
                describe(*o));
    return out;
  }
  for (const auto& e : o->entries) {
    Override ov;
    ov.path = e.key;
    ov.value = e.value;
    ov.where = e.key_where;
    ov.label = "overrides";
    ov.base_dir = scenario_dir;
    out.push_back(std::move(ov));
  }
  return out;
}

std::vector<Override> cli_overrides(const std::vector<std::string>& set, Diags& d) {
  std::vector<Override> out;
  const SourceLocation where{kCommandLine, 0, 0};
  for (const auto& item : set) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      d.error(where, "--set '" + item +
                         "': expected KEY=VALUE with a dotted key from the scenario's root, "
                         "e.g. --set workload.batch=8 or --set machine.pe.hbm.bandwidth='2 TB/s'");
      continue;
    }
    Override ov;
    ov.path = item.substr(0, eq);
    while (!ov.path.empty() && ov.path.back() == ' ') ov.path.pop_back();
    ov.where = where;
    ov.label = "--set " + item;
    auto value = parse_yaml_text(item.substr(eq + 1), where, ov.label, d);
    if (!value) continue;
    ov.value = std::move(*value);
    out.push_back(std::move(ov));
  }
  return out;
}

namespace {

YNode empty_mapping(const SourceLocation& where) {
  YNode n;
  n.kind = YNode::Kind::mapping;
  n.where = where;
  return n;
}

// A bare plugin name made the mapping {name: <it>}, at the name's place.
void name_mapping(YNode& n) {
  YNode m = empty_mapping(n.where);
  m.set("name", n.where, n);
  n = std::move(m);
}

// The segments after the i-th, each with its leading dot (".pe.hbm"); empty after the last.
std::string path_after(const std::vector<std::string>& parts, std::size_t i) {
  std::string rest;
  for (std::size_t j = i + 1; j < parts.size(); ++j) rest += "." + parts[j];
  return rest;
}

// The element of a list named `name` (the last such; nullptr if none); `names` receives every
// element's name in list order. A mapping is named by its `name` key, a bare scalar by itself
// where `bare_names` (a list of plugin choices).
YNode* named_item(YNode& list, const std::string& name, bool bare_names, std::vector<std::string>& names) {
  YNode* found = nullptr;
  for (auto& item : list.items) {
    const YNode* nm = bare_names && item.is_scalar() ? &item
                      : item.is_mapping()            ? item.find("name")
                                                     : nullptr;
    if (!nm || !nm->is_scalar()) continue;
    names.push_back(nm->value);
    if (nm->value == name) found = &item;
  }
  return found;
}

// One override's walk down the tree, a path segment at a time.
struct Walk {
  const Override& o;
  const std::vector<std::string>& parts;
  YNode* node;        // the node the segments so far lead to
  std::string canon;  // the schema path ("machine.levels.*" for any level)
  std::string shown;  // the real path
};

// sweep.hardware.<axis>: the rest of the path is one key, the axis's own dotted name.
void set_hardware_axis(Walk& w, std::size_t i) {
  if (w.node->is_null()) *w.node = empty_mapping(w.o.where);
  w.node->set(w.parts[i] + path_after(w.parts, i), w.o.where, w.o.value);
}

// machine.levels.<level>: the level of that name. False when the walk ends here (the whole
// level replaced, or an error).
bool step_into_level(Walk& w, std::size_t i, Diags& d) {
  const Override& o = w.o;
  const std::string& c = w.parts[i];
  if (!w.node->is_sequence()) {
    d.error(o.where,
            o.label + ": machine.levels is not a list of levels here; cannot address level '" + c + "'");
    return false;
  }
  std::vector<std::string> names;
  YNode* level = named_item(*w.node, c, false, names);
  if (!level) {
    d.error(o.where, o.label + ": no level named '" + c + "' in machine.levels" +
                         did_you_mean_path(c, names, "machine.levels", path_after(w.parts, i)) +
                         "; levels are addressed by name: " + join_names(names, " and "));
    return false;
  }
  if (i + 1 == w.parts.size()) {
    *level = o.value;
    return false;
  }
  w.node = level;
  w.canon = "machine.levels.*";
  w.shown = join_path(w.shown, c);
  return true;
}

// machine.plugins.<plugin>.<param>: one parameter of one plugin's machine block.
void set_machine_block_parameter(Walk& w, std::size_t i, Diags& d) {
  const Override& o = w.o;
  const std::string& c = w.parts[i];
  YNode* node = w.node;
  if (w.parts.size() != i + 2) {
    d.error(o.where, o.label + ": a machine-block parameter is machine.plugins.<plugin>.<param>, found '" +
                         o.path + "'");
    return;
  }
  if (node->is_null()) *node = empty_mapping(o.where);
  if (!node->is_mapping()) {
    d.error(o.where,
            o.label + ": " + w.shown + " is " + describe(*node) + ", not a mapping of plugin blocks");
    return;
  }
  YNode* block = node->find(c);
  if (!block || block->is_null()) block = &node->set(c, o.where, empty_mapping(o.where));
  if (!block->is_mapping()) {
    d.error(o.where, o.label + ": " + join_path(w.shown, c) + " is " + describe(*block) +
                         ", not a mapping of parameters");
    return;
  }
  block->set(w.parts[i + 1], o.where, o.value);
}

// plugins.latency.<name>.<param> on a list: the parameter of the element named <name>.
void set_listed_plugin_parameter(Walk& w, std::size_t i, Diags& d) {
  const Override& o = w.o;
  const std::string& c = w.parts[i];
  std::vector<std::string> names;
  YNode* item = named_item(*w.node, c, true, names);
  if (!item) {
    d.error(o.where, o.label + ": no plugin named '" + c + "' in " + w.shown +
                         did_you_mean_path(c, names, w.shown, "." + w.parts[i + 1]) + "; the list holds " +
                         join_names(names, " and "));
    return;
  }
  if (item->is_scalar()) name_mapping(*item);
  item->set(w.parts[i + 1], o.where, o.value);
}

// A node of free keys made a mapping of parameters where it can be: a bare plugin choice becomes
// {name: ...}, nothing becomes {}. A list of plugin choices is handled here. False when the walk
// ends here (the parameter set in the list, or an error).
bool shape_parameter_mapping(Walk& w, std::size_t i, Diags& d) {
  YNode* node = w.node;
  const bool plugin = w.canon.rfind("plugins.", 0) == 0;
  if (plugin && node->is_scalar()) {
    // `plugins.search.seed=7` on `search: random` -> {name: random, seed: 7}.
    name_mapping(*node);
  } else if (plugin && node->is_sequence()) {
    if (w.parts.size() == i + 2) {
      set_listed_plugin_parameter(w, i, d);
    } else {
      d.error(w.o.where, w.o.label + ": " + w.shown +
                             " is a list of plugins; set the whole list instead, e.g. " + w.shown +
                             "=[{name: overlap, " + w.parts[i] + ": ...}]");
    }
    return false;
  } else if (node->is_null()) {
    *node = empty_mapping(w.o.where);
  }
  return true;
}

// A key of a mapping whose keys the schema leaves free (a plugin's parameters): the last
// segment, or a plugin's parameter addressed by the plugin's name.
void set_free_key(Walk& w, std::size_t i, Diags& d) {
  const Override& o = w.o;
  const std::string& c = w.parts[i];
  const bool last = i + 1 == w.parts.size();
  if (!shape_parameter_mapping(w, i, d)) return;
  YNode* node = w.node;
  if (!node->is_mapping()) {
    d.error(o.where, o.label + ": " + w.shown + " is " + describe(*node) + ", not a mapping of parameters");
    return;
  }
  const YNode* own = node->find("name");
  if (!last && w.parts.size() == i + 2 && (w.canon == "plugins.latency" || w.canon == "plugins.objectives") &&
      own && own->is_scalar()) {
    // plugins.latency.<name>.<param> on a single plugin: its parameter when <name> is it.
    if (own->value != c) {
      d.error(o.where, o.label + ": no plugin named '" + c + "' in " + w.shown +
                           did_you_mean_path(c, {own->value}, w.shown, "." + w.parts[i + 1]) + "; it holds " +
                           own->value);
      return;
    }
    node->set(w.parts[i + 1], o.where, o.value);
    return;
  }
  if (!last) {
    d.error(o.where, o.label + ": parameters of " + w.shown + " are single keys (e.g. " +
                         join_path(w.shown, c) + "), found the longer path '" + o.path + "'");
    return;
  }
  node->set(c, o.where, o.value);
}

// The error for a segment the field table does not know, with the keys the mapping takes.
void refuse_unknown_key(const Walk& w, const std::string& c, const std::vector<std::string>& keys, Diags& d) {
  if (d.full()) {  // only counted: no suggestion computed, no message worded
    d.error(w.o.where, {});
    return;
  }
  const std::string& top = w.parts[0];
  const std::string full = join_path(w.shown, c);
  d.error(w.o.where, w.o.label + ": no key '" + full + "' in the " +
                         (top == "model"     ? "model"
                          : top == "machine" ? "machine"
                                             : "scenario") +
                         " schema" + did_you_mean_path(c, keys, w.shown) + "; " +
                         (w.shown.empty() ? std::string("the top level") : w.shown) + " takes " +
                         join_names(keys, " and "));
}

// A plugin left at its default, as its bare name: `plugins.search.seed=7` with no `search:`
// sets a parameter of the default search.
YNode default_plugin_choice(const std::string& role, const SourceLocation& where) {
  YNode name;
  name.kind = YNode::Kind::scalar;
  name.value = role == "latency"  ? plugin_defaults::kLatency
               : role == "memory" ? plugin_defaults::kMemory
                                  : plugin_defaults::kSearch;
  name.where = where;
  return name;
}

// One segment along the field table, as every other dotted path steps
// (scenario/fields/field_table.hpp); a missing mapping on the way is created. False when the
// walk ends here (the value set, or an error).
bool step_along_table(Walk& w, std::size_t i, Diags& d) {
  const Override& o = w.o;
  const std::string& c = w.parts[i];
  const schema::FieldStep step = schema::step_field(w.canon, c);
  if (step.is_value) {
    d.error(o.where, o.label + ": " + w.shown + " holds a value, not keys; '" + o.path + "' names nothing");
    return false;
  }
  if (!step.row) {
    refuse_unknown_key(w, c, step.keys, d);
    return false;
  }
  YNode* node = w.node;
  if (node->is_null()) *node = empty_mapping(o.where);
  // `in_network: true` -> {base: ...}: a constant of an enabled in-network reduction.
  if (w.canon == "machine.levels.*.collectives.in_network" && node->is_scalar() && node->value == "true")
    *node = empty_mapping(o.where);
  if (!node->is_mapping()) {
    d.error(o.where, o.label + ": " + w.shown + " is " + describe(*node) + ", not a mapping");
    return false;
  }
  if (i + 1 == w.parts.size()) {
    node->set(c, o.where, o.value);
    return false;
  }
  YNode* child = node->find(c);
  if (!child && w.canon == "plugins" && (c == "latency" || c == "memory" || c == "search"))
    child = &node->set(c, o.where, default_plugin_choice(c, o.where));
  if (!child) child = &node->set(c, o.where, empty_mapping(o.where));
  w.node = child;
  w.canon = step.canonical;
  w.shown = join_path(w.shown, c);
  return true;
}

// The i-th segment of the walk, by what the path so far names. False when the walk ends here.
bool step_override(Walk& w, std::size_t i, Diags& d) {
  if (w.canon == "sweep.hardware") {
    set_hardware_axis(w, i);
    return false;
  }
  if (w.canon == "machine.levels") return step_into_level(w, i, d);
  if (w.canon == "machine.plugins") {
    set_machine_block_parameter(w, i, d);
    return false;
  }
  if (schema_free_keys(w.canon)) {
    set_free_key(w, i, d);
    return false;
  }
  return step_along_table(w, i, d);
}

}  // namespace

void apply_override(YNode& root, const Override& o, const std::vector<std::string>& skip, Diags& d) {
  const auto parts = split_dotted(o.path);
  for (const auto& p : parts) {
    if (p.empty()) {
      d.error(o.where, o.label + ": '" + o.path + "' is not a dotted path (e.g. machine.pe.hbm.bandwidth)");
      return;
    }
  }
  if (std::find(skip.begin(), skip.end(), parts[0]) != skip.end()) return;
  if (parts[0] == "overrides" || parts[0] == "schema_version" || parts[0] == "kind") {
    d.error(o.where, o.label + ": '" + parts[0] + "' cannot be overridden");
    return;
  }
  Walk w{o, parts, &root, {}, {}};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (!step_override(w, i, d)) return;
  }
}

std::string rename_machine_paths(const std::string& text, const std::string& to) {
  std::string out;
  const std::string word = "machine";
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t k = text.find(word, i);
    if (k == std::string::npos) break;
    const char before = k > 0 ? text[k - 1] : ' ';
    const char after = k + word.size() < text.size() ? text[k + word.size()] : ' ';
    const bool path_start = before == ' ' || before == '\'' || before == '(' || before == '"';
    const bool path_end = after == '.' || after == '\'' || after == ':';
    out += text.substr(i, k - i);
    out += path_start && path_end ? to : word;
    i = k + word.size();
  }
  return out + text.substr(i);
}

bool apply_pool_override(YNode& root, const Override& o, const std::vector<std::string>& skip, Diags& d) {
  for (const char* key : {"prefill_machine", "decode_machine"}) {
    const std::string label = std::string("serving.") + key;
    if (o.path.rfind(label + ".", 0) != 0) continue;
    if (std::find(skip.begin(), skip.end(), label) != skip.end()) return true;
    const std::string rest = o.path.substr(label.size() + 1);
    YNode* serving = root.find("serving");
    YNode* pool = serving && serving->is_mapping() ? serving->find(key) : nullptr;
    if (!pool || !pool->is_mapping()) {
      d.error(o.where, o.label + ": '" + o.path + "' names the " + (key[0] == 'p' ? "prefill" : "decode") +
                           " pool's own machine, but " + label + " is not given (the pool runs on " +
                           "`machine`: set machine." + rest +
                           " when neither pool has a machine of its own; " + "else give " + label +
                           ", e.g. the file `machine:` names, and set " + o.path + ")");
      return true;
    }
    // The pool's machine as `machine` of a scratch root: the same walk, checks and messages.
    YNode scratch;
    scratch.kind = YNode::Kind::mapping;
    scratch.where = root.where;
    scratch.set("machine", pool->where, std::move(*pool));
    Override m = o;
    m.path = "machine." + rest;
    Diags local;
    apply_override(scratch, m, {}, local);
    *pool = std::move(*scratch.find("machine"));
    for (Diagnostic& g : local.list) {
      const std::size_t head = g.message.find(o.label) == 0 ? o.label.size() : 0;
      d.error(g.where, g.message.substr(0, head) + rename_machine_paths(g.message.substr(head), label));
    }
    if (local.unshown > 0 && d.unshown == 0) d.unshown_file = local.unshown_file;
    d.unshown += local.unshown;
    return true;
  }
  return false;
}

void refuse_shared_machine_path(const SourceLocation& where, const std::string& label,
                                const std::string& path, Diags& d) {
  const std::string rest = path.substr(std::string("machine.").size());
  d.error(where, label + ": '" + path +
                     "' is ambiguous: the pools run on machines of their own (serving.prefill_machine or "
                     "serving.decode_machine is given) (did you mean 'serving.prefill_machine." +
                     rest + "' or 'serving.decode_machine." + rest + "'?)");
}

}  // namespace tessera::loader
