#pragma once
// A machine as a hierarchy: PEs (compute + HBM slice) grouped into levels, innermost first
// (docs/specification.md §2.3 "Machine file"). Plain data with a few derived helpers.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tessera/dtype.hpp"
#include "tessera/export.hpp"
#include "tessera/plugin/param_set.hpp"

namespace tessera {

enum class LinkTopology : std::uint8_t { switched, ring, all_to_all, torus };
TESSERA_API const char* topology_name(LinkTopology t);

// What a level's links are made of: selects the documented default collective constants
// (docs/physics.md §5, NCCL's NVLINK / PCI / NET tables) and which algorithms exist on it.
// `neuronlink` (AWS Trainium) runs its torus rings dimension by dimension as `ici` does; `roce`
// (Intel Gaudi's integrated RoCE, HCCL) is a network whose collectives may be hierarchical.
enum class Fabric : std::uint8_t { nvlink, xgmi, pcie, network, ici, neuronlink, roce };
inline constexpr int kFabricCount = 7;
// Fabrics whose torus / ring collectives step dimension by dimension (TPU XLA, Trainium Neuron).
inline bool fabric_torus_rings(Fabric f) { return f == Fabric::ici || f == Fabric::neuronlink; }
// Fabrics of NICs between hosts (NCCL's NET constants, one channel per NIC, binary trees).
inline bool fabric_is_network(Fabric f) { return f == Fabric::network || f == Fabric::roce; }
TESSERA_API const char* fabric_name(Fabric f);

// Collective algorithms (docs/physics.md §5). `ring` is the alpha-beta ring of the earlier
// definition (docs/physics.md §5 "Legacy ring"; kept to reproduce old results bit for bit); the others are
// priced per protocol
// and topology. `direct`: every rank exchanges with every peer at once (all-to-all, copy).
enum class CollAlgorithm : std::uint8_t {
  ring,
  nccl_ring,
  nccl_tree,
  one_shot,
  two_shot,
  in_network,
  direct
};
inline constexpr int kCollAlgorithmCount = 7;
TESSERA_API const char* coll_algorithm_name(CollAlgorithm a);
// NCCL's protocols (LL: 8-byte flag+data lines, LL128: 128-byte lines, Simple: bulk + fences);
// `none` for algorithms without a protocol choice.
enum class Protocol : std::uint8_t { ll, ll128, simple, none };
inline constexpr int kProtocolCount = 3;  // ll, ll128, simple
TESSERA_API const char* protocol_name(Protocol p);

// One algorithm's constants on one level: time = base + steps * hop + bytes / (bw * bw_factor).
struct AlgorithmCost {
  double base = 0;       // s, once per call
  double hop = 0;        // s, per step (ring step, tree level, ...)
  double bw_factor = 1;  // achieved fraction of the bandwidth the topology gives the pattern
};

// A level's `collectives:` block (defaults per fabric: fabric_collectives()).
struct LevelCollectives {
  bool described = false;  // the machine file has a `collectives:` block for this level
  Fabric fabric = Fabric::nvlink;
  // bit (1 << CollAlgorithm): the algorithms allowed. A spec built in code runs the legacy
  // ring only; a machine file's level gets its fabric's defaults (fabric_collectives: all but
  // the legacy ring) unless its `collectives:` block says otherwise.
  std::uint32_t algorithms = 1u << static_cast<unsigned>(CollAlgorithm::ring);
  bool in_network = false;                           // in-network reduction (NVLS on NVSwitch gen 3+, SHARP)
  double link_efficiency = 1;                        // achievable / nominal link bandwidth for bulk copies
  std::array<AlgorithmCost, kProtocolCount> ring{};  // NCCL ring, per protocol
  std::array<AlgorithmCost, kProtocolCount> tree{};  // NCCL tree, per protocol (all-reduce)
  AlgorithmCost one_shot, two_shot;                  // custom all-reduce (P2P loads)
  AlgorithmCost in_network_cost;                     // NVLS / SHARP all-reduce
  AlgorithmCost direct;                              // all-to-all / copy to every peer at once

