#pragma once
// The measurement rows latency/measured's shipped tables were built from (data/kernel-tables/*.csv,
// each entry's `source` column `row ID`): validate-data scores latency/measured on none of them
// (docs/accuracy.md "Measured kernel tables").
#include <map>
#include <string>

#include "tessera/export.hpp"

namespace tessera::accuracy {

// The folder of latency/measured's tables under a data root ("<root>/data/kernel-tables").
TESSERA_API std::string kernel_tables_dir(const std::string& data_root);

// Row id -> the table (file stem) built from it, over every table of `dir` (empty when the folder
// does not exist).
TESSERA_API std::map<std::string, std::string> table_build_rows(const std::string& dir);

}  // namespace tessera::accuracy
