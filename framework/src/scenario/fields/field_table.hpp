#pragma once
// The host's own input fields, each declared once: models, machines, workloads,
// sweeps, plugins choices and reports. A row is a dotted path, a ParamSpec (type, dimension,
// range, default or required, one line of help) and how the value is used. From the rows, and
// only from them, come: the allowed keys of every mapping and "did you mean"
// (scenario/schemas/schema_keys.cpp), typed parsing with ranges (the model, machine and scenario
// schemas), the typed getter and setter of every numeric leaf (field_access.hpp: overrides,
// --set, sweep.hardware, sensitivity, explore), docs/scenario-format.md's key tables,
// `tessera schema` and `tessera schema --json-schema`.
//
// Path syntax: keys joined by '.'; a segment `*` is an element of a list of mappings addressed
// by its `name` (machine.levels.*.link_bw: `machine.levels.<level>.link_bw` in paths given by
// users); a segment `<dtype>` is any dtype name (machine.pe.flops.<dtype>). A scenario's own keys
// have paths from its root ("workload.context"); a model or machine file's keys have the paths
// they take inside a scenario ("model.heads", "machine.pe.hbm.capacity").
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"
#include "tessera/model.hpp"
#include "tessera/plugin/param_spec.hpp"
#include "tessera/workload.hpp"

namespace tessera {
struct Scenario;  // scenario/scenario.hpp: a scenario's own sections, the slots of its rows
}

