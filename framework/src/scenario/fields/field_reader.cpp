// Typed reading by field-table row (field_reader.hpp), on the scalar readers of schema_util.
#include "scenario/fields/field_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/text/safe_text.hpp"
#include "scenario/readers/schema_util.hpp"
#include "tessera/units.hpp"

namespace tessera::loader {

namespace {

bool valid_unit_name(const std::string& s) {
  if (s.empty()) return false;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (!(std::isalnum(c) || c == '_' || c == '-')) return false;
  }
  return true;
}

std::vector<std::string> choices_of(const ParamSpec& spec) {
  std::vector<std::string> v;
  for (std::uint32_t i = 0; i < spec.choice_count; ++i) v.emplace_back(spec.choices[i].value);
  return v;
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// "in (0, 1]", "in [0, 1]", "> 0", "≥ 0".
std::string range_text(const schema::FieldRow& row) {
  const ParamSpec& s = row.spec;
  const bool lo = std::isfinite(s.min), hi = std::isfinite(s.max);
  if (lo && hi)
    return std::string("in ") + (row.min_exclusive ? "(" : "[") + number_text(s.min) + ", " +
           number_text(s.max) + "]";
  if (lo) return (row.min_exclusive ? "> " : "≥ ") + number_text(s.min);
  if (hi) return "≤ " + number_text(s.max);
  return "";
}

// An enumeration matched case-insensitively: the choice as the row spells it.
std::optional<std::string> read_choice_any_case(const YNode& n, const std::string& path, const ParamSpec& s,
                                                Diags& d) {
  const auto upper = [](std::string t) {
    for (auto& ch : t) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return t;
  };
  const std::vector<std::string> choices = choices_of(s);
  if (n.is_scalar())
    for (const auto& c : choices)
      if (upper(c) == upper(n.value)) return c;
  return read_choice(n, path, choices, d);  // the message: expected ..., found ..., did you mean
}

// The index of choice `text` in the row's choices (read_field returned it, so it is one).
std::uint32_t choice_index(const ParamSpec& s, const std::string& text) {
  for (std::uint32_t i = 0; i < s.choice_count; ++i)
    if (text == s.choices[i].value) return i;
  throw std::logic_error("'" + text + "' is not a choice of " + s.name);
}

// What an empty list of `row` should have held.
std::string list_expectation(const schema::FieldRow& row) {
  if (row.spec.type == ParamType::enumeration) return "a list of " + join_names(choices_of(row.spec));
  if (row.format == schema::FieldFormat::tokens) return "a list of token counts (e.g. [1, 2, 4, 8])";
  if (row.spec.type == ParamType::real) return "a list of numbers " + range_text(row);
  if (row.spec.min == 0) return "a list of integers " + range_text(row);
  return "a list of positive integers (e.g. [1, 2, 4, 8])";
}

// A list row (or a single value standing for a list of one): every item read by the row; integers
// may not repeat, a choice written twice counts once; stored whole, or not at all on a problem.
void read_list_slot(const YNode& n, const std::string& path, const schema::FieldRow& row,
                    const schema::FieldSite& site, Diags& d) {
  const std::vector<const YNode*> items = items_of(n);
  if (list_too_long(n, items.size(), path, d)) return;
  if (items.empty() && row.may_be_empty) {
    if (row.slot.store) row.slot.store(site, schema::FieldItems{});
    return;
  }
  if (items.empty()) {
    d.error(n.where, path + ": expected " + list_expectation(row) + ", found an empty list");
    return;
  }
  std::vector<std::int64_t> integers;
  std::vector<std::uint32_t> choices;
  std::vector<double> reals;
  bool ok = true;
  for (const YNode* i : items) {
    const auto v = read_field(*i, path, row, d);
    if (!v) {
      ok = false;
      continue;
    }
    if (row.spec.type == ParamType::real) {
      reals.push_back(v->number);
      continue;
    }
    if (row.spec.type != ParamType::enumeration) {
      integers.push_back(v->integer);
      continue;
    }
    const std::uint32_t c = choice_index(row.spec, v->text);
    if (std::find(choices.begin(), choices.end(), c) == choices.end()) choices.push_back(c);
  }
  if (!ok || !report_repeats(integers, items, path, d)) return;
  if (!row.slot.store) throw std::logic_error("list row '" + std::string(row.path) + "' has no store slot");
  row.slot.store(site, schema::FieldItems{integers, choices, reals});
}

bool in_range(const schema::FieldRow& row, double v) {
  const ParamSpec& s = row.spec;
  return (row.min_exclusive ? v > s.min : v >= s.min) && v <= s.max;
}

// An integer row: a token count (K and M suffixes) or a plain integer, ranged and limited.
std::optional<std::int64_t> read_integer_field(const YNode& n, const std::string& path,
                                               const schema::FieldRow& row, Diags& d) {
  const ParamSpec& s = row.spec;
  if (row.format == schema::FieldFormat::tokens) {
    // A count whose row starts at 0 (a token budget's "no limit", no prefix) takes 0 too.
    if (s.min == 0 && n.is_scalar() && n.value == "0") return 0;
    return read_tokens(n, path, d);
  }
  const auto min =
      std::isfinite(s.min) ? static_cast<std::int64_t>(s.min) : std::numeric_limits<std::int64_t>::min();
  auto i = read_int(n, path, d, min, row.limit);
  if (i && std::isfinite(s.max) && static_cast<double>(*i) > s.max) {
    d.error(n.where, path + ": expected " + (min >= 1 ? "a positive" : "a non-negative") +
                         " integer of at most " + std::to_string(static_cast<std::int64_t>(s.max)) +
                         ", found " + excerpt(n.value));
    i.reset();
  }
  return i;
}

}  // namespace

const schema::FieldRow& row_of(std::string_view canonical_path) {
  const schema::FieldRow* r = schema::find_field(canonical_path);
  if (!r) throw std::logic_error("the field table has no row '" + std::string(canonical_path) + "'");
  return *r;
}

std::string field_expectation(const schema::FieldRow& row) {
  const ParamSpec& s = row.spec;
  const std::string help = s.help ? s.help : "";
  switch (s.type) {
    case ParamType::enumeration: {
      if (row.format == schema::FieldFormat::dtype) return "a number format: " + join_names(dtype_names());
      const auto c = choices_of(s);
      return (c.size() > 2 ? "one of " : "") + join_names(c);
    }
    case ParamType::integer:
      if (row.format == schema::FieldFormat::tokens) return "a token count, e.g. 128K";
      return help + ": " + (s.min >= 1 ? "a positive integer" : "a non-negative integer");
    case ParamType::quantity:
      return help + ": a " + (row.min_exclusive ? "positive " : "") + dimension_name(s.dimension) + " (" +
             unit_examples(s.dimension) + ")";
    case ParamType::real:
      return help + ": a number " + range_text(row);
    case ParamType::boolean:
      return help + ": true or false";
    default:
      return help;
  }
}

std::optional<FieldValue> read_field(const YNode& n, const std::string& path, const schema::FieldRow& row,
                                     Diags& d) {
  const ParamSpec& s = row.spec;
  FieldValue v;
  switch (s.type) {
    case ParamType::integer: {
      const auto i = read_integer_field(n, path, row, d);
      if (!i) return std::nullopt;
      v.integer = *i;
      v.number = static_cast<double>(*i);
      return v;
    }
    case ParamType::real: {
      const auto r = read_real(n, path, d);
      if (!r) return std::nullopt;
      if (!in_range(row, *r)) {
        // The help without what absence means: what the number is, and what its ends mean.
        std::string what = s.help;
        if (const auto cut = what.find("; absent:"); cut != std::string::npos) what.resize(cut);
        d.error(n.where, path + ": expected a number " + range_text(row) + " (" + what + "), found " +
                             excerpt(n.value));
        return std::nullopt;
      }
      v.number = *r;
      return v;
    }
    case ParamType::quantity: {
      const auto q = read_quantity(n, path, s.dimension, d, !row.min_exclusive);
      if (!q) return std::nullopt;
      v.number = *q;
      return v;
    }
    case ParamType::boolean: {
      const auto b = read_bool(n, path, d);
      if (!b) return std::nullopt;
      v.boolean = *b;
      return v;
    }
    case ParamType::enumeration: {
      if (row.format == schema::FieldFormat::dtype) {
        const auto t = read_dtype(n, path, d);
        if (!t) return std::nullopt;
        v.text = n.value;
        return v;
      }
      const auto c = row.format == schema::FieldFormat::any_case ? read_choice_any_case(n, path, s, d)
                                                                 : read_choice(n, path, choices_of(s), d);
      if (!c) return std::nullopt;
      v.text = *c;
      return v;
    }
    case ParamType::string: {
      const auto t = read_string(n, path, d);
      if (!t) return std::nullopt;
      if (row.format == schema::FieldFormat::name && !valid_unit_name(*t)) {
        d.error(n.where,
                path + ": expected a name of letters, digits, '_' or '-', found \"" + excerpt(*t) + "\"");
        return std::nullopt;
      }
      v.text = *t;
      return v;
    }
    case ParamType::real_list:
      break;
  }
  d.error(n.where, path + ": expected " + param_type_name(s.type) + ", found " + describe(n));
  return std::nullopt;
}

const YNode* field_member(const YNode& map, const std::string& path, const schema::FieldRow& row, Diags& d) {
  return member(map, path, std::string(schema::field_key(row)), row.spec.default_value == nullptr,
                field_expectation(row), d);
}

bool has_slot(const schema::FieldRow& row) {
  const schema::FieldSlot& s = row.slot;
  return s.real || s.integer || s.boolean || s.text || s.store;
}

void read_slot(const YNode& n, const std::string& path, const schema::FieldRow& row,
               const schema::FieldSite& site, Diags& d) {
  if (row.list) {
    read_list_slot(n, path, row, site, d);
    return;
  }
  const auto v = read_field(n, path, row, d);
  if (!v) return;
  const schema::FieldSlot& s = row.slot;
  if (s.real) *s.real(site) = v->number;
  if (s.integer) *s.integer(site) = v->integer;
  if (s.boolean) *s.boolean(site) = v->boolean;
  if (s.text) *s.text(site) = v->text;
  if (s.store) {
    const bool is_choice = row.spec.type == ParamType::enumeration;
    const std::uint32_t choice = is_choice ? choice_index(row.spec, v->text) : 0;
    s.store(site,
            schema::FieldItems{
                is_choice ? std::span<const std::int64_t>{} : std::span<const std::int64_t>(&v->integer, 1),
                is_choice ? std::span<const std::uint32_t>(&choice, 1) : std::span<const std::uint32_t>{}});
  }
}

bool read_slot_fields(const YNode& map, const std::string& path, std::string_view canonical,
                      const schema::FieldSite& site, Diags& d) {
  const std::size_t before = d.size();
  for (const schema::FieldRow* r : schema::child_rows(canonical)) {
    if (!has_slot(*r)) continue;
    if (schema::field_key(*r) == "<dtype>") continue;  // a mapping of formats: read by its schema
    if (const YNode* n = field_member(map, path, *r, d))
      read_slot(*n, join_path(path, std::string(schema::field_key(*r))), *r, site, d);
  }
  return d.size() == before;
}

}  // namespace tessera::loader
