// Reading the alias table (analysis/measurements/alias_table.hpp).
#include "analysis/measurements/alias_table.hpp"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <filesystem>

#include "analysis/measurements/text_scan.hpp"
#include "core/text/input_text.hpp"
#include "tessera/error.hpp"

namespace tessera::accuracy {

namespace fs = std::filesystem;

namespace {

// The roles a `precisions:` rule may give a format, as the model file's `dtype:` block names them.
constexpr const char* kPrecisionRoleList =
    "(weights, kv, activations, lm_head_weights, expert_weights, attention_weights, ffn_weights)";

bool set_precision_role(DTypes& d, const std::string& role, DType t) {
  if (role == "weights") {
    d.weights = t;
  } else if (role == "kv") {
    d.kv = t;
  } else if (role == "activations") {
    d.activations = t;
  } else {
    std::optional<DType>* part = role == "lm_head_weights"     ? &d.lm_head_weights
                                 : role == "expert_weights"    ? &d.expert_weights
                                 : role == "attention_weights" ? &d.attention_weights
                                 : role == "ffn_weights"       ? &d.ffn_weights
                                                               : nullptr;
    if (part == nullptr) return false;
    *part = t;
  }
  return true;
}

}  // namespace

std::string default_aliases_path(const std::string& data_root) {
  return (fs::path(data_root) / "data" / "aliases.yaml").string();
}

Aliases load_aliases(const std::string& path) {
  Aliases a;
  a.file = path;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw InputError(path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                     ": error: " + e.msg);
  }
  auto where = [&](const YAML::Node& n) {
    return path + ":" + std::to_string(n.Mark().line + 1) + ":" + std::to_string(n.Mark().column + 1);
  };
  if (!root.IsMap() || !root["kind"] || root["kind"].as<std::string>() != "aliases")
    throw InputError(path + ": error: expected `kind: aliases` (an alias table, see docs/accuracy.md)");
  auto read = [&](const char* section, const char* match_key, const char* target_key,
                  std::vector<AliasRule>& out) {
    const YAML::Node list = root[section];
    if (!list) return;
    if (!list.IsSequence())
      throw InputError(where(list) + ": error: `" + std::string(section) + "` must be a list");
    for (const YAML::Node& item : list) {
      if (!item.IsMap() || !item[match_key])
        throw InputError(where(item) + ": error: each `" + section + "` entry needs `" + match_key + ":`");
      AliasRule r;
      r.line = item.Mark().line + 1;
      r.match = item[match_key].as<std::string>();
      if (r.match.empty()) throw InputError(where(item) + ": error: `" + match_key + ":` must not be empty");
      if (item["locator"]) r.locator = item["locator"].as<std::string>();
      if (item["version"]) r.version = item["version"].as<std::string>();
      if (item["layer"]) {
        const std::string l = item["layer"].as<std::string>();
        if (l == "runtime") {
          r.layer = AliasRule::runtime;
        } else if (l == "engine") {
          r.layer = AliasRule::engine;
        } else if (l == "service") {
          r.layer = AliasRule::service;
        } else {
          throw InputError(where(item["layer"]) + ": error: `layer: " + l +
                           "` is not a layer (expected service, engine or runtime)");
        }
      }
      if (item["unmapped"]) {
        r.unmapped = item["unmapped"].as<std::string>();
      } else if (item[target_key]) {
        r.target = item[target_key].as<std::string>();
      } else {
        throw InputError(where(item) + ": error: `" + section + "` entry '" + r.match + "' needs `" +
                         target_key + ":` or `unmapped:`");
      }
      out.push_back(std::move(r));
    }
  };
  // precisions: {match, model?, locator?, dtype: {weights, kv, activations, lm_head_weights?,
  // expert_weights?, attention_weights?, ffn_weights?}, source}
  auto read_precisions = [&]() {
    const YAML::Node list = root["precisions"];
    if (!list) return;
    if (!list.IsSequence()) throw InputError(where(list) + ": error: `precisions` must be a list");
    for (const YAML::Node& item : list) {
      if (!item.IsMap() || !item["match"] || !item["dtype"] || !item["source"])
        throw InputError(where(item) +
                         ": error: each `precisions` entry needs `match:`, `dtype:` and `source:`");
      PrecisionRule r;
      r.line = item.Mark().line + 1;
      r.match = item["match"].as<std::string>();
      if (item["model"]) r.model = item["model"].as<std::string>();
      if (item["locator"]) r.locator = item["locator"].as<std::string>();
      r.source = item["source"].as<std::string>();
      if (r.source.empty()) throw InputError(where(item) + ": error: `source:` must not be empty");
      // An empty match (a blank precision column) must be pinned to a source by its locator.
      if (r.match.empty() && r.locator.empty())
        throw InputError(where(item) + ": error: `match:` may be empty only with a `locator:`");
      const YAML::Node d = item["dtype"];
      if (!d.IsMap()) throw InputError(where(d) + ": error: `dtype:` must be a map of " + kPrecisionRoleList);
      for (const auto& kv : d) {
        const std::string role = kv.first.as<std::string>();
        const std::string name = kv.second.as<std::string>();
        const auto t = dtype_from_name(name);
        if (!t) throw InputError(where(kv.second) + ": error: `" + name + "` is not a number format");
        if (!set_precision_role(r.dtype, role, *t))
          throw InputError(where(kv.first) + ": error: `" + role + "` is not a role " + kPrecisionRoleList);
      }
      for (const char* role : {"weights", "kv", "activations"})
        if (!d[role]) throw InputError(where(d) + ": error: `dtype:` needs `" + std::string(role) + ":`");
      a.precisions.push_back(std::move(r));
    }
  };
  // datasets: {match, input_mean, output_mean, source}
  auto read_datasets = [&]() {
    const YAML::Node list = root["datasets"];
    if (!list) return;
    if (!list.IsSequence()) throw InputError(where(list) + ": error: `datasets` must be a list");
    for (const YAML::Node& item : list) {
      if (!item.IsMap() || !item["match"] || !item["input_mean"] || !item["output_mean"] || !item["source"])
        throw InputError(
            where(item) +
            ": error: each `datasets` entry needs `match:`, `input_mean:`, `output_mean:` and `source:`");
      DatasetRule r;
      r.line = item.Mark().line + 1;
      r.match = item["match"].as<std::string>();
      r.source = item["source"].as<std::string>();
      if (item["model"]) r.model = item["model"].as<std::string>();
      if (item["locator"]) r.locator = item["locator"].as<std::string>();
      if (r.match.empty() || r.source.empty())
        throw InputError(where(item) + ": error: `match:` and `source:` must not be empty");
      for (const char* key : {"input_mean", "output_mean"}) {
        const YAML::Node n = item[key];
        long long v = 0;
        try {
          v = n.as<long long>();
        } catch (const YAML::Exception&) {
          v = 0;
        }
        if (v < 1 || v > (1LL << 30))
          throw InputError(where(n) + ": error: `" + key + ":` must be a whole number of tokens, 1 to 2^30");
        (std::string(key) == "input_mean" ? r.input_mean : r.output_mean) = v;
      }
      a.datasets.push_back(std::move(r));
    }
  };
  try {
    read_datasets();
    read("models", "match", "model", a.models);
    read("hardware", "match", "machine", a.hardware);
    read("frameworks", "software", "framework", a.frameworks);
    read_precisions();
  } catch (const YAML::Exception& e) {
    throw InputError(path + ": error: " + e.msg);
  }
  return a;
}

