// Launch flags of a configuration and back (scenario/serving_stacks/stack_launch.hpp).
#include "scenario/serving_stacks/stack_launch.hpp"

#include <array>
#include <cctype>
#include <sstream>

#include "scenario/serving_stacks/stack_precision.hpp"

namespace tessera {

bool flag_applies(const ServingStackFlag& flag, const DeployPoint& p, const ModelSpec& model,
                  const ServingStackProfile& f) {
  for (FlagCondition c : flag.when)
    if (!flag_condition_holds(c, p, model, f)) return false;
  for (const FormatCondition& c : flag.formats)
    if (!format_holds(c, p.dtypes)) return false;
  return true;
}

namespace {

// A literal with placeholders (data/frameworks.yaml): {TERM} is the term's value, {head} the
// scenario's EAGLE head (vLLM's --speculative-config JSON carries both).
std::string fill_literal(const std::string& literal, const DeployPoint& p, const ModelSpec& model) {
  if (literal.find('{') == std::string::npos) return literal;
  std::string out = literal;
  const auto put = [&out](const std::string& key, const std::string& value) {
    for (std::size_t at = out.find(key); at != std::string::npos; at = out.find(key, at + value.size()))
      out.replace(at, key.size(), value);
  };
  for (std::size_t t = 0; t < kFlagTerms; ++t) {
    const auto term = static_cast<FlagTerm>(t);
    put("{" + std::string(flag_term_name(term)) + "}", std::to_string(flag_term_value(term, p, model)));
  }
  put("{head}", p.spec_head);
  return out;
}

// The length of a placeholder `{name}` (name of [a-z_]) at `at` in `literal`, else 0 (a JSON brace).
std::size_t placeholder_at(const std::string& literal, std::size_t at) {
  if (literal[at] != '{') return 0;
  std::size_t i = at + 1;
  while (i < literal.size() && (std::islower(static_cast<unsigned char>(literal[i])) || literal[i] == '_'))
    ++i;
  return i > at + 1 && i < literal.size() && literal[i] == '}' ? i + 1 - at : 0;
}

// Whether a parsed value is what `literal` writes, each placeholder standing for one or more
// characters (matched shortest first, backtracking).
bool literal_matches(const std::string& literal, std::size_t li, const std::string& value, std::size_t vi) {
  while (li < literal.size()) {
    if (const std::size_t n = placeholder_at(literal, li); n > 0) {
      for (std::size_t end = vi + 1; end <= value.size(); ++end)
        if (literal_matches(literal, li + n, value, end)) return true;
      return false;
    }
    if (vi >= value.size() || value[vi] != literal[li]) return false;
    ++li;
    ++vi;
  }
  return vi == value.size();
}

bool literal_matches(const std::string& literal, const std::string& value) {
  return literal_matches(literal, 0, value, 0);
}

// Whether `value` (of a flag named as `flag`) is what `flag` writes: any value, or its literal.
bool written_by(const ServingStackFlag& flag, const std::string& value) {
  return flag.literal.empty() || literal_matches(flag.literal, value);
}

// Conditions a parsed script decides without numbers: attention-DP and the pool's role.
bool boolean_condition(FlagCondition c) {
  return c == FlagCondition::attention_dp || c == FlagCondition::no_attention_dp ||
         c == FlagCondition::prefill || c == FlagCondition::decode || c == FlagCondition::disaggregated ||
         c == FlagCondition::aggregated;
}

std::vector<std::string> shell_words(const std::string& text, std::int64_t& instances, std::int64_t& dp) {
  std::vector<std::string> words;
  std::istringstream in(text);
  std::string line, joined;
  while (std::getline(in, line)) {
    if (line.rfind("# instances:", 0) == 0) instances = std::stoll(line.substr(12));
    if (line.rfind("# dp replicas as instances:", 0) == 0) dp = std::stoll(line.substr(27));
    if (line.empty() || line[0] == '#') continue;
    if (!line.empty() && line.back() == '\\') line.pop_back();
    joined += line + ' ';
  }
  std::string word;
  bool quoted = false, any = false, escaped = false;
  for (char ch : joined) {
    if (escaped) {  // \x outside quotes: x itself (--deploy writes a quote inside a value as '\'')
      word += ch;
      any = true;
      escaped = false;
    } else if (!quoted && ch == '\\') {
      escaped = true;
    } else if (ch == '\'') {
      quoted = !quoted;
      any = true;
    } else if (!quoted && (ch == ' ' || ch == '\t')) {
      if (any) words.push_back(word);
      word.clear();
      any = false;
    } else {
      word += ch;
      any = true;
    }
  }
  if (any) words.push_back(word);
  return words;
}

std::size_t word_count(const std::string& text) {
  std::istringstream in(text);
  std::size_t n = 0;
  for (std::string w; in >> w;) ++n;
  return n;
}

// The config file's `key: value` lines; an indented line under a `parent:` line as `parent.key`.
std::vector<std::pair<std::string, std::string>> yaml_entries(const std::string& yaml) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream ys(yaml);
  std::string line, parent;  // parent: the mapping key an indented line belongs to
  while (std::getline(ys, line)) {
    const std::size_t colon = line.find(':');
    if (line.empty() || line[0] == '#' || colon == std::string::npos) continue;
    std::string key = line.substr(0, colon), value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.erase(value.begin());
    if (key.front() == ' ') {  // a child: `parent.child`
      key.erase(0, key.find_first_not_of(' '));
      key = parent + "." + key;
    } else if (value.empty()) {
      parent = key;
      continue;
    }
    out.emplace_back(std::move(key), std::move(value));
  }
  return out;
}

}  // namespace

