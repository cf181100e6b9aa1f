// Reading and resolving framework profiles (scenario/serving_stacks/stack_profile.hpp); a
// version's KV-cache rule in stack_kv_cache.cpp.
#include "scenario/serving_stacks/stack_profile.hpp"

#include "scenario/serving_stacks/stack_precision.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

#include "core/text/nearest_name.hpp"
#include "core/text/safe_text.hpp"
#include "core/text/shell_word.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/readers/yaml_tree.hpp"
#include "scenario/serving_stacks/stack_kv_cache.hpp"
#include "scenario/serving_stacks/stack_moe_a2a.hpp"
#include "scenario/serving_stacks/stack_precision.hpp"
#include "scenario/serving_stacks/stack_prefix_cache.hpp"
#include "scenario/serving_stacks/stack_scheduler.hpp"
#include "scenario/serving_stacks/stack_speculative.hpp"
#include "scenario/serving_stacks/stacks_yaml.hpp"

namespace tessera {

namespace {

using loader::Diags;
using loader::YNode;

constexpr const char* kTermNames[] = {"tp",
                                      "pp",
                                      "dp",
                                      "ep",
                                      "cp",
                                      "batch",
                                      "token_budget",
                                      "dcp",
                                      "offload_gib",
                                      "offload_gb",
                                      "offload_bytes",
                                      "spec_steps",
                                      "spec_draft_tokens",
                                      "redundant_experts",
                                      "expert_slots"};
constexpr const char* kConditionNames[] = {"pp>1",
                                           "dp>1",
                                           "ep>1",
                                           "cp>1",
                                           "attention_dp",
                                           "!attention_dp",
                                           "kv_split",
                                           "prefill",
                                           "decode",
                                           "disaggregated",
                                           "aggregated",
                                           "replicas_flag",
                                           "prefix_caching",
                                           "!prefix_caching",
                                           "offload_dram",
                                           "offload_ssd",
                                           "speculative_mtp",
                                           "speculative_eagle",
                                           "speculative_draft",
                                           "ep_full",
                                           "eplb"};

template <std::size_t N>
std::vector<std::string> names_of(const char* const (&names)[N]) {
  return std::vector<std::string>(std::begin(names), std::end(names));
}

using stacks_yaml::format_condition;
using stacks_yaml::pick;
using stacks_yaml::read_kv_cache;
using stacks_yaml::read_prefix_cache;
using stacks_yaml::read_scheduler;
using stacks_yaml::read_speculative;
using stacks_yaml::text_of;

// Words frameworks.yaml puts into a launch script unquoted (docs/frameworks.md "--deploy"): the
// command's words and the flag names, each plain for sh (core/text/shell_word.hpp), so no data file
// can make a script run something it does not show; a value written into a config file as it
// is holds no control character (a newline would start a key of its own).
bool has_control(const std::string& w) { return first_control_character(w) != std::string_view::npos; }

void check_flag_name(const YNode& n, const std::string& path, const char* key, const std::string& v,
                     Diags& d) {
  if (v.empty() || (v[0] == '-' && shell_plain(v))) return;
  const YNode* at = n.find(key);
  d.error(at ? at->where : n.where, loader::join_path(path, key) +
                                        ": expected a flag of [A-Za-z0-9_./:@=+-] "
                                        "starting with '-' (it is written unquoted into launch scripts)");
}

bool bool_of(const YNode& map, const std::string& path, const char* key, Diags& d) {
  const YNode* n = loader::member(map, path, key, true, "true or false", d);
  if (!n) return false;
  return loader::read_bool(*n, loader::join_path(path, key), d).value_or(false);
}

void read_flag(const YNode& n, const std::string& path, ServingStackFlag& f, Diags& d) {
  if (!loader::expect_mapping(n, path, d)) return;
  loader::check_keys(n, path,
                     {"flag", "yaml", "comment", "value", "literal", "when", "default", "source",
                      "a2a_prefill", "a2a_decode"},
                     d);
  stacks_yaml::read_flag_a2a(n, path, f, d);
  f.where = n.where;
  f.flag = text_of(n, path, "flag", false, d);
  f.yaml = text_of(n, path, "yaml", false, d);
  f.comment = text_of(n, path, "comment", false, d);
  if (f.flag.empty() + f.yaml.empty() + f.comment.empty() != 2)
    d.error(n.where, path +
                         ": expected exactly one of `flag:` (a command-line flag), `yaml:` (a config key) "
                         "and `comment:` (a line of the script's comments)");
  if (has_control(f.comment))
    d.error(n.find("comment")->where,
            loader::join_path(path, "comment") +
                ": expected one line of printable text (it is written as a `#` line)");
  if (const YNode* v = n.find("value")) {
    const std::string text = v->is_scalar() ? v->value : "";
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t star = text.find('*', start);
      const std::string term =
          text.substr(start, star == std::string::npos ? std::string::npos : star - start);
      YNode t = *v;
      t.value = term;
      if (auto i = pick(t, loader::join_path(path, "value"), names_of(kTermNames), d))
        f.value.push_back(static_cast<FlagTerm>(*i));
      if (star == std::string::npos) break;
      start = star + 1;
    }
  }
  f.literal = text_of(n, path, "literal", false, d);
  check_flag_name(n, path, "flag", f.flag, d);
  if (!f.yaml.empty() && !shell_plain(f.yaml))
    d.error(n.find("yaml")->where,
            loader::join_path(path, "yaml") +
                ": expected a config key of [A-Za-z0-9_./:@=+-] (it is written as it is)");
  if (!f.yaml.empty() && has_control(f.literal))
    d.error(n.find("literal")->where, loader::join_path(path, "literal") +
                                          ": expected one line of printable text (it is written into the "
                                          "config file as it is)");
  if (!f.value.empty() && !f.literal.empty())
    d.error(n.find("literal")->where, path + ": expected `value:` or `literal:`, not both");
  if (const YNode* w = n.find("when")) {
    if (!w->is_sequence()) {
      d.error(w->where, loader::join_path(path, "when") + ": expected a list of conditions, found " +
                            loader::describe(*w));
    } else {
      for (const YNode& c : w->items) {
        if (c.is_scalar() && c.value.find('=') != std::string::npos) {
          if (auto fc = format_condition(c, loader::join_path(path, "when"), d)) f.formats.push_back(*fc);
        } else if (auto i = pick(c, loader::join_path(path, "when"), names_of(kConditionNames), d)) {
          f.when.push_back(static_cast<FlagCondition>(*i));
        }
      }
    }
  }
  f.default_text = text_of(n, path, "default", true, d);
  f.source = text_of(n, path, "source", true, d);
  if (!f.source.empty() && f.source.rfind("https://", 0) != 0)
    d.error(n.find("source")->where, path + ".source: expected the documentation page's https:// URL");
}

std::vector<std::int8_t> levels_of(const YNode& map, const std::string& path, const char* key, Diags& d) {
  std::vector<std::int8_t> out;
  const YNode* n = map.find(key);
  if (!n) return out;
  if (!n->is_sequence()) {
    d.error(n->where, loader::join_path(path, key) + ": expected a list of placement levels, found " +
                          loader::describe(*n));
    return out;
  }
  for (const YNode& i : n->items)
    if (auto v = loader::read_int(i, loader::join_path(path, key), d, 0))
      out.push_back(static_cast<std::int8_t>(*v));
  return out;
}

// The keys of a version entry (data/frameworks.yaml).
const std::vector<std::string>& version_keys() {
  static const std::vector<std::string> keys = {"version",
                                                "released",
                                                "docs",
                                                "pp",
                                                "dp",
                                                "cp",
                                                "ep",
                                                "attention_dp",
                                                "attention_dp_tp1",
                                                "kv_split",
                                                "tp_placement",
                                                "cp_placement",
                                                "cp_ring_variant",
                                                "mixing",
                                                "disaggregated",
                                                "disaggregated_pp",
                                                "finite_token_budget",
                                                "max_batch",
                                                "preemption",
                                                "flags",
                                                "kv_cache",
                                                "scheduler",
                                                "prefix_caching",
                                                "kv_offload",
                                                "speculative",
                                                "moe_a2a"};
  return keys;
}

void read_version(const YNode& n, const std::string& path, ServingStackVersion& v, Diags& d) {
  if (!loader::expect_mapping(n, path, d)) return;
  loader::check_keys(n, path, version_keys(), d);
  v.where = n.where;
  v.version = text_of(n, path, "version", true, d);
  v.released = text_of(n, path, "released", true, d);
  v.docs = text_of(n, path, "docs", true, d);
  v.pp = bool_of(n, path, "pp", d);
  v.dp = bool_of(n, path, "dp", d);
  v.cp = bool_of(n, path, "cp", d);
  v.kv_split = bool_of(n, path, "kv_split", d);
  if (const YNode* a = n.find("attention_dp_tp1"))
    v.attention_dp_tp1 = loader::read_bool(*a, path + ".attention_dp_tp1", d).value_or(false);
  v.disaggregated = bool_of(n, path, "disaggregated", d);
  if (const YNode* a = n.find("disaggregated_pp"))
    v.disaggregated_pp = loader::read_bool(*a, path + ".disaggregated_pp", d).value_or(true);
  v.finite_token_budget = bool_of(n, path, "finite_token_budget", d);
  if (const YNode* e = loader::member(n, path, "ep", true, "none, tp_dp or ffn_group", d))
    if (auto i = pick(*e, path + ".ep", {"none", "tp_dp", "ffn_group"}, d)) v.ep = static_cast<EpRule>(*i);
  if (const YNode* a = loader::member(n, path, "attention_dp", true, "none, moe or switch", d))
    if (auto i = pick(*a, path + ".attention_dp", {"none", "moe", "switch"}, d))
      v.attention_dp = static_cast<AttentionDpRule>(*i);
  if (const YNode* p = n.find("preemption"))
    if (auto t = loader::read_choice(*p, path + ".preemption", {"recompute", "swap", "no_evict"}, d))
      v.preemption = *t == "swap"       ? requests::Preemption::swap
                     : *t == "no_evict" ? requests::Preemption::no_evict
                                        : requests::Preemption::recompute;
  if (const YNode* m = loader::member(n, path, "mixing", true, "mixed or alternating", d))
    if (auto t = loader::read_choice(*m, path + ".mixing", {"mixed", "alternating"}, d)) v.mixing = *t;
  if (const YNode* b = n.find("max_batch"))
    v.max_batch = loader::read_int(*b, path + ".max_batch", d, 0).value_or(0);
  if (n.find("tp_placement")) v.tp_placement = levels_of(n, path, "tp_placement", d);
  v.cp_placement = levels_of(n, path, "cp_placement", d);
  if (const YNode* r = n.find("cp_ring_variant")) {
    v.cp_ring_variant.clear();
    if (r->is_sequence())
      for (const YNode& i : r->items)
        if (auto k = pick(i, path + ".cp_ring_variant", {"kv", "qoml", "tree"}, d))
          v.cp_ring_variant.push_back(static_cast<CpRingVariant>(*k));
  }
  if (v.cp && v.cp_placement.empty()) v.cp_placement = {1, 0};
  if (const YNode* kv = n.find("kv_cache")) read_kv_cache(*kv, path + ".kv_cache", v.kv_cache, d);
  read_scheduler(n, path, v, d);
  read_prefix_cache(n, path, v, d);
  read_speculative(n, path, v, d);
  stacks_yaml::read_moe_a2a(n, path, v, d);
  const YNode* flags = loader::member(n, path, "flags", true, "a list of flags", d);
  if (flags && !flags->is_sequence()) {
    d.error(flags->where, path + ".flags: expected a list of flags, found " + loader::describe(*flags));
  } else if (flags) {
    for (std::size_t i = 0; i < flags->items.size(); ++i) {
      ServingStackFlag f;
      read_flag(flags->items[i], path + ".flags[" + std::to_string(i) + "]", f, d);
      v.flags.push_back(std::move(f));
    }
  }
}

// "0.19.0" -> {0, 19, 0}; "1.0" -> {1, 0}; the leading numeric fields only ("0.4.3+rocm614" ->
// {0, 4, 3}); empty when the text does not start with a number.
std::vector<long> version_fields(const std::string& text) {
  std::vector<long> out;
  std::size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    long n = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && n < 100000)
      n = n * 10 + (text[i++] - '0');
    out.push_back(n);
    if (i < text.size() && text[i] == '.')
      ++i;
    else
      break;
  }
  return out;
}

}  // namespace

