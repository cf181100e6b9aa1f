#pragma once
// The alias table (data/aliases.yaml): which model file, machine file and serving-framework
// profile a measured row's model, hardware and software columns name (docs/accuracy.md "How a
// row is mapped").
#include <string>
#include <vector>

#include "tessera/export.hpp"

namespace tessera::validation {

struct AliasRule {
  std::string match;     // case-insensitive substring of the column (models, hardware, software)
  std::string locator;   // frameworks only: also a substring of source_locator ("" = any)
  std::string target;    // model / machine file stem, or framework profile name
  std::string unmapped;  // non-empty: rows matching this rule are not mapped, for this reason
};
struct Aliases {
  std::string file;
  std::vector<AliasRule> models, hardware, frameworks;
};
TESSERA_API Aliases load_aliases(const std::string& path);
// data_root/data/aliases.yaml
TESSERA_API std::string default_aliases_path(const std::string& data_root);

}  // namespace tessera::validation
