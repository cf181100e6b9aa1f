// Out-of-line helpers of tessera/machine.hpp.
#include "tessera/machine.hpp"

#include <array>
#include <cctype>

#include "core/checked_math.hpp"

namespace tessera {

const char* topology_name(LinkTopology t) {
  switch (t) {
    case LinkTopology::switched:
      return "switch";
    case LinkTopology::ring:
      return "ring";
    case LinkTopology::all_to_all:
      return "all-to-all";
    case LinkTopology::torus:
      return "torus";
  }
  return "unknown";
}

// Saturating: a machine whose fanouts multiply past int64 is refused by the loader
// (limit machine.pes); a spec built in code still never sees a wrapped count.
std::int64_t MachineSpec::total_pes() const {
  std::int64_t n = 1;
  for (const auto& l : levels) n = saturating_mul(n, l.fanout);
  return n;
}

std::int64_t MachineSpec::pes_per_unit(int p) const {
  std::int64_t n = 1;
  for (int i = 0; i < p && i < static_cast<int>(levels.size()); ++i)
    n = saturating_mul(n, levels[static_cast<std::size_t>(i)].fanout);
  return n;
}

std::optional<int> MachineSpec::placement_index(std::string_view name) const {
  if (name == "pe" || name == pe.name) return 0;
  for (std::size_t i = 0; i < levels.size(); ++i)
    if (levels[i].name == name) return static_cast<int>(i) + 1;
  return std::nullopt;
}

std::string MachineSpec::placement_name(int p) const {
  if (p <= 0) return pe.name.empty() ? std::string("pe") : pe.name;
  if (p <= static_cast<int>(levels.size())) return levels[static_cast<std::size_t>(p - 1)].name;
  return "level" + std::to_string(p);
}

double MachineSpec::peak_flops(DType t) const {
  const auto at = [&](DType d) { return pe.flops[static_cast<std::size_t>(d)]; };
  if (at(t) > 0) return at(t);
  // A format the PE lacks runs at the next one it has: first the format of the same width and
  // kind (bf16 <-> fp16, fp8 <-> mxfp8, nvfp4 <-> mxfp4: the same tensor-core path), then wider
  // ones. int4 -> int8 -> fp8 -> bf16/fp16 -> fp32; fp4 -> fp8 (not int: FP4 GEMMs do not run on
  // integer units).
  using D = DType;
  struct Next {
    int n;
    std::array<D, 6> d;
  };
  static constexpr std::array<Next, kDTypeCount> kNext{{
      /* fp32  */ {0, {}},
      /* bf16  */ {2, {D::fp16, D::fp32}},
      /* fp16  */ {2, {D::bf16, D::fp32}},
      /* fp8   */ {4, {D::mxfp8, D::bf16, D::fp16, D::fp32}},
      /* int8  */ {5, {D::fp8, D::mxfp8, D::bf16, D::fp16, D::fp32}},
      /* int4  */ {6, {D::int8, D::fp8, D::mxfp8, D::bf16, D::fp16, D::fp32}},
      /* nvfp4 */ {6, {D::mxfp4, D::fp8, D::mxfp8, D::bf16, D::fp16, D::fp32}},
      /* mxfp4 */ {6, {D::nvfp4, D::mxfp8, D::fp8, D::bf16, D::fp16, D::fp32}},
      /* mxfp8 */ {4, {D::fp8, D::bf16, D::fp16, D::fp32}},
  }};
  const Next& next = kNext[static_cast<std::size_t>(t)];
  for (int i = 0; i < next.n; ++i)
    if (at(next.d[static_cast<std::size_t>(i)]) > 0) return at(next.d[static_cast<std::size_t>(i)]);
  return 0;
}

}  // namespace tessera

namespace tessera {

const char* fabric_name(Fabric f) {
  switch (f) {
    case Fabric::nvlink:
      return "nvlink";
    case Fabric::xgmi:
      return "xgmi";
    case Fabric::pcie:
      return "pcie";
    case Fabric::network:
      return "network";
    case Fabric::ici:
      return "ici";
    case Fabric::neuronlink:
      return "neuronlink";
    case Fabric::roce:
      return "roce";
  }
  return "unknown";
}

const char* coll_algorithm_name(CollAlgorithm a) {
  switch (a) {
    case CollAlgorithm::ring:
      return "ring";
    case CollAlgorithm::nccl_ring:
      return "nccl_ring";
    case CollAlgorithm::nccl_tree:
      return "nccl_tree";
    case CollAlgorithm::one_shot:
      return "one_shot";
    case CollAlgorithm::two_shot:
      return "two_shot";
    case CollAlgorithm::in_network:
      return "in_network";
    case CollAlgorithm::direct:
      return "direct";
  }
  return "unknown";
}

const char* protocol_name(Protocol p) {
  switch (p) {
    case Protocol::ll:
      return "LL";
    case Protocol::ll128:
      return "LL128";
    case Protocol::simple:
      return "Simple";
    case Protocol::none:
      return "";
  }
  return "";
}

}  // namespace tessera