const ServingStackVersion& nearest_version(const ServingStackProfile& profile, const std::string& version) {
  if (profile.versions.empty())
    throw Error("nearest_version: framework '" + profile.name + "' lists no version");
  const std::vector<long> want = version_fields(version);
  if (want.empty()) return profile.versions.front();  // newest first: the default
  // The listed versions just below and just above `want` (as tuples of numbers); of the two the
  // one sharing more leading fields, then the nearer in the first differing field, then the newer.
  const ServingStackVersion* below = nullptr;
  const ServingStackVersion* above = nullptr;
  for (const ServingStackVersion& v : profile.versions) {
    const std::vector<long> have = version_fields(v.version);
    if (have <= want && (!below || version_fields(below->version) < have)) below = &v;
    if (have >= want && (!above || have < version_fields(above->version))) above = &v;
  }
  if (!below) return above ? *above : profile.versions.front();
  if (!above) return *below;
  auto closeness = [&](const ServingStackVersion& v) {
    const std::vector<long> have = version_fields(v.version);
    std::size_t k = 0;
    while (k < want.size() && k < have.size() && want[k] == have[k]) ++k;
    const long gap = k < want.size() && k < have.size() ? std::labs(want[k] - have[k]) : 0;
    return std::make_pair(-static_cast<long>(k), gap);
  };
  return closeness(*below) < closeness(*above) ? *below : *above;
}

