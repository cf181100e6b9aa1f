#pragma once
// The host's own input fields, each declared once (issue 12): models, machines, workloads,
// sweeps, plugins choices and reports. A row is a dotted path, a ParamSpec (type, dimension,
// range, default or required, one line of help) and how the value is used. From the rows, and
// only from them, come: the allowed keys of every mapping and "did you mean"
// (scenario/schema_keys.cpp), typed parsing with ranges (the model, machine and scenario
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
#include <string_view>

#include "tessera/plugin/param_spec.hpp"

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

struct FieldRow {
  std::string_view path;  // canonical dotted path (syntax above)
  FieldFile file;
  FieldUse use;
  ParamSpec spec;  // spec.name: the last segment; spec.help: one line; default nullptr = required
                   // (for optional rows without a default, default "" and the help says what absence means)
  bool list;       // the value is a YAML list of items of `spec`'s type (sweep.parallelism.tp: [1, 2, 4])
};

// Every row, in document order (model, machine, scenario; within each, as the docs list them).
std::span<const FieldRow> field_rows();

// The row of a canonical path (levels as `*`, dtypes as `<dtype>`); nullptr when none.
const FieldRow* find_field(std::string_view canonical_path);

}  // namespace tessera::schema
