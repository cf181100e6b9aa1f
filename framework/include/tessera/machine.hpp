#pragma once
// A machine as a hierarchy: PEs (compute + HBM slice) grouped into levels, innermost first
// (SPEC §2, machine file). Plain data with a few derived helpers.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/dtype.hpp"
#include "tessera/export.hpp"
#include "tessera/plugin/param_set.hpp"

namespace tessera {

enum class LinkTopology : std::uint8_t { switched, ring, all_to_all, torus };
TESSERA_API const char* topology_name(LinkTopology t);

struct LevelSpec {
  std::string name;
  std::int64_t fanout = 0;  // units of the level below held by one unit of this level
  double link_bw = 0;       // B/s, each PE's injection bandwidth per direction
  double latency = 0;       // s, per message (alpha)
  LinkTopology topology = LinkTopology::switched;
  double uplink_bw = 0;  // B/s shared by one unit of the level below; 0 = not limiting
};

struct PESpec {
  std::string name = "pe";
  std::array<double, kDTypeCount> flops{};  // FLOP/s dense peak per DType; 0 = not supported
  double hbm_capacity = 0;                  // B
  double hbm_bandwidth = 0;                 // B/s
  double hbm_usable = 1.0;                  // fraction of capacity usable
};

struct EnergySpec {
  bool present = false;
  double flop = 0;       // J per FLOP
  double hbm_byte = 0;   // J per HBM byte
  double link_byte = 0;  // J per byte sent over a link
};

struct MachineSpec {
  std::string name;
  PESpec pe;
  std::vector<LevelSpec> levels;  // innermost first
  double stage_overhead = 0;      // s added to every compute stage
  EnergySpec energy;
  // The machine file's `efficiency:` block, validated against the latency plugin's machine
  // parameter schema (empty when the plugin declares none).
  ParamSet efficiency;

  TESSERA_API std::int64_t total_pes() const;
  // PEs in one unit of placement level p: p = 0 the PE itself (1), p = 1 a first-level unit.
  TESSERA_API std::int64_t pes_per_unit(int p) const;
  // Placement level of a name: "pe" or the PE's own name -> 0, levels[i].name -> i + 1.
  TESSERA_API std::optional<int> placement_index(std::string_view name) const;
  TESSERA_API std::string placement_name(int p) const;
  // Dense peak for a GEMM in `t`; a format the PE lacks runs at the next wider one it has.
  TESSERA_API double peak_flops(DType t) const;
};

}  // namespace tessera
