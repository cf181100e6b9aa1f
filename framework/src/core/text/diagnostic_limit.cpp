#include "core/text/diagnostic_limit.hpp"

#include "tessera/limits.hpp"

namespace tessera {

bool diagnostics_full(std::size_t shown) { return shown >= current_limits().diagnostics; }

Diagnostic unshown_errors(std::size_t count, const std::string& file) {
  return Diagnostic{SourceLocation{file, 0, 0},
                    std::to_string(count) + " more error" + (count == 1 ? "" : "s") +
                        " not shown: the number of errors " + limit_exceeded("diagnostics")};
}

}  // namespace tessera