namespace {

std::size_t specificity(const AliasRule& r) { return r.match.size() + r.locator.size(); }

// Lower case, with every run of blanks, `-` and `_` one `-`.
std::string folded(const std::string& s) {
  std::string out;
  for (const char c : lower(s)) {
    const bool sep = c == ' ' || c == '-' || c == '_' || c == '\t';
    if (!sep) {
      out += c;
    } else if (out.empty() || out.back() != '-') {
      out += '-';
    }
  }
  return out;
}

// `needle` (already lower case or folded) in `hay`; a needle of under 4 characters only as a
// word of its own ("NIM" in "NVIDIA NIM 1.2", not in "minimum"; "H20" in "H20 (8 GPUs)").
bool occurs(const std::string& hay, const std::string& needle) {
  if (needle.size() >= 4) return hay.find(needle) != std::string::npos;
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (std::size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) {
    const bool before = at > 0 && word(hay[at - 1]) && word(needle.front());
    const std::size_t end = at + needle.size();
    const bool after = end < hay.size() && word(hay[end]) && word(needle.back());
    if (!before && !after) return true;
  }
  return false;
}

}  // namespace

const AliasRule* select_rule(const std::vector<AliasRule>& rules, const std::string& value,
                             const std::string& locator, bool fold_separators) {
  const AliasRule* best = nullptr;
  const std::string v = fold_separators ? folded(value) : lower(value);
  for (const AliasRule& r : rules) {
    const bool hit = occurs(v, fold_separators ? folded(r.match) : lower(r.match));
    if (!hit || !contains_ci(locator, r.locator)) continue;
    if (!best || r.layer > best->layer || (r.layer == best->layer && specificity(r) > specificity(*best)))
      best = &r;
  }
  return best;
}

