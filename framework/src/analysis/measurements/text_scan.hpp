#pragma once
// Small scans of the measurement files' free text (notes, software strings), shared by the row
// readers and the alias table.
#include <cstddef>
#include <string>

namespace tessera::accuracy {

// True when `needle` is empty or occurs in `hay`, ASCII letters compared without case.
bool contains_ci(const std::string& hay, const std::string& needle);

// `\d+` at `at` as a double (at most 15 digits: exact), advancing `at`; false when there is no
// digit at `at` or more than 15.
bool scan_digits(const std::string& s, std::size_t& at, double& v);

}  // namespace tessera::accuracy
