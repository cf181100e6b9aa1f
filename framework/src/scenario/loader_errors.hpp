#pragma once
// How the scenario loader gives up (docs/specification.md §2): every problem found is collected in
// a Diags, and the collected problems are thrown together as InputErrors.
#include "scenario/readers/yaml_tree.hpp"
#include "tessera/error.hpp"

namespace tessera::loader {

[[noreturn]] inline void throw_errors(Diags& d) { throw InputErrors(d.take()); }

inline void throw_if_any(Diags& d) {
  if (!d.empty()) throw_errors(d);
}

}  // namespace tessera::loader
