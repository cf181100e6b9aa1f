#pragma once
// A measured row's `precision` column -> the dtypes of weights, KV and activations, where the
// string determines them (docs/accuracy.md "How a row is mapped"); otherwise nullopt and `why`.
#include <optional>
#include <string>

#include "tessera/export.hpp"

#include "tessera/dtype.hpp"

namespace tessera::accuracy {

TESSERA_API std::optional<DTypes> dtypes_from_precision(const std::string& precision, std::string& why);

}  // namespace tessera::accuracy
