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
  YNode* node = &root;
  std::string canon;  // the schema path ("machine.levels.*" for any level)
  std::string shown;  // the real path
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string& c = parts[i];
    const bool last = i + 1 == parts.size();
    if (canon == "sweep.hardware") {
      std::string key = c;
      for (std::size_t j = i + 1; j < parts.size(); ++j) key += "." + parts[j];
      if (node->is_null()) *node = empty_mapping(o.where);
      node->set(key, o.where, o.value);
      return;
    }
    if (canon == "machine.levels") {
      if (!node->is_sequence()) {
        d.error(o.where,
                o.label + ": machine.levels is not a list of levels here; cannot address level '" + c + "'");
        return;
      }
      YNode* level = nullptr;
      std::vector<std::string> names;
      for (auto& item : node->items) {
        const YNode* nm = item.is_mapping() ? item.find("name") : nullptr;
        if (!nm || !nm->is_scalar()) continue;
        names.push_back(nm->value);
        if (nm->value == c) level = &item;
      }
      if (!level) {
        std::string rest;
        for (std::size_t j = i + 1; j < parts.size(); ++j) rest += "." + parts[j];
        d.error(o.where, o.label + ": no level named '" + c + "' in machine.levels" +
                             did_you_mean_path(c, names, "machine.levels", rest) +
                             "; levels are addressed by name: " + join_names(names, " and "));
        return;
      }
      if (last) {
        *level = o.value;
        return;
      }
      node = level;
      canon = "machine.levels.*";
      shown = join_path(shown, c);
      continue;
    }
    if (canon == "machine.plugins") {
      // machine.plugins.<plugin>.<param>: one parameter of one plugin's machine block.
      if (parts.size() != i + 2) {
        d.error(o.where, o.label +
                             ": a machine-block parameter is machine.plugins.<plugin>.<param>, found '" +
                             o.path + "'");
        return;
      }
      if (node->is_null()) *node = empty_mapping(o.where);
      if (!node->is_mapping()) {
        d.error(o.where,
                o.label + ": " + shown + " is " + describe(*node) + ", not a mapping of plugin blocks");
        return;
      }
      YNode* block = node->find(c);
      if (!block || block->is_null()) block = &node->set(c, o.where, empty_mapping(o.where));
      if (!block->is_mapping()) {
        d.error(o.where, o.label + ": " + join_path(shown, c) + " is " + describe(*block) +
                             ", not a mapping of parameters");
        return;
      }
      block->set(parts[i + 1], o.where, o.value);
      return;
    }
    if (schema_free_keys(canon)) {
      if (canon.rfind("plugins.", 0) == 0) {
        if (node->is_scalar()) {
          // `plugins.search.seed=7` on `search: random` -> {name: random, seed: 7}.
          YNode m = empty_mapping(node->where);
          m.set("name", node->where, *node);
          *node = std::move(m);
        } else if (node->is_sequence() && parts.size() == i + 2) {
          // plugins.latency.<name>.<param> on a list: the parameter of the element named <name>.
          YNode* item = nullptr;
          std::vector<std::string> names;
          for (auto& it : node->items) {
            const YNode* nm = it.is_scalar() ? &it : it.is_mapping() ? it.find("name") : nullptr;
            if (!nm || !nm->is_scalar()) continue;
            names.push_back(nm->value);
            if (nm->value == c) item = &it;
          }
          if (!item) {
            d.error(o.where, o.label + ": no plugin named '" + c + "' in " + shown +
                                 did_you_mean_path(c, names, shown, "." + parts[i + 1]) +
                                 "; the list holds " + join_names(names, " and "));
            return;
          }
          if (item->is_scalar()) {
            YNode m = empty_mapping(item->where);
            m.set("name", item->where, *item);
            *item = std::move(m);
          }
          item->set(parts[i + 1], o.where, o.value);
          return;
        } else if (node->is_sequence()) {
          d.error(o.where, o.label + ": " + shown +
                               " is a list of plugins; set the whole list instead, e.g. " + shown +
                               "=[{name: overlap, " + c + ": ...}]");
          return;
        } else if (node->is_null()) {
          *node = empty_mapping(o.where);
        }
      } else if (node->is_null()) {
        *node = empty_mapping(o.where);
      }
      if (!node->is_mapping()) {
        d.error(o.where, o.label + ": " + shown + " is " + describe(*node) + ", not a mapping of parameters");
        return;
      }
      const YNode* own = node->find("name");
      if (!last && parts.size() == i + 2 && (canon == "plugins.latency" || canon == "plugins.objectives") &&
          own && own->is_scalar()) {
        // plugins.latency.<name>.<param> on a single plugin: its parameter when <name> is it.
        if (own->value != c) {
          d.error(o.where, o.label + ": no plugin named '" + c + "' in " + shown +
                               did_you_mean_path(c, {own->value}, shown, "." + parts[i + 1]) + "; it holds " +
                               own->value);
          return;
        }
        node->set(parts[i + 1], o.where, o.value);
        return;
      }
      if (!last) {
        d.error(o.where, o.label + ": parameters of " + shown + " are single keys (e.g. " +
                             join_path(shown, c) + "), found the longer path '" + o.path + "'");
        return;
      }
      node->set(c, o.where, o.value);
      return;
    }
    // The same step along the table as every other dotted path (scenario/fields/field_table.hpp).
    const schema::FieldStep step = schema::step_field(canon, c);
    if (step.is_value) {
      d.error(o.where, o.label + ": " + shown + " holds a value, not keys; '" + o.path + "' names nothing");
      return;
    }
    if (!step.row) {
      if (d.full()) {  // only counted: no suggestion computed, no message worded
        d.error(o.where, {});
        return;
      }
      const std::string full = join_path(shown, c);
      d.error(o.where, o.label + ": no key '" + full + "' in the " +
                           (parts[0] == "model"     ? "model"
                            : parts[0] == "machine" ? "machine"
                                                    : "scenario") +
                           " schema" + did_you_mean_path(c, step.keys, shown) + "; " +
                           (shown.empty() ? std::string("the top level") : shown) + " takes " +
                           join_names(step.keys, " and "));
      return;
    }
    if (node->is_null()) *node = empty_mapping(o.where);
    // `in_network: true` -> {base: ...}: a constant of an enabled in-network reduction.
    if (canon == "machine.levels.*.collectives.in_network" && node->is_scalar() && node->value == "true")
      *node = empty_mapping(o.where);
    if (!node->is_mapping()) {
      d.error(o.where, o.label + ": " + shown + " is " + describe(*node) + ", not a mapping");
      return;
    }
    if (last) {
      node->set(c, o.where, o.value);
      return;
    }
    YNode* child = node->find(c);
    if (!child && canon == "plugins" && (c == "latency" || c == "memory" || c == "search")) {
      // A parameter of a plugin left at its default: `plugins.search.seed=7` with no
      // `search:` sets a parameter of the default search.
      YNode name;
      name.kind = YNode::Kind::scalar;
      name.value = c == "latency"  ? plugin_defaults::kLatency
                   : c == "memory" ? plugin_defaults::kMemory
                                   : plugin_defaults::kSearch;
      name.where = o.where;
      child = &node->set(c, o.where, std::move(name));
    }
    if (!child) child = &node->set(c, o.where, empty_mapping(o.where));
    node = child;
    canon = step.canonical;
    shown = join_path(shown, c);
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
