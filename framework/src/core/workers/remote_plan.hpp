#pragma once
// A plan as the process that merges it keeps it while its units are computed in other processes
// (worker processes: process_executor.hpp; MPI ranks: mpi_job.hpp): which units are handed out,
// computed and merged, and the first failure.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "core/executor.hpp"

namespace tessera::workers {

struct RemotePlan {
  RemotePlan(std::size_t n, std::uint64_t first, std::uint64_t planned_units, const UnitCodec& c)
      : count(n), offset(first), planned(planned_units), codec(c), done(n, 0), error_unit(n + 1) {}
  std::size_t count;
  std::uint64_t offset;   // the other processes' unit of this plan's unit 0 (a resumed checkpoint)
  std::uint64_t planned;  // their plan's units
  const UnitCodec& codec;
  std::size_t next = 0, merged = 0;
  std::vector<std::uint8_t> done;
  std::exception_ptr error;
  std::size_t error_unit;  // a merge's failure is count (before any unit's, which are below)
  // Keeps the lowest-numbered unit's failure.
  void fail(std::size_t unit, std::exception_ptr e) {
    if (!error || unit < error_unit) {
      error = std::move(e);
      error_unit = unit;
    }
  }
  // "in work unit 3 of 23 (configurations 513-768 of ...)"
  std::string unit_words(std::size_t u) const {
    std::string s = "in work unit " + std::to_string(offset + u + 1) + " of " + std::to_string(planned);
    if (codec.describe) s += " (" + codec.describe(u) + ")";
    return s;
  }
};

}  // namespace tessera::workers
