#pragma once
// The files this process has read as input (every YAML, JSON and CSV goes through
// read_input_file), by identity — device and inode — so that an output never replaces one of
// them: `--json` naming the scenario, `calibrate m.csv --out m.csv` (docs/limits.md "Outputs").
// Thread-safe; at most kMaxInputsRemembered distinct files are kept (the first ones read).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "tessera/export.hpp"

namespace tessera {

inline constexpr std::size_t kMaxInputsRemembered = 4096;

struct InputRead {
  std::string path;  // as it was read
  std::string what;  // "scenario file", "measurements CSV", ...
};

// Called by read_input_file with the identity of the file it read.
TESSERA_API void note_input_read(unsigned long long device, unsigned long long inode, const std::string& path,
                                 const std::string& what);
// A file a command names as input before it reads it (calibrate's CSVs): noted as read, so that
// no output may be added over it. Nothing when `path` does not exist (it is refused when read).
TESSERA_API void note_input_file(const std::string& path, const std::string& what);
// Every input read so far (at most kMaxInputsRemembered), in no particular order.
TESSERA_API std::vector<InputRead> inputs_read_list();
// The input read with this identity, if any.
TESSERA_API std::optional<InputRead> input_read_as(unsigned long long device, unsigned long long inode);

}  // namespace tessera