  bool allows(CollAlgorithm a) const { return (algorithms >> static_cast<unsigned>(a)) & 1u; }
};

inline constexpr std::uint32_t kAutoAlgorithms = 0x7Eu;  // every algorithm but the legacy ring
// The documented defaults of a fabric kind (kAutoAlgorithms, in_network false, `described` false).
TESSERA_API LevelCollectives fabric_collectives(Fabric f);

inline constexpr int kMaxTorusDims = 4;

struct LevelSpec {
  LevelSpec() = default;
  LevelSpec(std::string level_name, std::int64_t level_fanout, double level_link_bw, double level_latency,
            LinkTopology level_topology = LinkTopology::switched, double level_uplink_bw = 0)
      : name(std::move(level_name)),
        fanout(level_fanout),
        link_bw(level_link_bw),
        latency(level_latency),
        topology(level_topology),
        uplink_bw(level_uplink_bw) {}

  std::string name;
  std::int64_t fanout = 0;  // units of the level below held by one unit of this level
  double link_bw = 0;       // B/s, each PE's injection bandwidth per direction
  double latency = 0;       // s, per message (alpha)
  LinkTopology topology = LinkTopology::switched;
  double uplink_bw = 0;  // B/s shared by one unit of the level below; 0 = not limiting
  // Torus extents, innermost first (product = fanout); dim_count 0 for other topologies.
  std::array<std::int32_t, kMaxTorusDims> dims{};
  int dim_count = 0;
  LevelCollectives collectives;
};

struct PESpec {
  std::string name = "pe";
  std::array<double, kDTypeCount> flops{};  // FLOP/s dense peak per DType; 0 = not supported
  double hbm_capacity = 0;                  // B
  double hbm_bandwidth = 0;                 // B/s
  double hbm_usable = 1.0;                  // fraction of capacity usable
  // B the driver reports as the device's total (cudaMemGetInfo; what a serving engine's memory
  // fraction multiplies, docs/physics.md §10.1); 0: not stated, hbm_capacity stands for it.
  double hbm_reported = 0;
};

struct EnergySpec {
  bool present = false;
  double flop = 0;          // J per FLOP
  double hbm_byte = 0;      // J per HBM byte
  double link_byte = 0;     // J per byte sent over a link
  double static_power = 0;  // W per PE, drawn for the whole step (leakage, idle clocks)
};

// The machine file's `price:` block (docs/physics.md §9 "Price"): what the `cost` and
// `cost_per_mtok` objectives read. The defaults are those of a machine without the block.
struct PriceSpec {
  double pe = 0;              // USD, capital cost per PE; 0: the cost objective's parametric estimate
  double lifetime_years = 4;  // years the capital is depreciated over (straight line, no residual)
  double power = 0;           // W per PE while serving (wall); 0: the `energy` block's energy per token
  double electricity_per_kwh = 0.08;  // USD per kWh
  double utilization = 1;             // fraction of the lifetime spent serving at the evaluated rate
};

// One tier of memory below HBM, each PE's share (the machine file's host_memory.dram / .ssd):
// where a serving engine may offload KV blocks (docs/physics.md §12.7 "KV offload"). Read by the
// host's request simulation; no plugin kind is handed it.
struct HostTierSpec {
  double capacity = 0;   // bytes per PE (0: the machine has no such tier)
  double bandwidth = 0;  // B/s per PE, copying into HBM (what the copies achieve)
  double latency = 0;    // s per iteration that copies from it
  std::string link;      // how it reaches the PE: pcie4, pcie5, pcie6, nvlink_c2c (stated, not priced)
};

struct HostMemorySpec {
  HostTierSpec dram, ssd;
};

struct MachineSpec {
  std::string name;
  PESpec pe;
  std::vector<LevelSpec> levels;  // innermost first
  double stage_overhead = 0;      // s added to every compute stage
  EnergySpec energy;
  PriceSpec price;
  // The machine file's `efficiency:` block, validated against the latency plugin's machine
  // parameter schema (empty when the plugin declares none).
  ParamSet efficiency;
  // Appended last (the members above keep their place for plugins built before it).
  HostMemorySpec host_memory;

  TESSERA_API std::int64_t total_pes() const;
  // PEs in one unit of placement level p: p = 0 the PE itself (1), p = 1 a first-level unit.
  TESSERA_API std::int64_t pes_per_unit(int p) const;
  // Placement level of a name: "pe" or the PE's own name -> 0, levels[i].name -> i + 1.
  TESSERA_API std::optional<int> placement_index(std::string_view name) const;
  TESSERA_API std::string placement_name(int p) const;
  // Dense peak for a GEMM in `t`; a format the PE lacks runs at the next one it has: the
  // same-width twin (bf16/fp16, fp8/mxfp8, nvfp4/mxfp4), then wider (docs/physics.md §1).
  TESSERA_API double peak_flops(DType t) const;
};

}  // namespace tessera
