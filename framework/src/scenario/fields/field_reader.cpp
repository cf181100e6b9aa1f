// Typed reading by field-table row (field_reader.hpp), on the scalar readers of schema_util.
#include "scenario/fields/field_reader.hpp"

#include <cctype>
#include <cmath>
#include <limits>
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

bool in_range(const schema::FieldRow& row, double v) {
  const ParamSpec& s = row.spec;
  return (row.min_exclusive ? v > s.min : v >= s.min) && v <= s.max;
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
      std::optional<std::int64_t> i;
      if (row.format == schema::FieldFormat::tokens) {
        i = read_tokens(n, path, d);
      } else {
        const auto min = std::isfinite(s.min) ? static_cast<std::int64_t>(s.min)
                                              : std::numeric_limits<std::int64_t>::min();
        i = read_int(n, path, d, min, row.limit);
        if (i && std::isfinite(s.max) && static_cast<double>(*i) > s.max) {
          d.error(n.where, path + ": expected " + (min >= 1 ? "a positive" : "a non-negative") +
                               " integer of at most " + std::to_string(static_cast<std::int64_t>(s.max)) +
                               ", found " + excerpt(n.value));
          i.reset();
        }
      }
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
      const auto c = read_choice(n, path, choices_of(s), d);
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

bool has_slot(const schema::FieldRow& row) { return row.slot.real || row.slot.integer || row.slot.boolean; }

void read_slot(const YNode& n, const std::string& path, const schema::FieldRow& row,
               const schema::FieldSite& site, Diags& d) {
  const auto v = read_field(n, path, row, d);
  if (!v) return;
  if (row.slot.real) *row.slot.real(site) = v->number;
  if (row.slot.integer) *row.slot.integer(site) = v->integer;
  if (row.slot.boolean) *row.slot.boolean(site) = v->boolean;
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
