#pragma once
// The rule that catches a missing closing quote, which yaml-cpp 0.7 does not: it reads
// `name: "x` followed by more lines as one scalar running on to the next quote or to the end
// of the file, silently swallowing the keys after it (an `overrides:` line disappears).
//
// A quoted scalar (single or double) is refused when
//   - its closing quote is missing (it runs to the end of the text), or
//   - one of its continuation lines that is not blank is indented no more than the block
//     collection the scalar sits in (the column of its mapping's keys, or of its sequence's
//     `-`). YAML 1.2 (§7.3, s-flow-line-prefix) requires that indentation, so no valid YAML is
//     refused: a legitimate multi-line quoted scalar continues indented under its key.
#include <cstddef>
#include <string>
#include <string_view>

namespace tessera::loader {

// "" when the scalar is fine, else what is wrong. `quote` is the offset of the opening quote in
// `text` and `quote_line` its 0-based line (for the message); `block_column` is the 0-based
// column of the innermost enclosing block collection, -1 when there is none (a top-level
// scalar, a flow document: then only the closing quote is checked).
std::string quoted_scalar_problem(std::string_view text, std::size_t quote, int quote_line, int block_column);

}  // namespace tessera::loader
