#pragma once
// Numeric machine fields by dotted path, on a typed MachineSpec (no YAML): what hardware
// sweeps and sensitivity studies vary. Defined beside the machine schema (machine_schema.cpp).
#include <string>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"
#include "tessera/units.hpp"

namespace tessera {

// Sets a numeric machine field by dotted path ("machine.pe.hbm.bandwidth",
// "machine.levels.cube.link_bw", "machine.pe.flops.bf16") to an SI value. Used by hardware
// sweeps. Throws InputError for a path that names no numeric machine field.
TESSERA_API void set_machine_field(MachineSpec& machine, const std::string& path, double si_value);
TESSERA_API double get_machine_field(const MachineSpec& machine, const std::string& path);
TESSERA_API Dimension machine_field_dimension(const std::string& path);

}  // namespace tessera
