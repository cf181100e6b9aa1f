#pragma once
// Typed access to the machine's numeric leaves by dotted path, from the field table
// (field_table.hpp): one resolver for every user-given path (sweep.hardware, sensitivity,
// explore's hardware points), a getter and a setter through the row's slot. Levels are
// addressed by name (machine.levels.node.link_bw), number formats by theirs
// (machine.pe.flops.fp8).
#include <string>
#include <string_view>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"
#include "tessera/units.hpp"

namespace tessera {

namespace schema {
struct FieldRow;
}

// A dotted path resolved against the table.
struct FieldPath {
  const schema::FieldRow* row = nullptr;  // null when `error` is set
  std::string canonical;                  // "machine.levels.*.link_bw"
  std::string level;                      // the level named by a machine.levels.<level> path
  DType dtype = DType::bf16;              // the format named by machine.pe.flops.<dtype>
  std::string error;                      // "'PATH' ..." with the nearest names; empty when resolved

  TESSERA_API bool numeric() const;         // a row with a real or integer slot
  TESSERA_API Dimension dimension() const;  // the row's (Dimension::none for plain numbers)
};

// Resolves a numeric machine leaf ("machine." optional). With `machine`, a level name is
// checked against its levels. The error names the nearest keys and the numeric fields.
TESSERA_API FieldPath resolve_machine_field(std::string_view path, const MachineSpec* machine);

// The numeric machine fields, compacted for messages: "machine.pe.hbm.<capacity|bandwidth|usable>, ...".
// `under`: only those below this canonical path ("" = all).
TESSERA_API std::string numeric_machine_fields(std::string_view under = "");

// Value of a resolved numeric field, in SI (a fanout as a double). Throws InputError when the
// machine has no level of that name.
TESSERA_API double get_field(const MachineSpec& machine, const FieldPath& field);
// Sets it (a fanout rounded to the nearest integer); setting an energy constant marks the
// machine's energy block present.
TESSERA_API void set_field(MachineSpec& machine, const FieldPath& field, double value_si);

// By path in one call: resolve, then get or set; InputError for a path that names no numeric
// machine field.
TESSERA_API void set_machine_field(MachineSpec& machine, const std::string& path, double value_si);
TESSERA_API double get_machine_field(const MachineSpec& machine, const std::string& path);
TESSERA_API Dimension machine_field_dimension(const std::string& path);

}  // namespace tessera
