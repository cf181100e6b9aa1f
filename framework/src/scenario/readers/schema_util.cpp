#include "scenario/readers/schema_util.hpp"

#include <charconv>
#include <cmath>

#include "core/text/nearest_name.hpp"
#include "core/text/safe_text.hpp"
#include "core/text/yaml_bool.hpp"
#include "tessera/limits.hpp"

namespace tessera::loader {

std::string join_names(const std::vector<std::string>& names, const char* last_sep) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) s += (i + 1 == names.size()) ? last_sep : ", ";
    s += names[i];
  }
  return s;
}

std::string did_you_mean_path(const std::string& name, const std::vector<std::string>& candidates,
                              const std::string& prefix, const std::string& suffix) {
  const auto near = nearest_names(name, candidates);
  if (near.empty()) return "";
  std::vector<std::string> full;
  for (const auto& n : near) full.push_back("'" + join_path(prefix, n) + suffix + "'");
  return " (did you mean " + join_names(full) + "?)";
}

bool expect_mapping(const YNode& n, const std::string& path, Diags& d) {
  if (n.is_mapping()) return true;
  d.error(n.where, (path.empty() ? std::string("the file") : path) + ": expected a mapping of keys, found " +
                       describe(n));
  return false;
}

void check_keys(const YNode& n, const std::string& path, const std::vector<std::string>& allowed, Diags& d) {
  if (!n.is_mapping()) return;
  for (const auto& e : n.entries) {
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == e.key;
    if (ok) continue;
    if (d.full()) {  // only counted: no suggestion computed, no message worded
      d.error(e.key_where, {});
      continue;
    }
    d.error(e.key_where, "unknown key '" + join_path(path, excerpt(e.key)) + "'" +
                             did_you_mean(e.key, allowed) + "; " +
                             (path.empty() ? std::string("the top level") : path) + " takes " +
                             join_names(allowed, " and "));
  }
}

void report_missing(const YNode& map, const std::string& path, const std::string& key,
                    const std::string& what, Diags& d) {
  d.error(map.where, (path.empty() ? std::string("the file") : path) + ": missing required key '" + key +
                         "' (" + what + ")");
}

const YNode* member(const YNode& map, const std::string& path, const std::string& key, bool required,
                    const std::string& what, Diags& d) {
  if (!map.is_mapping()) return nullptr;
  const YNode* n = map.find(key);
  if (!n && required) report_missing(map, path, key, what, d);
  return n;
}

namespace {

bool scalar_or_report(const YNode& n, const std::string& path, const std::string& expected, Diags& d) {
  if (n.is_scalar()) return true;
  d.error(n.where, path + ": expected " + expected + ", found " + describe(n));
  return false;
}

std::optional<std::int64_t> to_int(const std::string& s) {
  std::int64_t v = 0;
  const char* b = s.data();
  const char* e = s.data() + s.size();
  if (b != e && *b == '+') ++b;
  const auto [ptr, ec] = std::from_chars(b, e, v);
  if (ec != std::errc() || ptr != e || b == e) return std::nullopt;
  return v;
}

}  // namespace

std::optional<std::int64_t> read_int(const YNode& n, const std::string& path, Diags& d, std::int64_t min,
                                     const char* limit) {
  const std::string what = min >= 1   ? "a positive integer"
                           : min == 0 ? "a non-negative integer"
                                      : "an integer";
  if (!scalar_or_report(n, path, what, d)) return std::nullopt;
  const auto v = to_int(n.value);
  if (!v) {
    d.error(n.where, path + ": expected " + what + ", found " + describe(n));
    return std::nullopt;
  }
  if (*v < min) {
    d.error(n.where, path + ": expected " + what + ", found " + excerpt(n.value));
    return std::nullopt;
  }
  if (limit != nullptr && *v > 0 && static_cast<std::uint64_t>(*v) > limit_value(limit)) {
    d.error(n.where, path + ": " + excerpt(n.value) + " " + limit_exceeded(limit));
    return std::nullopt;
  }
  return v;
}

std::optional<double> read_real(const YNode& n, const std::string& path, Diags& d) {
  if (!scalar_or_report(n, path, "a number", d)) return std::nullopt;
  try {
    return parse_quantity(n.value, Dimension::none);
  } catch (const InputError& e) {
    d.error(n.where, path + ": " + e.what());
    return std::nullopt;
  }
}

std::optional<double> read_quantity(const YNode& n, const std::string& path, Dimension dim, Diags& d,
                                    bool allow_zero) {
  const std::string expected =
      std::string("a ") + dimension_name(dim) + " with a unit (e.g. " + unit_examples(dim) + ")";
  if (!scalar_or_report(n, path, expected, d)) return std::nullopt;
  double v = 0;
  try {
    v = parse_quantity(n.value, dim);
  } catch (const InputError& e) {
    d.error(n.where, path + ": " + e.what());
    return std::nullopt;
  }
  if (v < 0 || (!allow_zero && v == 0)) {
    d.error(n.where, path + ": expected a " + std::string(allow_zero ? "non-negative " : "positive ") +
                         dimension_name(dim) + ", found \"" + excerpt(n.value) + "\"" +
                         (v == 0 ? " (a size cannot be zero)" : " (a size cannot be negative)"));
    return std::nullopt;
  }
  return v;
}

