#pragma once
// An input file read as text and handed on as it is (`schema --markdown --doc FILE`): read as
// every input is (core/text/input_file.hpp: regular files only, file.bytes), then refused when it is
// not text, at the first NUL byte or byte that is not UTF-8 (docs/limits.md), never echoed.
#include <string>

#include "tessera/export.hpp"

namespace tessera {

// The file's content. Throws what read_input_file throws, and InputErrors located at the first
// binary byte: "FILE:LINE:COL: error: WHAT is not text: a NUL byte (a binary file?)".
TESSERA_API std::string read_text_file(const std::string& path, const std::string& what);

}  // namespace tessera
