#pragma once
// How many input problems are reported at once: at most the limit `diagnostics`
// (docs/limits.md); the rest are only counted, in one closing line, so that a file of 100000
// unknown keys neither takes the time to word 100000 messages nor prints 23 MB.
#include <cstddef>
#include <string>

#include "tessera/error.hpp"
#include "tessera/export.hpp"

namespace tessera {

// Whether `shown` problems reach the limit, so that the next one is only counted.
TESSERA_API bool diagnostics_full(std::size_t shown);

// The closing line for `count` problems not shown, located at `file`: "FILE: error: 99900 more
// errors not shown: the number of errors exceeds the limit diagnostics (100); raise it with
// --limit diagnostics=N".
TESSERA_API Diagnostic unshown_errors(std::size_t count, const std::string& file);

}  // namespace tessera
