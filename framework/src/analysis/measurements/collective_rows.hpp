#pragma once
// The collective rows of a measurements CSV (`collective_busbw:all_reduce`,
// `collective_latency:ep_dispatch` / `:ep_combine`; data/README.md): what their
// cells and notes say about the collective, read by hand scanners (no std::regex), and the
// arithmetic that turns a collective's time into the row's quantity. docs/accuracy.md
// "Collectives" has the mapping rules.
#include <cstdint>
#include <optional>
#include <string>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"
#include "tessera/physics/layout.hpp"

namespace tessera::accuracy {

// `collective_busbw:*` or `collective_latency:*`.
TESSERA_API bool is_collective_metric(const std::string& metric);

// `msg_bytes=<int>` at the start of the notes (leading blanks allowed, blanks around `=`, a
// sentence's period after the number: "msg_bytes=1024. NCCL ..."); nullopt when absent, and for
// "msg_bytes=12.5", "msg_bytes=4K".
TESSERA_API std::optional<double> notes_msg_bytes(const std::string& notes);

// The NCCL algorithm the notes force: the first `NCCL_ALGO=<name>` whose name starts with a
// letter (the command template `NCCL_ALGO=<algo>` is skipped). `named` false: none forced.
struct NcclAlgorithm {
  bool named = false;
  std::string name;              // as written ("NVLS")
  std::uint32_t algorithms = 0;  // bit (1 << CollAlgorithm) allowed; 0 with `named`: no mapping
};
TESSERA_API NcclAlgorithm notes_nccl_algorithm(const std::string& notes);

// NCCL algorithm name (case-insensitive) -> Tessera's algorithms: NVLS -> in_network,
// Ring -> nccl_ring, Tree -> nccl_tree. nullopt for the others (NVLSTree, CollNet*, PAT:
// multi-node or not modelled).
TESSERA_API std::optional<std::uint32_t> nccl_algorithm_mask(const std::string& name);

// Bytes per element of a payload format named by the first word of `precision` ("bf16
// (dispatch and combine payload)" -> 2): fp32 4, bf16/fp16 2, fp8 1, mxfp8 1 + 1/32 (one E8M0
// scale per 32), nvfp4 0.5 + 1/16 = 0.5625 (one E4M3 scale per 16), mxfp4 0.5 + 1/32 = 0.53125.
// Local to validate-data: main's DType has no block-scaled formats yet (helper h-dtype adds
// them to dtype_bytes; the integrator can replace this table with it).
TESSERA_API std::optional<double> payload_bytes_per_element(const std::string& precision);

// `<int> bytes/token` in the notes (the first); nullopt when absent.
TESSERA_API std::optional<double> notes_bytes_per_token(const std::string& notes);

// nccl-tests' bus bandwidth of an all-reduce of `bytes` in `seconds` on n ranks:
// algbw = bytes / seconds, busbw = algbw * 2(n-1)/n (B/s).
TESSERA_API double all_reduce_busbw(double bytes, double seconds, std::int64_t ranks);

// What one rank sends in a MoE dispatch (or receives back in the combine) with one-sided
// NVLink all-to-all kernels: each token goes once to each of the min(ep, top_k) ranks it is
// routed to (TensorRT-LLM blog 18's bandwidth formula), hidden elements of `bytes_per_element`.
TESSERA_API double moe_bytes_per_rank(double tokens, std::int64_t ep, std::int64_t top_k, std::int64_t hidden,
                                      double bytes_per_element);

// A group of n consecutive PEs on the first level of `machine` (level 1, members[0] = n,
// stride 1, no sharing, the level's link_bw and latency). Requires n <= levels[0].fanout.
TESSERA_API LinkCost first_level_group(const MachineSpec& machine, std::int64_t n);

// The group of a collective row: first_level_group when n fits one first-level unit (a node);
// otherwise n / fanout whole first-level units side by side on the second level (members[0] =
// the first level's fanout, members[1] = n / fanout, level 2: the rows' "N nodes of 8"). Throws
// Error when n is not whole units or exceeds the second level.
TESSERA_API LinkCost row_group(const MachineSpec& machine, std::int64_t n);

}  // namespace tessera::accuracy