namespace tessera::schema {

// Which file kinds a row may appear in.
enum class FieldFile : std::uint8_t {
  model,     // a model file, or a scenario's `model:` mapping
  machine,   // a machine file, or a scenario's `machine:` mapping
  scenario,  // a scenario's own sections
};

// How the value is used.
enum class FieldUse : std::uint8_t {
  value,      // a typed value: parsed, ranged, settable by path (numbers, booleans, enums)
  choice,     // a plugin choice (`overlap`, or a mapping `{name: ..., params...}`) or a list of them:
              // a YAML edit before validation, checked against the installed plugins
  reference,  // a model or machine reference (a file name, a path, or an inline mapping)
  mapping,    // a mapping whose keys are rows of their own (documents the mapping itself)
  free_keys,  // a mapping whose keys are not the host's (plugin parameters, `efficiency:`, overrides)
};

// How a scalar's text is read beyond its ParamType.
enum class FieldFormat : std::uint8_t {
  plain,
  tokens,      // an integer token count with an optional K or M suffix (128K, 1M)
  dtype,       // an enumeration whose choices are the number formats (tessera/dtype.hpp)
  name,        // a string of letters, digits, '_' or '-' (PE and level names)
  any_case,    // an enumeration whose choices are matched case-insensitively (TP+CP, tp+cp)
  statistics,  // a value, or a mapping of statistics to values: {mean: 500 ms, p99: 2 s} (serving.slo)
};

// The typed structs a leaf lands in; a slot picks its member. `level` is the level a
// `machine.levels.*` path names; `dtype` the `<dtype>` segment of machine.pe.flops.<dtype>;
// `scenario` a scenario's own sections (workload aside: `workload`).
struct FieldSite {
  ModelSpec* model = nullptr;
  MachineSpec* machine = nullptr;
  LevelSpec* level = nullptr;
  Workload* workload = nullptr;
  Scenario* scenario = nullptr;
  DType dtype = DType::bf16;
};

// What a value read by row hands a `store` slot: an enumeration's choice as its index in the
// row's choices (declared in the enum's order), an integer (one that is not an int64 member),
// or a list's items, in the order written.
struct FieldItems {
  std::span<const std::int64_t> integers;  // integer rows and lists of integers
  std::span<const std::uint32_t> choices;  // enumeration rows and lists of choices
  std::span<const double> reals{};         // lists of reals (repeats allowed: a table by position)
};

// Where a leaf's value lands (at most one member set). The numeric members (real, integer) are
// also the typed getter and setter of the leaf (field_access.hpp: overrides, --set, sweeps).
// Leaves without a slot (dtypes, names checked against a machine, plugin choices) are read by
// code.
struct FieldSlot {
  double* (*real)(const FieldSite&) = nullptr;                   // real and quantity rows
  std::int64_t* (*integer)(const FieldSite&) = nullptr;          // integer rows
  bool* (*boolean)(const FieldSite&) = nullptr;                  // boolean rows
  std::string* (*text)(const FieldSite&) = nullptr;              // string rows
  void (*store)(const FieldSite&, const FieldItems&) = nullptr;  // enumerations, lists, other integers
};

// The slot of a real, an integer, a boolean or a string leaf, or one stored by a function (the
// tables of fields_*.cpp).
constexpr FieldSlot real_slot(double* (*f)(const FieldSite&)) { return FieldSlot{.real = f}; }
constexpr FieldSlot int_slot(std::int64_t* (*f)(const FieldSite&)) { return FieldSlot{.integer = f}; }
constexpr FieldSlot bool_slot(bool* (*f)(const FieldSite&)) { return FieldSlot{.boolean = f}; }
constexpr FieldSlot text_slot(std::string* (*f)(const FieldSite&)) { return FieldSlot{.text = f}; }
constexpr FieldSlot store_slot(void (*f)(const FieldSite&, const FieldItems&)) {
  return FieldSlot{.store = f};
}

struct FieldRow {
  std::string_view path;  // canonical dotted path (syntax above)
  FieldFile file;
  FieldUse use;
  ParamSpec spec;  // spec.name: the last segment; spec.help: one line; default nullptr = required
                   // (for optional rows without a default, default "" and the help says what absence means)
  bool list;       // the value is a YAML list of items of `spec`'s type (sweep.parallelism.tp: [1, 2, 4])
  bool min_exclusive = false;   // the value must exceed spec.min: (0, 1], "a positive size"
  const char* limit = nullptr;  // a row of the limit table (tessera/limits.hpp) bounding it from above
  FieldFormat format = FieldFormat::plain;
  FieldSlot slot = {};
  bool may_be_empty = false;  // a list row that takes [] (none: serving.prefix_cache.offload)
};

// Rows of one file kind, in document order (fields_model.cpp, fields_machine.cpp, fields_scenario.cpp).
TESSERA_API std::span<const FieldRow> model_field_rows();
TESSERA_API std::span<const FieldRow> machine_field_rows();
TESSERA_API std::span<const FieldRow> scenario_field_rows();
TESSERA_API std::span<const FieldRow> prefix_cache_field_rows();
TESSERA_API std::span<const FieldRow> speculative_field_rows();
TESSERA_API std::span<const FieldRow> pool_field_rows();

// Every row, in document order (model, machine, scenario; within each, as the docs list them).
TESSERA_API std::span<const FieldRow> field_rows();

// The row of a canonical path (levels as `*`, dtypes as `<dtype>`); nullptr when none.
TESSERA_API const FieldRow* find_field(std::string_view canonical_path);

// The rows directly under a mapping's canonical path ("" = a scenario's root), in table order.
TESSERA_API std::vector<const FieldRow*> child_rows(std::string_view canonical_path);
// One step along a dotted path, the resolver every path-taking input shares (overrides and
// --set on the YAML tree, sweep.hardware, sensitivity and explore on the typed machine): the
// child `key` of the mapping at `canonical`. Under a list of mappings (machine.levels) any key
// is an element's name (canonical "machine.levels.*"); under `<dtype>` any number format.
struct FieldStep {
  const FieldRow* row = nullptr;  // the child's row; null when the mapping has no such key
  std::string canonical;          // the child's canonical path
  std::vector<std::string> keys;  // the mapping's keys (`<dtype>` expanded), for "did you mean"
  bool is_value = false;          // `canonical` (the parent) holds a value, not keys
};
TESSERA_API FieldStep step_field(std::string_view canonical, std::string_view key);

// The last segment of a row's path ("machine.pe.hbm.usable" -> "usable").
TESSERA_API std::string_view field_key(const FieldRow& row);

}  // namespace tessera::schema
