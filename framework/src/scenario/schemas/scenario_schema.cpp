// The scenario's own sections (docs/specification.md §2.9 "Scenario"): workload, scope, plugins and
// report, read by the field table (mapping_reader.hpp); its sweep by sweep_schema.cpp, serving by
// serving_schema.cpp. Model and machine are parsed before, by their own schemas.
#include <cctype>
#include <utility>

#include "host/plugin_defaults.hpp"
#include "scenario/fields/field_reader.hpp"
#include "scenario/fields/mapping_reader.hpp"
#include "scenario/readers/raw_params.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/schemas/schemas.hpp"
#include "scenario/schemas/serving_schema.hpp"
#include "scenario/schemas/sweep_schema.hpp"
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
    // An explicit `null` is text here: an enum may name a choice so.
    const bool ok = read_raw_params(n, path, "name", "a parameter value", true, c.params, d);
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
  p.scheduler = PluginChoice{};
  p.objectives.clear();
  if (serve)
    for (const char* name : plugin_defaults::kServingObjectives) p.objectives.push_back(default_choice(name));
  else
    for (const char* name : plugin_defaults::kObjectives) p.objectives.push_back(default_choice(name));
  if (!n) return;
  // One choice (memory, search, serving) or a list of them (latency, objectives), by row.
  const auto one = [&](PluginChoice& dst, const char* example) {
    return [&dst, example, &d](const YNode* v, const std::string& path) {
      if (auto c = plugin_choice(*v, path, example, d)) dst = std::move(*c);
    };
  };
  const auto many = [&](std::vector<PluginChoice>& dst, const char* example) {
    return [&dst, example, &d](const YNode* v, const std::string& path) {
      auto l = plugin_list(*v, path, example, d);
      if (!l.empty()) dst = std::move(l);
    };
  };
  const ChildReader readers[] = {
      {"plugins.latency", many(p.latency, plugin_defaults::kLatency)},
      {"plugins.memory", one(p.memory, plugin_defaults::kMemory)},
      {"plugins.search", one(p.search, plugin_defaults::kSearch)},
      {"plugins.objectives", many(p.objectives, plugin_defaults::kObjectives[0])},
      {"plugins.serving",
       [&, serve](const YNode* v, const std::string& path) {
         if (serve)
           one(p.serving, plugin_defaults::kServing)(v, path);
         else
           refuse_outside_serve(*n, "plugins", "serving", "decode and prefill time one step", d);
       }},
      {"plugins.scheduler",
       [&, serve](const YNode* v, const std::string& path) {
         if (serve)
           one(p.scheduler, "priority_classes")(v, path);
         else
           refuse_outside_serve(*n, "plugins", "scheduler", "only a request simulation schedules", d);
       }},
  };
  read_mapping(*n, "plugins", "plugins", schema::FieldSite{}, d, readers);
}

// The workload by the field table: the mode first, then the sizes that mode reads. Decode and
// prefill read context (required), batch and chunk and refuse input and output; serve reads
// input and output (required) and refuses context, batch and chunk, naming what replaces each.
// Serve's step fields: context = input, batch 1, chunk 0 (the serving study sweeps batch and
// budget, sweep.serving).
void parse_workload(const YNode& w, Scenario& s, Diags& d) {
  if (!expect_mapping(w, "workload", d)) return;
  const schema::FieldSite site{.workload = &s.workload, .scenario = &s};
  if (const YNode* m = w.find("mode")) {
    s.mode_where = m->where;
    read_slot(*m, "workload.mode", row_of("workload.mode"), site, d);
  }
  const bool serve = s.workload.mode == Mode::serve;
  const char* const refused[][2] = {
      {"batch", "the sequences in flight are swept: use sweep.serving.batch"},
      {"chunk", "prefill chunks follow the token budget: use sweep.serving.token_budget"},
      {"context", "a request's prompt length is workload.input"},
      {"input", "decode and prefill take workload.context"},
      {"output", "decode and prefill take workload.context"}};
  std::vector<ChildReader> skip{{"workload.mode", [](const YNode*, const std::string&) {}}};
  for (const auto& [key, instead] : refused) {
    const bool serve_key = key[0] == 'i' || key[0] == 'o';
    if (serve_key == serve) continue;
    skip.push_back(
        {schema::find_field(std::string("workload.") + key)->path, [](const YNode*, const std::string&) {}});
    if (serve_key)
      refuse_outside_serve(w, "workload", key, instead, d);
    else if (const YEntry* e = w.find_entry(key))
      d.error(e->key_where, std::string("workload.") + key + ": not in workload.mode: serve; " + instead);
  }
  read_mapping(w, "workload", "workload", site, d, skip);
  const std::vector<std::string> required =
      serve ? std::vector<std::string>{"input", "output"} : std::vector<std::string>{"context"};
  for (const std::string& key : required)
    if (!w.find(key)) report_missing(w, "workload", key, field_expectation(row_of("workload." + key)), d);
  if (serve) {
    s.workload.context = s.workload.input;
    s.workload.batch = 1;
    s.workload.chunk = 0;
    return;
  }
  const YNode* c = w.find("chunk");
  if (c && s.workload.context > 0 && s.workload.chunk > s.workload.context) {
    d.error(c->where, "workload.chunk: expected at most the context (" + std::to_string(s.workload.context) +
                          " tokens), found " + c->value);
    s.workload.chunk = 0;
  }
}

}  // namespace

void parse_scenario_sections(const YNode& root, const MachineSpec* machine, Scenario& s, Diags& d) {
  if (const YNode* name = root.find("name"))
    if (auto v = read_string(*name, "name", d)) s.name = *v;
  if (const YNode* desc = root.find("description")) read_string(*desc, "description", d);
  if (const YNode* w = member(root, "", "workload", true, "e.g. {mode: decode, context: 128K, batch: 1}", d))
    parse_workload(*w, s, d);
  const schema::FieldSite site{.workload = &s.workload, .scenario = &s};
  if (const YNode* sc = root.find("scope")) read_slot(*sc, "scope", row_of("scope"), site, d);
  parse_plugins(root.find("plugins"), s.workload.mode, s.plugins, d);
  parse_sweep(root.find("sweep"), machine, s, d);
  parse_serving(root, s, d);
  if (const YNode* r = root.find("report")) read_mapping(*r, "report", "report", site, d);
}

}  // namespace tessera::loader
