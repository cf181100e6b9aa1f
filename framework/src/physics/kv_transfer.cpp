// The KV handed from a prefill pool to a decode pool: docs/physics.md §12.4.
#include "physics/kv_transfer.hpp"

#include <algorithm>

namespace tessera {

double kv_transfer_bytes(const ModelSpec& m, std::int64_t tokens) {
  const double k = dtype_bytes(m.dtype.kv);
  const double L = static_cast<double>(m.layers), n = static_cast<double>(tokens);
  if (m.has_mla) return L * static_cast<double>(m.mla.kv_lora_rank + m.mla.rope_dim) * k * n;
  return 2 * L * static_cast<double>(m.kv_heads) * static_cast<double>(m.head_dim) * k * n;
}

std::int64_t kv_shards(const ModelSpec& m, const PoolShape& s) {
  const std::int64_t heads =
      m.has_mla || s.kv_replicated ? 1 : std::max<std::int64_t>(1, std::min(s.tp, m.kv_heads));
  return heads * std::max<std::int64_t>(1, s.pp) * std::max<std::int64_t>(1, s.cp);
}

KvTransfer kv_transfer(const ModelSpec& m, std::int64_t tokens, const PoolShape& prefill,
                       const PoolShape& decode, const TransferLink& link) {
  KvTransfer t;
  t.bytes = kv_transfer_bytes(m, tokens);
  const std::int64_t sp = kv_shards(m, prefill), sd = kv_shards(m, decode);
  const double shards_d = static_cast<double>(sd);
  const double ranks_p = static_cast<double>(prefill.tp * prefill.pp * prefill.cp);
  const double ranks_d = static_cast<double>(decode.tp * decode.pp * decode.cp);
  // Each decode rank receives its shard (bytes / shards_d); together they receive ranks_d of
  // them, which the prefill ranks send evenly (a shard held by several ranks is sent by each
  // in turn).
  const double receive = t.bytes / shards_d;
  const double send = receive * ranks_d / ranks_p;
  t.endpoint_bytes = std::max(send, receive);
  // A decode shard spans ceil(shards_p / shards_d) prefill shards: one message from each.
  t.messages = std::max<std::int64_t>(1, (sp + sd - 1) / sd);
  t.resharded = sp != sd;
  const double L = static_cast<double>(std::max<std::int64_t>(1, m.layers));
  const double alpha = static_cast<double>(t.messages) * link.latency;
  t.time_s = alpha + t.endpoint_bytes / link.bandwidth;
  t.layer_time_s = alpha + t.endpoint_bytes / (L * link.bandwidth);
  return t;
}

double exposed_transfer_s(const KvTransfer& t, double prefill_s, std::int64_t layers,
                          TransferOverlap overlap) {
  if (overlap == TransferOverlap::none) return t.time_s;
  const double L = static_cast<double>(std::max<std::int64_t>(1, layers));
  const double tau = t.layer_time_s, per_layer = prefill_s / L;
  return tau + (L - 1) * std::max(0.0, tau - per_layer);
}

}  // namespace tessera
