#pragma once
// One stage of a step (a GEMM, the attention core, a collective...), per PE and per
// occurrence, as a latency model reports it. `count` occurrences lie on one request's
// critical path per step, so that sum(count * visible_s) is the step latency.
#include <array>
#include <cstdint>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"

namespace tessera {

enum class StageBlock : std::uint8_t { attention, ffn, moe, head, pipeline };
enum class Bound : std::uint8_t { compute, memory, comm, overhead, none };

TESSERA_API const char* stage_block_name(StageBlock b);
TESSERA_API const char* bound_name(Bound b);

// The default memory tier's name.
inline constexpr const char* kHbmTier = "hbm";

struct Stage {
  const char* name = "";  // "attn.qkv", "ffn.up", "moe.experts", "pp.hop", ...
  StageBlock block = StageBlock::attention;
  double count = 0;       // occurrences per step on the critical path
  double flops = 0;       // FLOP per PE per occurrence
  double hbm_bytes = 0;   // B read+written from HBM per PE per occurrence
  double comm_bytes = 0;  // B sent per PE per occurrence (collective sizes per docs/physics.md §5)
  double compute_s = 0;
  double memory_s = 0;
  double comm_s = 0;
  double visible_s = 0;  // time this stage adds to the critical path, per occurrence
  Bound bound = Bound::none;
  // The algorithm that runs the stage's slowest collective (has_comm_algorithm false when the
  // stage has none), and the rates it was priced at (explain lists every candidate).
  bool has_comm_algorithm = false;
  bool comm_hierarchical = false;
  CollAlgorithm comm_algorithm = CollAlgorithm::ring;
  Protocol comm_protocol = Protocol::none;
  double comm_bw_efficiency = 1;
  double comm_extra_latency = 0;  // s per step
  // The serving stack's fixed cost of one collective call (s), included in comm_s once per call
  // (0: the model charges none). A model that re-times the collective itself (latency/measured
  // over its fallback's stages) keeps the call cost from here.
  double call_overhead_s = 0;
  // Where the stage's memory bytes (hbm_bytes) were served from: a named memory tier ("hbm",
  // the default, or a model's own: "sram", "pim", ...) and that tier's bandwidth per PE in B/s
  // (0: the machine's HBM bandwidth). The host reports utilisation per tier
  // (StepTotals::tiers); bw_util counts HBM's bytes only (docs/physics.md §9).
  const char* memory_tier = kHbmTier;
  double memory_tier_bw = 0;
  // Where the stage's time came from, for a model that mixes sources (latency/measured: "table
  // dgx-h200-gemm-bf16", "fallback: calibrated (m outside 1..4096 in ...)"); explain prints it.
  // nullptr: the model's own formulas. A static string or one the model object owns.
  const char* source = nullptr;
};

// A fixed-capacity stage list: evaluating a configuration allocates nothing.
struct StageList {
  static constexpr int kCapacity = 32;
  std::array<Stage, kCapacity> items{};
  int size = 0;

  Stage& push() { return items[static_cast<std::size_t>(size++)]; }
  void clear() { size = 0; }
  const Stage* begin() const { return items.data(); }
  const Stage* end() const { return items.data() + size; }
  Stage* begin() { return items.data(); }
  Stage* end() { return items.data() + size; }
};

}  // namespace tessera
