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

// The KV bytes of `tokens` prompt tokens, every attention layer: 2 h_kv d k per token kept
// (GQA/MHA: K and V of every KV head), (kv_lora_rank + rope_dim) k (MLA: the compressed latent
// and the decoupled RoPE key), k = bytes per element of the KV format; a layer keeps what its
// kind does (docs/physics.md §3: the window, the last chunk; a sparse layer's index keys too).
TESSERA_API double kv_transfer_bytes(const ModelSpec& m, std::int64_t tokens);
// One sequence's recurrent state over the linear and mamba layers (docs/physics.md §3
// "Recurrent layers"), whole (not split by TP), in the state format.
TESSERA_API double state_transfer_bytes(const ModelSpec& m);

// The ranks of one dp replica of a pool instance as the transfer sees them: tp x pp x cp (a dp
// replica serves its own requests, so dp does not split a request's KV).
struct PoolShape {
  std::int64_t tp = 1;
  std::int64_t pp = 1;
  std::int64_t cp = 1;
  bool kv_replicated = false;  // kv_shard_mode: replicate (tp ranks beyond h_kv hold copies)
};

// The transfer of `requests` prompts' KV (a prefill batch) from a prefill instance of shape `p`
// to a decode instance of shape `d`. Byte counts are one request's; times cover all `requests`.
struct KvTransfer {
  double bytes = 0;           // one request's KV (kv_transfer_bytes)
  double send_bytes = 0;      // one request's, at the busiest sending PE
  double receive_bytes = 0;   // one request's, at each receiving PE
  double endpoint_bytes = 0;  // max(send_bytes, receive_bytes)
  std::int64_t messages = 1;  // messages the busiest receiver takes (> 1: resharded)
  bool resharded = false;     // the pools' distinct KV shards differ
  std::int64_t requests = 1;  // prompts sent together (the prefill batch)
  double time_s = 0;          // sent whole: messages x latency + requests x endpoint_bytes / bandwidth
  double send_time_s =
      0;  // the busiest sender's link busy with it: messages x latency + requests x send_bytes / bandwidth
  double receive_time_s =
      0;  // one request at a receiver's link: messages x latency + receive_bytes / bandwidth
  double layer_time_s = 0;         // one layer sent alone, all requests (the busiest endpoint's layer share)
  std::int64_t serial_layers = 1;  // layers that pass one endpoint in a row: ceil(L / min(pp_p, pp_d))
};

// Distinct KV shards of a rank group, as the memory model holds them (docs/physics.md §10):
// kv_shard_mode split: every tp rank holds its own part (KV heads, then the sequence once tp
// exceeds h_kv; MLA's latent: the sequence), tp distinct; replicate: min(tp, h_kv) (MLA: 1),
// ranks beyond hold copies. pp stages split the layers, cp ranks the tokens.
TESSERA_API std::int64_t kv_shards(const ModelSpec& m, const PoolShape& s);

TESSERA_API KvTransfer kv_transfer(const ModelSpec& m, std::int64_t tokens, const PoolShape& prefill,
                                   const PoolShape& decode, const TransferLink& link,
                                   std::int64_t requests = 1);

// The part of the transfer after a prefill of `prefill_s` seconds that delays the first token:
// none: the whole transfer; layerwise: one layer's transfer plus what the other n - 1 layers'
// transfers through the busiest endpoint exceed the prefill of the layers after theirs:
// tau + (n - 1) max(0, tau - t_l), tau = one layer's transfer, t_l = prefill_s / L,
// n = t.serial_layers.
TESSERA_API double exposed_transfer_s(const KvTransfer& t, double prefill_s, std::int64_t layers,
                                      TransferOverlap overlap);

}  // namespace tessera
