#pragma once
// `threads=` of every long call: None is the CLI's default (every core), a count beyond the
// documented limit `threads` (docs/limits.md) is refused as `--threads` is.
#include <optional>
#include <string>

#include "tessera/error.hpp"
#include "tessera/limits.hpp"

namespace tessera::python {

inline unsigned thread_count(std::optional<unsigned> threads) {
  if (!threads) return 0;
  const std::uint64_t limit = current_limits().threads;
  if (*threads == 0)
    throw InputError("threads: expected a positive integer (at most " + std::to_string(limit) +
                     ") or None, found 0");
  if (*threads > limit)
    throw InputError("threads: " + std::to_string(*threads) + " threads " + limit_exceeded("threads"));
  return *threads;
}

}  // namespace tessera::python