std::optional<std::int64_t> read_tokens(const YNode& n, const std::string& path, Diags& d) {
  const std::string what = "a token count (e.g. 4096, 128K, 1M)";
  if (!scalar_or_report(n, path, what, d)) return std::nullopt;
  std::int64_t v = 0;
  try {
    v = parse_token_count(n.value);
  } catch (const InputError& e) {
    d.error(n.where, path + ": " + e.what());
    return std::nullopt;
  }
  if (v <= 0) {
    d.error(n.where, path + ": expected a positive token count, found " + excerpt(n.value));
    return std::nullopt;
  }
  if (static_cast<std::uint64_t>(v) > limit_value("workload.tokens")) {
    const std::string count = std::to_string(v);
    d.error(n.where, path + ": " + excerpt(n.value) + (count == n.value ? "" : " (" + count + " tokens)") +
                         " " + limit_exceeded("workload.tokens"));
    return std::nullopt;
  }
  // Beyond 2^31 tokens batch x context (and their products in the physics) would leave exact
  // int64 arithmetic, whatever the limit is raised to.
  constexpr std::int64_t kTokenCeiling = std::int64_t{1} << 31;
  if (v > kTokenCeiling) {
    d.error(n.where, path + ": " + excerpt(n.value) +
                         " is beyond 2^31 tokens, where batch x context stops being exact");
    return std::nullopt;
  }
  return v;
}

std::optional<bool> read_bool(const YNode& n, const std::string& path, Diags& d) {
  if (!scalar_or_report(n, path, "true or false", d)) return std::nullopt;
  // YAML 1.2: a quoted "true" is a string; yes/no/on/off are strings too (core/text/yaml_bool.hpp).
  if (n.plain)
    if (const auto b = parse_yaml_bool(n.value)) return *b;
  const std::string hint = yaml11_bool_hint(n.value);
  d.error(n.where,
          path + ": expected true or false, found " + describe(n) + (hint.empty() ? "" : " (" + hint + ")"));
  return std::nullopt;
}

std::optional<std::string> read_string(const YNode& n, const std::string& path, Diags& d) {
  if (!scalar_or_report(n, path, "a string", d)) return std::nullopt;
  if (n.value.empty()) {
    d.error(n.where, path + ": expected a non-empty string, found an empty one");
    return std::nullopt;
  }
  // Names, paths and choices are one line of text: a control character (ESC, CR, NUL, a
  // newline) would reach terminals, logs and launch scripts. `description` is free text: lines
  // and tabs allowed there.
  const std::size_t i = first_control_character(n.value, path == "description");
  if (i != std::string::npos) {
    d.error(n.where, path + ": expected one line of text without control characters, found " +
                         printable_text(n.value.substr(i, 1)) + " at character " + std::to_string(i + 1) +
                         " of \"" + printable_text(excerpt(n.value)) + "\"");
    return std::nullopt;
  }
  return n.value;
}

std::optional<DType> read_dtype(const YNode& n, const std::string& path, Diags& d) {
  const std::vector<std::string>& kNames = dtype_names();
  const std::string what = "a number format: " + join_names(kNames);
  if (!scalar_or_report(n, path, what, d)) return std::nullopt;
  if (auto t = dtype_from_name(n.value)) return t;
  d.error(n.where, path + ": expected " + what + ", found " + describe(n) + did_you_mean(n.value, kNames));
  return std::nullopt;
}

std::optional<std::string> read_choice(const YNode& n, const std::string& path,
                                       const std::vector<std::string>& choices, Diags& d) {
  const std::string what = (choices.size() > 2 ? "one of " : "") + join_names(choices);
  if (!scalar_or_report(n, path, what, d)) return std::nullopt;
  for (const auto& c : choices)
    if (c == n.value) return c;
  d.error(n.where, path + ": expected " + what + ", found " + describe(n) + did_you_mean(n.value, choices));
  return std::nullopt;
}

std::vector<const YNode*> items_of(const YNode& n) {
  std::vector<const YNode*> v;
  if (n.is_sequence())
    for (const auto& i : n.items) v.push_back(&i);
  else
    v.push_back(&n);
  return v;
}

bool list_too_long(const YNode& n, std::size_t size, const std::string& path, Diags& d) {
  if (size <= current_limits().list_values) return false;
  d.error(n.where, path + ": a list of " + std::to_string(size) + " values " + limit_exceeded("list.values"));
  return true;
}

bool looks_non_string(const YNode& n) {
  if (!n.is_scalar() || !n.plain) return false;
  const std::string& s = n.value;
  if (s == "true" || s == "false" || s == "True" || s == "False" || s == "TRUE" || s == "FALSE" ||
      s == "null" || s == "Null" || s == "NULL" || s == "~" || s.empty())
    return true;
  try {
    parse_quantity(s, Dimension::none);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

}  // namespace tessera::loader
