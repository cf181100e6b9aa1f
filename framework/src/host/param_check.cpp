// Values against a parameter schema: parsing, ranges, choices, defaults, unknown keys.
#include "host/param_check.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

#include "core/text/diagnostic_limit.hpp"
#include "core/text/input_text.hpp"
#include "core/text/nearest_name.hpp"
#include "core/text/yaml_bool.hpp"
#include "host/plugin_registry.hpp"
#include "tessera/error.hpp"
#include "tessera/units.hpp"

namespace tessera {
namespace {

std::optional<std::int64_t> parse_int(std::string_view s) {
  s = trim_view(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_real(std::string_view s) {
  s = trim_view(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> out;
  text = trim_view(text);
  if (!text.empty() && text.front() == '[' && text.back() == ']')
    text = trim_view(text.substr(1, text.size() - 2));
  if (text.empty()) return out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    out.emplace_back(trim_view(
        text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

bool in_range(const ParamSpec& spec, double v) { return v >= spec.min && v <= spec.max; }

std::string type_phrase(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamType::integer:
      return "an integer";
    case ParamType::real:
      return "a number";
    case ParamType::boolean:
      return "true or false";
    case ParamType::string:
      return "a single value";
    case ParamType::enumeration:
      return "one of " + param_choices_text(spec);
    case ParamType::quantity: {
      const std::string dim = dimension_name(spec.dimension);
      const bool vowel =
          !dim.empty() && std::string_view("aeiou").find(dim.front()) != std::string_view::npos;
      return std::string(vowel ? "an " : "a ") + dim;
    }
    case ParamType::real_list:
      return "a list of numbers";
  }
  return "a value";
}

std::string range_phrase(const ParamSpec& spec) {
  const bool lo = std::isfinite(spec.min), hi = std::isfinite(spec.max);
  if (lo && hi)
    return " in [" + format_param_number(spec, spec.min) + ", " + format_param_number(spec, spec.max) + "]";
  if (lo) return " ≥ " + format_param_number(spec, spec.min);
  if (hi) return " ≤ " + format_param_number(spec, spec.max);
  return "";
}

bool valid_identifier(std::string_view s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string found_text(const RawParam& r) {
  if (!r.is_list) return "'" + r.text + "'";
  std::string s = "[";
  for (std::size_t i = 0; i < r.items.size(); ++i) s += (i ? ", " : "") + r.items[i];
  return s + "]";
}

}  // namespace

const char* param_unit(const ParamSpec& spec) {
  return spec.type == ParamType::quantity ? si_unit(spec.dimension) : "";
}

std::string format_param_number(const ParamSpec& spec, double v) {
  if (spec.type == ParamType::quantity) return format_quantity(v, spec.dimension);
  if (spec.type == ParamType::integer && std::abs(v) < 9.2e18 && v == std::floor(v))
    return std::to_string(static_cast<std::int64_t>(v));
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

bool param_has_range(const ParamSpec& spec) { return std::isfinite(spec.min) || std::isfinite(spec.max); }

std::string param_range_text(const ParamSpec& spec) {
  if (!param_has_range(spec)) return "";
  // Built by append: GCC 12's -Wrestrict misfires on `"[" + std::string` in Release builds.
  std::string lo = "(-∞", hi = "∞)";
  if (std::isfinite(spec.min)) {
    lo = "[";
    lo.append(format_param_number(spec, spec.min));
  }
  if (std::isfinite(spec.max)) {
    hi = format_param_number(spec, spec.max);
    hi.append("]");
  }
  return lo + ", " + hi;
}

std::string param_choices_text(const ParamSpec& spec) {
  std::string s;
  for (std::uint32_t i = 0; spec.choices && i < spec.choice_count; ++i) {
    if (i) s += ", ";
    s += spec.choices[i].value ? spec.choices[i].value : "";
  }
  return s;
}

std::string param_expectation(const ParamSpec& spec) {
  std::string s = type_phrase(spec);
  if (spec.type == ParamType::real_list) {
    const std::string r = range_phrase(spec);
    if (!r.empty()) s += ", each" + r;
  } else if (spec.type == ParamType::integer || spec.type == ParamType::real ||
             spec.type == ParamType::quantity) {
    s += range_phrase(spec);
  }
  return s;
}

ParamCheck check_param_value(const ParamSpec& spec, std::string_view text,
                             const std::vector<std::string>* items) {
  ParamCheck r;
  auto fail = [&](ParamProblem p, std::string detail = {}) {
    r.problem = p;
    r.detail = std::move(detail);
    return r;
  };
  if (items && spec.type != ParamType::real_list) return fail(ParamProblem::syntax);
  switch (spec.type) {
    case ParamType::integer: {
      const auto v = parse_int(text);
      if (!v) return fail(ParamProblem::syntax);
      if (!in_range(spec, static_cast<double>(*v))) return fail(ParamProblem::out_of_range);
      r.value = *v;
      return r;
    }
    case ParamType::real: {
      const auto v = parse_real(text);
      if (!v) return fail(ParamProblem::syntax);
      if (!in_range(spec, *v)) return fail(ParamProblem::out_of_range);
      r.value = *v;
      return r;
    }
    case ParamType::boolean: {
      const auto v = parse_yaml_bool(text);
      if (!v) return fail(ParamProblem::syntax, yaml11_bool_hint(text));
      r.value = *v;
      return r;
    }
    case ParamType::string:
      r.value = std::string(text);
      return r;
    case ParamType::enumeration: {
      const std::string_view t = trim_view(text);
      for (std::uint32_t i = 0; spec.choices && i < spec.choice_count; ++i)
        if (spec.choices[i].value && t == spec.choices[i].value) {
          r.value = std::string(t);
          return r;
        }
      return fail(ParamProblem::not_a_choice);
    }
    case ParamType::quantity: {
      double v = 0;
      try {
        v = parse_quantity(trim_view(text), spec.dimension);
      } catch (const std::exception& e) {
        return fail(ParamProblem::syntax, e.what());
      }
      if (!std::isfinite(v)) return fail(ParamProblem::syntax);
      if (!in_range(spec, v)) return fail(ParamProblem::out_of_range);
      r.value = v;
      return r;
    }
    case ParamType::real_list: {
      const std::vector<std::string> parts = items ? *items : split_list(text);
      std::vector<double> values;
      values.reserve(parts.size());
      for (const auto& p : parts) {
        const auto v = parse_real(p);
        if (!v) return fail(ParamProblem::syntax);
        if (!in_range(spec, *v)) return fail(ParamProblem::out_of_range);
        values.push_back(*v);
      }
      r.value = std::move(values);
      return r;
    }
  }
  return fail(ParamProblem::syntax);
}

std::optional<ParamValue> default_param_value(const ParamSpec& spec) {
  if (!spec.default_value) return std::nullopt;
  return check_param_value(spec, spec.default_value).value;
}

std::vector<std::string> check_param_schema(const ParamSpec* specs, std::uint32_t count) {
  std::vector<std::string> problems;
  if (count > 0 && !specs) {
    problems.push_back("declares " + std::to_string(count) + " parameters but no parameter table");
    return problems;
  }
  std::set<std::string, std::less<>> seen;
  for (std::uint32_t i = 0; i < count; ++i) {
    const ParamSpec& s = specs[i];
    if (!s.name || !*s.name) {
      problems.push_back("parameter #" + std::to_string(i + 1) + " has no name");
      continue;
    }
    const std::string p = "parameter '" + std::string(s.name) + "'";
    if (!valid_identifier(s.name)) {
      problems.push_back(p + " has an invalid name (use letters, digits and '_')");
      continue;
    }
    if (std::string_view(s.name) == "name") {
      problems.push_back(p + " is reserved: `name` selects the plugin");
      continue;
    }
    if (!seen.insert(s.name).second) {
      problems.push_back(p + " is declared twice");
      continue;
    }
    if (static_cast<unsigned>(s.type) > static_cast<unsigned>(ParamType::real_list)) {
      problems.push_back(p + " has an unknown type " + std::to_string(static_cast<unsigned>(s.type)));
      continue;
    }
    if (s.type == ParamType::quantity && s.dimension == Dimension::none) {
      problems.push_back(p + " is a quantity without a dimension (use real for a plain number)");
      continue;
    }
    if (s.type != ParamType::quantity && s.dimension != Dimension::none) {
      problems.push_back(p + " has a dimension but is of type " + param_type_name(s.type) + ", not quantity");
      continue;
    }
    if (std::isnan(s.min) || std::isnan(s.max) || s.min > s.max) {
      problems.push_back(p + " has an empty range (min " + format_param_number(s, s.min) + " > max " +
                         format_param_number(s, s.max) + ")");
      continue;
    }
    if (s.type == ParamType::enumeration) {
      if (!s.choices || s.choice_count == 0) {
        problems.push_back(p + " is an enum without choices");
        continue;
      }
      std::set<std::string, std::less<>> values;
      bool bad = false;
      for (std::uint32_t c = 0; c < s.choice_count && !bad; ++c) {
        if (!s.choices[c].value || !*s.choices[c].value) {
          problems.push_back(p + " has a choice without a value");
          bad = true;
        } else if (!values.insert(s.choices[c].value).second) {
          problems.push_back(p + " lists the choice '" + std::string(s.choices[c].value) + "' twice");
          bad = true;
        }
      }
      if (bad) continue;
    }
    if (s.default_value) {
      const ParamCheck c = check_param_value(s, s.default_value);
      const std::string d = "default '" + std::string(s.default_value) + "' of " + p;
      switch (c.problem) {
        case ParamProblem::none:
          break;
        case ParamProblem::syntax:
          problems.push_back(d + " is not " + type_phrase(s) +
                             (c.detail.empty() ? "" : " (" + c.detail + ")"));
          break;
        case ParamProblem::out_of_range:
          problems.push_back(d + " is outside its range " + param_range_text(s));
          break;
        case ParamProblem::not_a_choice:
          problems.push_back(d + " is not one of its choices: " + param_choices_text(s));
          break;
      }
    }
  }
  return problems;
}

ParamSet validate_params(const ParamSpec* specs, std::uint32_t count, const std::vector<RawParam>& raw,
                         const std::string& owner, std::vector<Diagnostic>& diagnostics) {
  return validate_params(specs, count, raw, owner, SourceLocation{}, diagnostics);
}

ParamSet validate_params(const ParamSpec* specs, std::uint32_t count, const std::vector<RawParam>& raw,
                         const std::string& owner, const SourceLocation& where,
                         std::vector<Diagnostic>& diagnostics) {
  const std::string prefix = owner.empty() ? std::string() : owner + ": ";
  std::vector<std::string> names;
  for (std::uint32_t i = 0; i < count; ++i) names.emplace_back(specs[i].name);
  auto spec_of = [&](std::string_view key) -> const ParamSpec* {
    for (std::uint32_t i = 0; i < count; ++i)
      if (key == specs[i].name) return &specs[i];
    return nullptr;
  };

  // At most the limit `diagnostics` problems are worded; the rest are counted in one line.
  const std::size_t before = diagnostics.size();
  std::size_t unshown = 0;
  std::string unshown_file;
  const auto only_counted = [&](const SourceLocation& at) {
    if (!diagnostics_full(diagnostics.size() - before)) return false;
    if (unshown++ == 0) unshown_file = at.file;
    return true;
  };

  ParamSet out;
  std::set<std::string, std::less<>> given;
  for (const RawParam& r : raw) {
    if (!given.insert(r.key).second) {
      if (!only_counted(r.where))
        diagnostics.push_back({r.where, prefix + "parameter '" + r.key + "' is given twice"});
      continue;
    }
    const ParamSpec* spec = spec_of(r.key);
    if (!spec) {
      if (only_counted(r.where)) continue;
      std::string m = prefix + "unknown parameter '" + r.key + "'" + did_you_mean(r.key, names);
      if (names.empty()) {
        m += "; it takes no parameters";
      } else {
        m += "; parameters: ";
        for (std::size_t i = 0; i < names.size(); ++i) m += (i ? ", " : "") + names[i];
      }
      diagnostics.push_back({r.where, std::move(m)});
      continue;
    }
    const ParamCheck c = check_param_value(*spec, r.text, r.is_list ? &r.items : nullptr);
    if (c.problem != ParamProblem::none && only_counted(r.where)) continue;
    const std::string p = prefix + "parameter '" + r.key + "': ";
    switch (c.problem) {
      case ParamProblem::none:
        out.set(r.key, *c.value);
        break;
      case ParamProblem::syntax:
      case ParamProblem::out_of_range:
        diagnostics.push_back({r.where, p + "expected " + param_expectation(*spec) + ", found " +
                                            found_text(r) + (c.detail.empty() ? "" : " (" + c.detail + ")")});
        break;
      case ParamProblem::not_a_choice: {
        std::vector<std::string> choices;
        for (std::uint32_t i = 0; i < spec->choice_count; ++i) choices.emplace_back(spec->choices[i].value);
        diagnostics.push_back({r.where, p + "expected " + param_expectation(*spec) + ", found " +
                                            found_text(r) +
                                            did_you_mean(std::string(trim_view(r.text)), choices)});
        break;
      }
    }
  }
  for (std::uint32_t i = 0; i < count; ++i) {
    const ParamSpec& s = specs[i];
    if (given.count(s.name)) continue;
    if (auto v = default_param_value(s)) {
      out.set(s.name, std::move(*v));
    } else if (!s.default_value && !only_counted(where)) {
      diagnostics.push_back({where, prefix + "missing required parameter '" + std::string(s.name) + "' (" +
                                        param_expectation(s) + ")"});
    }
  }
  if (unshown > 0) diagnostics.push_back(unshown_errors(unshown, unshown_file));
  return out;
}

}  // namespace tessera