const char* flag_term_name(FlagTerm t) { return kTermNames[static_cast<std::size_t>(t)]; }
const char* flag_condition_name(FlagCondition c) { return kConditionNames[static_cast<std::size_t>(c)]; }
const char* ep_rule_name(EpRule r) {
  constexpr const char* k[] = {"none", "tp_dp", "ffn_group"};
  return k[static_cast<std::size_t>(r)];
}
const char* attention_dp_rule_name(AttentionDpRule r) {
  constexpr const char* k[] = {"none", "moe", "switch"};
  return k[static_cast<std::size_t>(r)];
}

std::string default_serving_stacks_path(const std::string& data_root) {
  return (std::filesystem::path(data_root) / "data" / "frameworks.yaml").string();
}

ServingStackCatalog load_serving_stack_catalog(const std::string& path) {
  Diags d;
  ServingStackCatalog c;
  c.file = path;
  auto root = loader::read_yaml_file(path, "", d);
  if (!root) throw InputErrors(d.take());
  if (!root->is_mapping()) {
    d.error(root->where, "expected a mapping with `schema_version: 1` and `kind: frameworks`");
    throw InputErrors(d.take());
  }
  loader::check_keys(*root, "", {"schema_version", "kind", "frameworks"}, d);
  const YNode* kind = loader::member(*root, "", "kind", true, "frameworks", d);
  if (kind && kind->value != "frameworks")
    d.error(kind->where, "kind: expected frameworks (a frameworks file, docs/frameworks.md), found " +
                             loader::describe(*kind));
  const YNode* sv = loader::member(*root, "", "schema_version", true, "1", d);
  if (sv && sv->value != "1")
    d.error(sv->where, "schema_version: expected 1, found " + loader::describe(*sv));
  const YNode* list = loader::member(*root, "", "frameworks", true, "a list of frameworks", d);
  if (list && !list->is_sequence())
    d.error(list->where, "frameworks: expected a list, found " + loader::describe(*list));
  if (list && list->is_sequence()) {
    for (std::size_t i = 0; i < list->items.size(); ++i) {
      const YNode& n = list->items[i];
      const std::string p = "frameworks[" + std::to_string(i) + "]";
      if (!loader::expect_mapping(n, p, d)) continue;
      loader::check_keys(n, p, {"name", "title", "command", "replicas", "config_flag", "versions"}, d);
      ServingStackProfile f;
      f.where = n.where;
      f.name = text_of(n, p, "name", true, d);
      f.title = text_of(n, p, "title", true, d);
      f.command = text_of(n, p, "command", true, d);
      f.config_flag = text_of(n, p, "config_flag", false, d);
      if (const YNode* r = loader::member(n, p, "replicas", true, "flag or instances", d))
        if (auto t = loader::read_choice(*r, p + ".replicas", {"flag", "instances"}, d))
          f.replicas_by_flag = *t == "flag";
      if (f.command.find("{model}") == std::string::npos && n.find("command"))
        d.error(n.find("command")->where, p + ".command: expected the placeholder {model}");
      {
        std::istringstream words(f.command);
        for (std::string w; words >> w;)
          if (w != "{model}" && !shell_plain(w)) {
            d.error(n.find("command")->where, p + ".command: the word '" + w +
                                                  "' is not plain for sh: expected words of "
                                                  "[A-Za-z0-9_./:@=+-] and {model} (the command is written "
                                                  "unquoted into launch scripts)");
            break;
          }
        if (has_control(f.command))
          d.error(n.find("command")->where, p + ".command: expected one line of printable text");
      }
      check_flag_name(n, p, "config_flag", f.config_flag, d);
      for (const auto& other : c.frameworks)
        if (other.name == f.name)
          d.error(n.where, p + ".name: the framework '" + f.name + "' is listed twice");
      const YNode* vs = loader::member(n, p, "versions", true, "a list of versions, newest first", d);
      if (vs && vs->is_sequence()) {
        for (std::size_t k = 0; k < vs->items.size(); ++k) {
          ServingStackVersion v;
          read_version(vs->items[k], p + ".versions[" + std::to_string(k) + "]", v, d);
          for (const auto& other : f.versions)
            if (other.version == v.version)
              d.error(vs->items[k].where, p + ": the version '" + v.version + "' is listed twice");
          for (const auto& flag : v.flags)
            if (!flag.yaml.empty() && f.config_flag.empty())
              d.error(flag.where, p + ": a `yaml:` flag needs the framework's `config_flag:`");
          f.versions.push_back(std::move(v));
        }
        if (vs->items.empty()) d.error(vs->where, p + ".versions: expected at least one version");
      } else if (vs) {
        d.error(vs->where, p + ".versions: expected a list, found " + loader::describe(*vs));
      }
      c.frameworks.push_back(std::move(f));
    }
  }
  if (!d.empty()) throw InputErrors(d.take());
  return c;
}

