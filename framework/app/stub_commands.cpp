// Placeholders for the commands not written yet: each says so and fails (exit 1). The lead
// replaces them one by one; `plugins` and `validate` have their own files.
#include <iostream>

#include "commands.hpp"
#include "exit_codes.hpp"

namespace tessera::cli {
namespace {
[[maybe_unused]] int not_implemented(const char* name) {
  std::cerr << "tessera: error: '" << name << "' is not implemented yet\n";
  return kExitFailed;
}
}  // namespace

}  // namespace tessera::cli
