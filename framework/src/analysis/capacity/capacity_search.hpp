#pragma once
// The capacity of a serving configuration (docs/physics.md §12.6 "Capacity"): the largest load
// of a request stream under which every SLO target still holds, found by bisection on the load,
// each probe a request simulation of the same seed (common random numbers: a Poisson or gamma
// stream at twice the rate is the same stream at half the time scale, so the probes differ only
// by the load).
//
// The load is an open loop's arrival rate (requests/s; a trace replayed faster or slower, its
// rate = its requests over its span), or a closed loop's clients. A probe simulates at least
// CapacitySettings::min_requests measured requests after a warm-up (the stream's, or a tenth);
// while the binding target (the one nearest its limit) is undecided — its 95 % interval holds
// the limit — and wider than ± precision of its value, the probe is run once more with
// max_requests. The search brackets the capacity from a starting load (the analytical model's)
// by steps of ×/÷ 1.25, each step the square of the one before and the last cut to start ×/÷
// max_factor (a closed loop: one client), then bisects geometrically (a closed loop: on whole
// clients) until the bracket is within `tolerance`.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/requests/request_sim.hpp"
#include "scenario/schemas/request_spec.hpp"
#include "scenario/schemas/slo_spec.hpp"
#include "tessera/export.hpp"

namespace tessera::requests {

struct CapacitySettings {
  std::uint64_t min_requests = 5000;   // measured requests of a probe, at least
  std::uint64_t max_requests = 20000;  // what an undecided probe may grow to
  double precision = 0.05;             // the binding statistic's 95 % half-width / value wanted
  double tolerance = 0.02;             // the bracket's hi / lo − 1 at the end (closed loop: one client)
  std::size_t max_probes = 24;         // simulations of one search at most (grown probes count once each)
  double max_factor = 64;              // the bracket searched: start / max_factor .. start × max_factor
};

// What the load is: an open loop's rate (requests/s offered) or a closed loop's clients.
enum class LoadKind : std::uint8_t { rate, clients };

// "rate_per_s" or "clients" (the JSON and CSV names).
TESSERA_API const char* load_key(LoadKind k);

// One probe: the stream at one load, simulated.
struct CapacityProbe {
  double load = 0;
  std::uint64_t measured = 0;  // requests measured (after the warm-up)
  bool met = false;            // every target held
  // The target nearest its limit (the largest statistic / limit), its ratio and the half-width
  // of its 95 % interval over its value (NaN under two batches).
  std::size_t binding = 0;
  double binding_ratio = 0;
  double binding_precision = 0;
  double ttft_p99_s = 0, tpot_p99_s = 0, e2e_p99_s = 0;
  double requests_per_s = 0, output_tokens_per_s = 0, goodput_requests_per_s = 0;
};

// Why the search stopped: the bracket within tolerance; the probes spent; no target binds up to
// start × max_factor (every probe met, that load's too: the figures are those of the saturated
// engine); or none met down to start / max_factor (a closed loop: one client).
enum class CapacityStop : std::uint8_t { converged, probe_limit, ceiling, none_met };

TESSERA_API const char* capacity_stop_key(CapacityStop s);

struct Capacity {
  LoadKind kind = LoadKind::rate;
  bool conversations = false;  // a rate of conversations (each of several requests) per second
  bool found = false;          // some load met every target
  double load = 0;             // the largest load that met every target (0: none)
  double upper = 0;            // the smallest load that missed one (0: none missed)
  // The target that stops a higher load: the binding target of the probe at `upper` (kNone when
  // no probe missed).
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t stopped_by = kNone;
  CapacityProbe at;                   // the probe at `load` (found)
  std::vector<CapacityProbe> probes;  // in the order run
  CapacityStop stop = CapacityStop::converged;
};

// The load `stream` offers: its rate; a trace's requests over its span, times its time scale;
// a closed loop's clients.
TESSERA_API LoadKind load_kind(const StreamSpec& stream);
TESSERA_API double offered_load(const StreamSpec& stream);
// `stream` at `load` (a closed loop: rounded to whole clients, at least one).
TESSERA_API StreamSpec at_load(const StreamSpec& stream, double load);

// One simulation of a probe's stream (SimResult::slo holds `slo`'s targets, checked).
using CapacityProbeFn = std::function<SimResult(const StreamSpec& stream)>;

// The capacity of what `simulate` runs, searched from `start_load` (> 0; a closed loop's is
// rounded). Each probe measures max(min_requests, the stream's measured requests) after a
// warm-up of max(the stream's warm-up, a tenth of those); a trace's probe replays the rows the
// stream sends (at most its `requests`) after its warm-up, and never grows. Throws InputError for
// a trace that spans no time (its rate cannot be scaled); polls cancellation before each
// simulation. Without targets every load meets
// them: the search climbs to the ceiling. Deterministic: the probes depend on the stream, the
// start, the targets and the settings only.
TESSERA_API Capacity search_capacity(const StreamSpec& stream, double start_load,
                                     const CapacitySettings& settings, const CapacityProbeFn& simulate);

}  // namespace tessera::requests
