// The KV handed from a prefill pool to a decode pool: docs/physics.md §12.4.
#include "physics/kv_transfer.hpp"

#include <algorithm>
#include <cmath>

#include "physics/mixer_shares.hpp"

namespace tessera {

double kv_transfer_bytes(const ModelSpec& m, std::int64_t tokens) {
  const double k = dtype_bytes(m.dtype.kv);
  const double n = static_cast<double>(tokens);
  const double per_token = m.has_mla
                               ? static_cast<double>(m.mla.kv_lora_rank + m.mla.rope_dim) * k
                               : 2 * static_cast<double>(m.kv_heads) * static_cast<double>(m.head_dim) * k;
  // What each attention kind keeps of n tokens (docs/physics.md §3, §10): every token (full,
  // sparse with its index keys), the window's or the last chunk's tokens.
  const auto layers = [&m](AttentionKind a) { return static_cast<double>(m.layers_of(a)); };
  const double W = static_cast<double>(m.attention.sliding_window),
               C = static_cast<double>(m.attention.chunk);
  double bytes = layers(AttentionKind::full) * n * per_token;
  if (layers(AttentionKind::sliding) > 0)
    bytes += layers(AttentionKind::sliding) * std::min(n, W) * per_token;
  if (layers(AttentionKind::chunked) > 0)
    bytes += layers(AttentionKind::chunked) * (n - C * std::floor((n - 1) / C)) * per_token;
  if (layers(AttentionKind::sparse) > 0)
    bytes += layers(AttentionKind::sparse) * n * (per_token + index_key_bytes(m));
  return bytes;
}

double state_transfer_bytes(const ModelSpec& m) {
  const auto layers = [&m](AttentionKind a) { return static_cast<double>(m.layers_of(a)); };
  const MixerShare whole = mixer_share(m, 1);
  const double s = dtype_bytes(m.dtype.state.value_or(m.dtype.activations));
  double bytes = 0;
  if (layers(AttentionKind::linear) > 0)
    bytes += layers(AttentionKind::linear) * linear_state_elems(m, whole) * s;
  if (layers(AttentionKind::mamba) > 0)
    bytes += layers(AttentionKind::mamba) * mamba_state_elems(m, whole) * s;
  return bytes;
}

std::int64_t kv_shards(const ModelSpec& m, const PoolShape& s) {
  const std::int64_t tp = std::max<std::int64_t>(1, s.tp);
  const std::int64_t h_kv = m.has_mla ? 1 : std::max<std::int64_t>(1, m.kv_heads);
  const std::int64_t across_tp = s.kv_replicated ? std::min(tp, h_kv) : tp;
  return across_tp * std::max<std::int64_t>(1, s.pp) * std::max<std::int64_t>(1, s.cp);
}

KvTransfer kv_transfer(const ModelSpec& m, std::int64_t tokens, const PoolShape& prefill,
                       const PoolShape& decode, const TransferLink& link, std::int64_t requests) {
  KvTransfer t;
  t.bytes = kv_transfer_bytes(m, tokens) + state_transfer_bytes(m);
  t.requests = std::max<std::int64_t>(1, requests);
  const std::int64_t sp = kv_shards(m, prefill), sd = kv_shards(m, decode);
  const double shards_d = static_cast<double>(sd);
  const double ranks_p = static_cast<double>(prefill.tp * prefill.pp * prefill.cp);
  const double ranks_d = static_cast<double>(decode.tp * decode.pp * decode.cp);
  // Each decode rank receives its shard (bytes / shards_d); together they receive ranks_d of
  // them, which the prefill ranks send evenly (a shard held by several ranks is sent by each
  // in turn).
  t.receive_bytes = t.bytes / shards_d;
  t.send_bytes = t.receive_bytes * ranks_d / ranks_p;
  t.endpoint_bytes = std::max(t.send_bytes, t.receive_bytes);
  // A decode shard spans ceil(shards_p / shards_d) prefill shards: one message from each.
  t.messages = std::max<std::int64_t>(1, (sp + sd - 1) / sd);
  t.resharded = sp != sd;
  const std::int64_t layers = std::max<std::int64_t>(1, m.layers);
  const double L = static_cast<double>(layers), n = static_cast<double>(t.requests);
  const double alpha = static_cast<double>(t.messages) * link.latency;
  t.time_s = alpha + n * t.endpoint_bytes / link.bandwidth;
  t.send_time_s = alpha + n * t.send_bytes / link.bandwidth;
  t.receive_time_s = alpha + t.receive_bytes / link.bandwidth;
  // A sender holds L / pp_p layers, a receiver L / pp_d: one layer's share at each is its
  // bytes x pp / L.
  const double pp_p = static_cast<double>(std::max<std::int64_t>(1, prefill.pp));
  const double pp_d = static_cast<double>(std::max<std::int64_t>(1, decode.pp));
  t.layer_time_s = alpha + n * std::max(t.send_bytes * pp_p, t.receive_bytes * pp_d) / (L * link.bandwidth);
  const std::int64_t pp_min = std::max<std::int64_t>(1, std::min(prefill.pp, decode.pp));
  t.serial_layers = (layers + pp_min - 1) / pp_min;
  return t;
}

double exposed_transfer_s(const KvTransfer& t, double prefill_s, std::int64_t layers,
                          TransferOverlap overlap) {
  if (overlap == TransferOverlap::none) return t.time_s;
  const double L = static_cast<double>(std::max<std::int64_t>(1, layers));
  const double tau = t.layer_time_s, per_layer = prefill_s / L;
  return tau +
         static_cast<double>(std::max<std::int64_t>(1, t.serial_layers) - 1) * std::max(0.0, tau - per_layer);
}

}  // namespace tessera
