// The scenario's own sections (docs/specification.md §2.9 "Scenario"): dtype, workload, scope, plugins,
// report; its sweep by sweep_schema.cpp. Model and machine are parsed before, by their own schemas.
#include <cctype>
#include <utility>

#include "host/plugin_defaults.hpp"
#include "scenario/fields/field_reader.hpp"
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
