#pragma once
// The size of a study before it starts (docs/limits.md "Work"): grid points, the valid
// configurations among them, hardware points, latency models and their product, the
// evaluations the study may start; an estimate of its time and memory; the check against the
// limit max_configs.
//
// Grid points are counted from the scenario's value lists by (saturating) multiplication; the
// configurations by walking the grid's validity without evaluating or keeping anything
// (GridSpace::count_valid, eval/study_check.hpp), stopped as soon as the limit is passed.
#include <cstdint>
#include <optional>
#include <string>

#include "scenario/scenario.hpp"
#include "tessera/export.hpp"

namespace tessera {

// The valid canonical configurations of the grid (GridSpace::count_valid), when counted.
struct ConfigCount {
  std::uint64_t configurations = 0;
  std::uint64_t tuples = 0;  // numeric tuples (cp × tp × pp × dp × ep)
  bool more = false;         // the count stopped early: at least `configurations`
};

struct WorkSize {
  std::uint64_t grid_points = 1;  // parallelism grid, before validity
  // Valid canonical configurations of the grid (counted), or the grid's points (not counted:
  // an upper bound); `more`: the count stopped early, there are at least this many.
  std::uint64_t valid = 1;
  bool counted = false;
  bool more = false;
  std::uint64_t tuples = 0;           // numeric tuples, when counted
  std::uint64_t hardware_points = 1;  // machines searched: hardware grid points, perturbed machines
  // Configurations evaluated per hardware point and latency model, at most: the valid ones
  // (else the grid's points), or a sampling search's `samples` when fewer.
  std::uint64_t configurations = 1;
  bool sampled = false;              // configurations came from `samples`
  std::uint64_t latency_models = 1;  // compare evaluates every configuration with each
  // mode: serve: serving points (batch × token budget) per configuration; 1 otherwise.
  std::uint64_t serving_points = 1;
  // hardware_points × configurations × latency_models × serving_points (saturating); with
  // `more` (and not sampled) a lower bound.
  std::uint64_t evaluations = 1;
};

// `samples`: the search's `samples` parameter when it has one (a sampling search). `count`:
// the grid's valid configurations when counted; without it the grid's points stand for them.
TESSERA_API WorkSize size_work(const Sweep& sweep, std::uint64_t hardware_points,
                               std::uint64_t latency_models, std::optional<std::uint64_t> samples,
                               const ConfigCount* count = nullptr);

// Documented per-evaluation cost behind the time estimate: about a microsecond of one thread
// (DESIGN "Evaluation hot path"; bench/ measures it).
inline constexpr double kSecondsPerEvaluation = 1e-6;
TESSERA_API double estimated_seconds(const WorkSize& w, unsigned threads);
// Memory the study's bookkeeping needs at most: the compact grid index (2 bytes per valid
// configuration and 4 per numeric tuple; bounded by 6.125 bytes per grid point when not
// counted) and the driver's duplicate bitmap (1 bit per configuration), up to the paged
// index's bound (eval/grid_pages.hpp: 4 MB resident, then about 8 MB of pages read).
TESSERA_API std::uint64_t estimated_bytes(const WorkSize& w);

// Throws InputError when w.evaluations exceeds the limit max_configs, naming the study's
// sizes and the limit. `what`: the study ("run", "explore", ...).
TESSERA_API void check_work(const WorkSize& w, const std::string& what);

// The sizes as text: "grid 2304 points, 512 configurations (10 samples), 1 machine: at most 10
// evaluations".
TESSERA_API std::string describe_work(const WorkSize& w);

}  // namespace tessera
