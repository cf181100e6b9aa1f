#pragma once
// "Did you mean": the valid names closest to a misspelled one (edit distance).
#include <string>
#include <string_view>
#include <vector>

#include "tessera/export.hpp"

namespace tessera {

TESSERA_API std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidates within a small edit distance of `name` (closest first, at most 3).
TESSERA_API std::vector<std::string> nearest_names(std::string_view name,
                                                   const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" or " (did you mean 'x' or 'y'?)", or "" when nothing is close.
TESSERA_API std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace tessera