std::string serving_stack_names(const ServingStackCatalog& catalog) {
  std::string out;
  for (const auto& f : catalog.frameworks) out += (out.empty() ? "" : ", ") + f.name;
  return out;
}

ServingStackChoice resolve_serving_stack(const ServingStackCatalog& catalog, const std::string& text,
                                         const SourceLocation& where) {
  const std::size_t at = text.find('@');
  const std::string name = text.substr(0, at);
  const std::string version = at == std::string::npos ? "" : text.substr(at + 1);
  const ServingStackProfile* found = nullptr;
  std::vector<std::string> names;
  for (const auto& f : catalog.frameworks) {
    names.push_back(f.name);
    if (f.name == name) found = &f;
  }
  auto fail = [&](const std::string& message) { throw InputErrors({Diagnostic{where, message}}); };
  if (!found)
    fail("framework: unknown framework '" + name + "'" + did_you_mean(name, names) + "; the frameworks of " +
         catalog.file + " are " + serving_stack_names(catalog));
  ServingStackChoice c;
  c.set = true;
  c.where = where;
  c.catalog_file = catalog.file;
  c.profile = *found;
  c.profile.versions.clear();
  if (at == std::string::npos) {
    c.profile.versions.push_back(found->versions.front());
    return c;
  }
  std::vector<std::string> listed;
  for (const auto& v : found->versions) {
    listed.push_back(v.version);
    if (v.version == version) c.profile.versions.push_back(v);
  }
  if (c.profile.versions.empty()) {
    std::string all;
    for (const auto& v : listed) all += (all.empty() ? "" : ", ") + v;
    fail("framework: " + found->name + " has no version '" + version + "'" + did_you_mean(version, listed) +
         "; the listed versions are " + all + " (" + found->name + " alone means " + listed.front() + ")");
  }
  c.version_given = true;
  return c;
}

}  // namespace tessera
