#pragma once
// A `--json` document's extras, shared by the entries that build their document on request
// (sensitivity, explain, explore): the other scopes (`by_scope`, each studied quietly) and the
// command line (the CLI's; Python has none).
#include <optional>
#include <string>
#include <vector>

#include "tessera/workload.hpp"

namespace tessera::studies {

struct DocumentOptions {
  std::vector<Scope> scopes;
  std::optional<std::string> command;
};

}  // namespace tessera::studies
