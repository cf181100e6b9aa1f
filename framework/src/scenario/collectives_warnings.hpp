#pragma once
// `tessera validate`'s warning for machine levels without a `collectives:` block: they run on
// the documented defaults of the fabric their position implies (docs/physics.md §5).
#include <string>
#include <vector>

#include "tessera/error.hpp"
#include "tessera/export.hpp"
#include "tessera/machine.hpp"

namespace tessera {

// One diagnostic per level of `m` whose `collectives:` block is absent, located at the level's
// entry in `machine_file` ("inline": in `scenario_file`'s `machine:` mapping; the file alone
// when the entry cannot be found). The caller prints them as warnings.
TESSERA_API std::vector<Diagnostic> default_collectives_warnings(const MachineSpec& m,
                                                                 const std::string& machine_file,
                                                                 const std::string& scenario_file = "");

// `FILE:LINE:COL: warning: MESSAGE` (Diagnostic::format()'s convention).
TESSERA_API std::string format_warning(const Diagnostic& d);

}  // namespace tessera
