#pragma once
// Compact constructors of field-table rows (field_table.hpp), used by the fields_*.cpp tables
// only: one call per row, the key name taken from the path's last segment.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "scenario/fields/field_table.hpp"

namespace tessera::schema::rows {

// The last segment of a path literal, still NUL-terminated (it ends the literal).
constexpr const char* last_segment(std::string_view path) {
  const std::size_t dot = path.rfind('.');
  return path.data() + (dot == std::string_view::npos ? 0 : dot + 1);
}

constexpr FieldRow make(std::string_view path, FieldFile f, FieldUse use, ParamType t, Dimension dim,
                        const char* def, double min, double max, const char* help) {
  return FieldRow{path, f, use, ParamSpec{last_segment(path), t, dim, def, min, max, nullptr, 0, help},
                  false};
}

constexpr FieldRow integer(std::string_view path, FieldFile f, const char* def, double min, double max,
                           const char* help, FieldSlot slot = {}, const char* limit = nullptr) {
  FieldRow r = make(path, f, FieldUse::value, ParamType::integer, Dimension::none, def, min, max, help);
  r.slot = slot;
  r.limit = limit;
  return r;
}

constexpr FieldRow real(std::string_view path, FieldFile f, const char* def, double min, double max,
                        bool min_exclusive, const char* help, FieldSlot slot = {}) {
  FieldRow r = make(path, f, FieldUse::value, ParamType::real, Dimension::none, def, min, max, help);
  r.min_exclusive = min_exclusive;
  r.slot = slot;
  return r;
}

// A non-negative quantity; `positive`: zero refused too.
constexpr FieldRow quantity(std::string_view path, FieldFile f, Dimension dim, const char* def, bool positive,
                            const char* help, FieldSlot slot = {}) {
  FieldRow r = make(path, f, FieldUse::value, ParamType::quantity, dim, def, 0, kNoMax, help);
  r.min_exclusive = positive;
  r.slot = slot;
  return r;
}

constexpr FieldRow boolean(std::string_view path, FieldFile f, const char* def, const char* help,
                           FieldSlot slot = {}) {
  FieldRow r = make(path, f, FieldUse::value, ParamType::boolean, Dimension::none, def, kNoMin, kNoMax, help);
  r.slot = slot;
  return r;
}

constexpr FieldRow text(std::string_view path, FieldFile f, const char* def, const char* help,
                        FieldFormat format = FieldFormat::plain) {
  FieldRow r = make(path, f, FieldUse::value, ParamType::string, Dimension::none, def, kNoMin, kNoMax, help);
  r.format = format;
  return r;
}

template <std::size_t N>
constexpr FieldRow choice(std::string_view path, FieldFile f, const char* def,
                          const ParamChoice (&choices)[N], const char* help) {
  FieldRow r =
      make(path, f, FieldUse::value, ParamType::enumeration, Dimension::none, def, kNoMin, kNoMax, help);
  r.spec.choices = choices;
  r.spec.choice_count = static_cast<std::uint32_t>(N);
  return r;
}

// A number format (tessera/dtype.hpp's names).
constexpr FieldRow dtype(std::string_view path, FieldFile f, const char* def, const char* help) {
  FieldRow r =
      make(path, f, FieldUse::value, ParamType::enumeration, Dimension::none, def, kNoMin, kNoMax, help);
  r.format = FieldFormat::dtype;
  return r;
}

constexpr FieldRow mapping(std::string_view path, FieldFile f, const char* def, const char* help) {
  return make(path, f, FieldUse::mapping, ParamType::string, Dimension::none, def, kNoMin, kNoMax, help);
}

constexpr FieldRow free_keys(std::string_view path, FieldFile f, const char* help) {
  return make(path, f, FieldUse::free_keys, ParamType::string, Dimension::none, "", kNoMin, kNoMax, help);
}

// The row with its slot (a choice, a text or a list built above).
constexpr FieldRow slotted(FieldRow r, FieldSlot slot) {
  r.slot = slot;
  return r;
}

// An enumeration whose choices match whatever their case.
constexpr FieldRow any_case(FieldRow r) {
  r.format = FieldFormat::any_case;
  return r;
}

// The value is a YAML list of the row's items (a single item stands for a list of one).
constexpr FieldRow list(FieldRow r) {
  r.list = true;
  return r;
}

// A list that may be empty ([] says none).
constexpr FieldRow empty_list(FieldRow r) {
  r.list = true;
  r.may_be_empty = true;
  return r;
}

// The value a store slot gets (field_table.hpp's FieldItems): a choice as its enum, a list of
// choices, a list of degrees.
template <typename E>
E choice_as(const FieldItems& v) {
  return static_cast<E>(v.choices[0]);
}
template <typename E>
std::vector<E> choices_as(const FieldItems& v) {
  std::vector<E> out;
  for (std::uint32_t c : v.choices) out.push_back(static_cast<E>(c));
  return out;
}
inline std::vector<std::int32_t> degrees(const FieldItems& v) {
  std::vector<std::int32_t> out;
  for (std::int64_t i : v.integers) out.push_back(static_cast<std::int32_t>(i));
  return out;
}

// sweep.parallelism.ffn_shard_scope's choices, in FfnShardScope's order.
inline constexpr ParamChoice kFfnScopes[] = {{"TP", "the FFN sharded over TP"},
                                             {"TP+CP", "the FFN sharded over TP and CP"},
                                             {"TP+CP+DP", "the FFN sharded over TP, CP and DP"}};

}  // namespace tessera::schema::rows