std::vector<ShadowedRule> shadowed_rules(const std::vector<AliasRule>& rules, bool fold_separators) {
  std::vector<ShadowedRule> out;
  for (const AliasRule& r : rules) {
    // The rule's own text is the value it is most sure to match; if even that goes elsewhere,
    // so does every value (a rule taking it matches every superstring of it as well, and is
    // at least as specific there, or of an outer layer).
    const AliasRule* got = select_rule(rules, r.match, r.locator, fold_separators);
    if (got != &r) out.push_back({&r, got});
  }
  return out;
}

std::string framework_version(const std::string& software, const AliasRule& rule) {
  const std::string low = lower(software);
  const std::size_t at = low.find(lower(rule.match));
  if (at == std::string::npos) return "";
  std::size_t i = at + rule.match.size();
  while (i < software.size() && (software[i] == ' ' || software[i] == '@')) ++i;
  if (low.compare(i, 4, "main") == 0 &&
      (i + 4 == low.size() || !std::isalnum(static_cast<unsigned char>(low[i + 4]))))
    return "main";
  if (i < low.size() && low[i] == 'v') ++i;
  const std::size_t start = i;
  while (i < software.size() && (std::isdigit(static_cast<unsigned char>(software[i])) ||
                                 (software[i] == '.' && i + 1 < software.size() &&
                                  std::isalnum(static_cast<unsigned char>(software[i + 1]))) ||
                                 (i > start && std::isalpha(static_cast<unsigned char>(software[i])))))
    ++i;
  if (i == start || !std::isdigit(static_cast<unsigned char>(software[start]))) return "";
  return software.substr(start, i - start);
}

namespace {

// Of the rules whose match occurs in `text` and whose model and locator occur in the row's model
// (folded) and source_locator, the longest match + model + locator; the earlier when equally long.
template <class Rule>
const Rule* most_specific(const std::vector<Rule>& rules, const std::string& text, const std::string& model,
                          const std::string& locator) {
  const std::string t = lower(text), m = folded(model), l = lower(locator);
  const Rule* best = nullptr;
  std::size_t best_len = 0;
  for (const Rule& r : rules) {
    if (t.find(lower(r.match)) == std::string::npos) continue;
    if (!r.model.empty() && m.find(folded(r.model)) == std::string::npos) continue;
    if (!r.locator.empty() && l.find(lower(r.locator)) == std::string::npos) continue;
    const std::size_t len = r.match.size() + r.model.size() + r.locator.size();
    if (!best || len > best_len) {
      best = &r;
      best_len = len;
    }
  }
  return best;
}

}  // namespace

const PrecisionRule* select_precision(const std::vector<PrecisionRule>& rules, const std::string& precision,
                                      const std::string& model, const std::string& locator) {
  return most_specific(rules, precision, model, locator);
}

const DatasetRule* select_dataset(const std::vector<DatasetRule>& rules, const std::string& notes,
                                  const std::string& model, const std::string& locator) {
  return most_specific(rules, notes, model, locator);
}

}  // namespace tessera::accuracy
