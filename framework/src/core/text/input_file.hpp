#pragma once
// Reading an input file (YAML, JSON, CSV) as the limits promise: regular files only
// (directories, devices, FIFOs and sockets are refused by name, so `/dev/zero` or a FIFO can
// neither exhaust memory nor block), at most `file.bytes` bytes (docs/limits.md). Every
// failure is an InputError whose message starts with the path, ready for `FILE: error: ...`.
#include <string>

#include "tessera/export.hpp"

namespace tessera {

// The file's whole content. `what` names it in messages ("model file", "measurements CSV").
// Throws InputError (bad input: missing, not a regular file, too large) or Error (I/O failure).
TESSERA_API std::string read_input_file(const std::string& path, const std::string& what);

// The same checks without reading: "" when `path` may be read, else the reason (no path prefix).
TESSERA_API std::string input_file_problem(const std::string& path);

}  // namespace tessera
