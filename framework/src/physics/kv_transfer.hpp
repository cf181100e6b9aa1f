#pragma once
// The KV cache a disaggregated prefill pool hands to its decode pool (docs/physics.md §12.4):
// its size, the busiest endpoint's share when the pools' tensor and pipeline parallelism differ
// (resharding), and the part of the transfer a request's time to first token sees, sent whole
// after the prefill or layer by layer while it runs.
#include <cstdint>

#include "tessera/export.hpp"
#include "tessera/model.hpp"

namespace tessera {

enum class TransferOverlap : std::uint8_t {
  none,       // the whole KV is sent after the prefill
  layerwise,  // layer l's KV is sent while layer l + 1 is prefilled
};

// The link between the pools: each PE's injection bandwidth (B/s, achievable) and the latency
// of one message (s).
struct TransferLink {
  double bandwidth = 0;
  double latency = 0;
};

// The KV bytes of `tokens` prompt tokens, every layer: 2 L h_kv d k tokens (GQA/MHA: K and V of
// every KV head), L (kv_lora_rank + rope_dim) k tokens (MLA: the compressed latent and the
// decoupled RoPE key), k = bytes per element of the KV format.
TESSERA_API double kv_transfer_bytes(const ModelSpec& m, std::int64_t tokens);

// The ranks of one dp replica of a pool instance as the transfer sees them: tp x pp x cp (a dp
// replica serves its own requests, so dp does not split a request's KV).
struct PoolShape {
  std::int64_t tp = 1;
  std::int64_t pp = 1;
  std::int64_t cp = 1;
  bool kv_replicated = false;  // kv_shard_mode: replicate (every tp rank holds every KV head)
};

// One request's transfer from a prefill instance of shape `p` to a decode instance of shape `d`.
struct KvTransfer {
  double bytes = 0;           // the request's KV (kv_transfer_bytes)
  double endpoint_bytes = 0;  // what the busiest sending or receiving PE moves
  std::int64_t messages = 1;  // messages the busiest receiver takes (> 1: resharded)
  bool resharded = false;     // the pools' distinct KV shards differ
  double time_s = 0;          // sent whole: messages x latency + endpoint_bytes / bandwidth
  double layer_time_s = 0;    // one layer sent alone: messages x latency + endpoint_bytes / (L bandwidth)
};

// Distinct KV shards of a rank group: tp ranks split the KV heads up to h_kv (beyond that they
// hold copies; kv_shard_mode replicate: 1); MLA's latent is not split by heads (1); pp stages split the
// layers, cp ranks the tokens.
TESSERA_API std::int64_t kv_shards(const ModelSpec& m, const PoolShape& s);

TESSERA_API KvTransfer kv_transfer(const ModelSpec& m, std::int64_t tokens, const PoolShape& prefill,
                                   const PoolShape& decode, const TransferLink& link);

// The part of the transfer after a prefill of `prefill_s` seconds that delays the first token:
// none: the whole transfer; layerwise: one layer's transfer plus what the other L - 1 layers'
// transfers exceed the prefill of the layers after theirs: tau + (L - 1) max(0, tau - t_l),
// tau = one layer's transfer, t_l = prefill_s / L.
TESSERA_API double exposed_transfer_s(const KvTransfer& t, double prefill_s, std::int64_t layers,
                                      TransferOverlap overlap);

}  // namespace tessera