std::vector<LaunchFlag> launch_flags(const ServingStackProfile& f, const ModelSpec& model,
                                     const DeployPoint& p) {
  std::vector<LaunchFlag> out;
  for (const ServingStackFlag& flag : f.versions.front().flags) {
    if (!flag_applies(flag, p, model, f)) continue;
    LaunchFlag lf{&flag, fill_literal(flag.literal, p, model)};
    if (!flag.value.empty()) {
      std::int64_t v = 1;
      for (FlagTerm t : flag.value) v *= flag_term_value(t, p, model);
      lf.value = std::to_string(v);
    }
    out.push_back(std::move(lf));
  }
  return out;
}

ParsedLaunch parse_launch(const ServingStackProfile& f, const std::string& script, const std::string& yaml) {
  ParsedLaunch r;
  std::int64_t dp_instances = 0;
  std::vector<std::string> words = shell_words(script, r.instances, dp_instances);
  const std::size_t skip = word_count(f.command);  // the command's own words
  const ServingStackVersion& v = f.versions.front();
  auto listed = [&](const std::string& name) -> const ServingStackFlag* {
    for (const ServingStackFlag& flag : v.flags)
      if (flag.name() == name) return &flag;
    return nullptr;
  };
  std::vector<std::pair<std::string, std::string>> present;
  for (std::size_t i = skip; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (!f.config_flag.empty() && w == f.config_flag) {
      ++i;
      continue;
    }
    const ServingStackFlag* flag = listed(w);
    if (!flag) {
      r.unknown.push_back(w);
      continue;
    }
    if (flag->is_switch() || i + 1 >= words.size()) {
      present.emplace_back(w, "");
    } else {
      present.emplace_back(w, words[i + 1]);
      ++i;
    }
  }
  for (auto& [key, value] : yaml_entries(yaml)) {
    if (!listed(key)) r.unknown.push_back(key);
    present.emplace_back(key, value == "true" ? "" : value);
  }
  auto find = [&](const ServingStackFlag& flag) -> const std::string* {
    for (const auto& [name, value] : present)
      if (name == flag.name() && written_by(flag, value)) return &value;
    return nullptr;
  };
  // Booleans first: attention-DP and the pool's role.
  using Role = DeployPoint::Role;
  for (const ServingStackFlag& flag : v.flags) {
    if (!find(flag)) continue;
    for (const FormatCondition& fc : flag.formats) set_format(fc, r.point.dtypes);  // the precision served
    for (FlagCondition c : flag.when) {
      if (c == FlagCondition::attention_dp && flag.value.empty()) r.attention_dp = true;
      if (c == FlagCondition::prefill && !flag.literal.empty()) r.point.role = Role::prefill;
      if (c == FlagCondition::decode && !flag.literal.empty()) r.point.role = Role::decode;
    }
  }
  DeployPoint probe;
  probe.role = r.point.role;
  probe.config.dp = r.attention_dp ? 2 : 1;
  probe.config.ffn_shard_scope = r.attention_dp ? FfnShardScope::tp_cp_dp : FfnShardScope::tp;
  struct Equation {
    const ServingStackFlag* flag;
    std::int64_t value;
  };
  std::vector<Equation> eqs;
  bool expert_switch = false;
  ModelSpec none;
  for (const ServingStackFlag& flag : v.flags) {
    const std::string* value = find(flag);
    if (!value) continue;
    bool ok = true;
    for (FlagCondition c : flag.when)
      if (boolean_condition(c) && !flag_condition_holds(c, probe, none, f)) ok = false;
    if (!ok) continue;
    if (flag.is_switch())
      for (FlagCondition c : flag.when)
        if (c == FlagCondition::ep_gt1) expert_switch = true;
    if (!flag.value.empty()) eqs.push_back({&flag, std::stoll(*value)});
  }
  std::array<std::int64_t, kFlagTerms> known;
  known.fill(-1);
  for (bool progress = true; progress;) {
    progress = false;
    for (const Equation& e : eqs) {
      std::int64_t product = 1;
      int unknown = -1, unknowns = 0;
      for (FlagTerm t : e.flag->value) {
        const auto i = static_cast<std::size_t>(t);
        if (known[i] < 0) {
          unknown = static_cast<int>(i);
          ++unknowns;
        } else {
          product *= known[i];
        }
      }
      if (unknowns == 1 && product > 0) {
        known[static_cast<std::size_t>(unknown)] = e.value / product;
        progress = true;
      }
    }
  }
  auto get = [&](FlagTerm t, std::int64_t fallback) {
    const std::int64_t k = known[static_cast<std::size_t>(t)];
    return k < 0 ? fallback : k;
  };
  ParallelConfig& c = r.point.config;
  c.tp = static_cast<std::int32_t>(get(FlagTerm::tp, 1));
  c.pp = static_cast<std::int32_t>(get(FlagTerm::pp, 1));
  c.dp = static_cast<std::int32_t>(get(FlagTerm::dp, dp_instances > 0 ? dp_instances : 1));
  c.cp = static_cast<std::int32_t>(get(FlagTerm::cp, 1));
  c.ep = static_cast<std::int32_t>(get(FlagTerm::ep, expert_switch ? std::int64_t{c.tp} * c.dp * c.cp : 1));
  c.ffn_shard_scope = r.attention_dp ? FfnShardScope::tp_cp_dp : FfnShardScope::tp;
  r.dcp = get(FlagTerm::dcp, 1);
  c.kv_shard_mode = r.dcp > 1 ? KvShardMode::split : KvShardMode::replicate;
  r.point.batch = get(FlagTerm::batch, 0);
  r.point.token_budget = get(FlagTerm::token_budget, 0);
  return r;
}

}  // namespace tessera
