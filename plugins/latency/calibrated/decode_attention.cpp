// Decode-attention efficiency of latency/calibrated as a function of the step's shape: the KV
// token-heads a PE reads (B·S·h_kv), the GQA ratio and the KV cache's page (block) size
// (docs/physics.md §7.5, calibrated.hpp). Every constant is a-priori, with its source here.
#include <algorithm>

#include "calibrated.hpp"

namespace tessera::plugins {

double decode_attention_occupancy(double kv_token_heads) {
  if (!(kv_token_heads > 0)) return 1.0;
  return std::min(1.0, kv_token_heads / kDecodeWaveTokenHeads);
}

double decode_attention_page_factor(double page_tokens) {
  if (!(page_tokens > 0)) return 1.0;  // contiguous cache (or a kernel with no page penalty)
  return page_tokens / (page_tokens + kDecodePageHalfTokens);
}

double decode_attention_mma_fill(double gqa_ratio) {
  if (!(gqa_ratio > 0)) return 1.0;
  return std::min(1.0, gqa_ratio / kMmaRows);
}

DecodeAttentionEfficiency decode_attention_efficiency(double kv_token_heads, double gqa_ratio,
                                                      double page_tokens) {
  DecodeAttentionEfficiency e;
  e.bandwidth = decode_attention_occupancy(kv_token_heads) * decode_attention_page_factor(page_tokens);
  e.compute = decode_attention_mma_fill(gqa_ratio);
  return e;
}

}  // namespace tessera::plugins
