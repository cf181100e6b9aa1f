// Out-of-line helpers of tessera/machine.hpp.
#include "tessera/machine.hpp"

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
  // The chain of wider formats: int4 -> int8 -> fp8 -> bf16/fp16 -> fp32.
  static constexpr DType kChain[] = {DType::int4, DType::int8, DType::fp8,
                                     DType::bf16, DType::fp16, DType::fp32};
  std::size_t start = 0;
  for (std::size_t i = 0; i < std::size(kChain); ++i)
    if (kChain[i] == t) start = i;
  // fp16 falls back to bf16 (same width) before fp32.
  if (t == DType::fp16 && at(DType::bf16) > 0) return at(DType::bf16);
  for (std::size_t i = start + 1; i < std::size(kChain); ++i)
    if (at(kChain[i]) > 0) return at(kChain[i]);
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
