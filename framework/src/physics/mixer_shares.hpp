#pragma once
// What one PE holds of a linear (Gated DeltaNet), mamba (Mamba-2) or sparse layer's heads and
// state (docs/physics.md §3 "Recurrent layers", "Sparse attention"). Internal to the physics:
// shared by the step work and the shard sizes so the two agree.
#include <algorithm>

#include "tessera/model.hpp"

namespace tessera {

// Heads per PE under tensor parallelism of `tp`: split by heads, replicated when tp exceeds them
// (as KV heads are).
struct MixerShare {
  double nk = 0, nv = 0;  // Gated DeltaNet key and value heads
  double nh = 0, ng = 0;  // Mamba-2 heads and B/C groups
};

inline MixerShare mixer_share(const ModelSpec& m, double tp) {
  const auto per = [tp](std::int64_t n) { return n > 0 ? std::max(1.0, static_cast<double>(n) / tp) : 0.0; };
  return {per(m.linear.key_heads), per(m.linear.value_heads), per(m.mamba.heads), per(m.mamba.groups)};
}

// The convolution's channels per PE: q, k and v (Gated DeltaNet); x, B and C (Mamba-2).
inline double linear_conv_channels(const ModelSpec& m, const MixerShare& s) {
  return 2 * s.nk * static_cast<double>(m.linear.key_head_dim) +
         s.nv * static_cast<double>(m.linear.value_head_dim);
}
inline double mamba_conv_channels(const ModelSpec& m, const MixerShare& s) {
  return s.nh * static_cast<double>(m.mamba.head_dim) + 2 * s.ng * static_cast<double>(m.mamba.state_size);
}

// State elements one sequence keeps per layer on a PE: the d_k x d_v (Gated DeltaNet) or
// P x N (Mamba-2) matrix of each head, and the convolution's last K_c - 1 inputs.
inline double linear_state_elems(const ModelSpec& m, const MixerShare& s) {
  const auto& a = m.linear;
  return s.nv * static_cast<double>(a.key_head_dim) * static_cast<double>(a.value_head_dim) +
         static_cast<double>(a.conv_kernel - 1) * linear_conv_channels(m, s);
}
inline double mamba_state_elems(const ModelSpec& m, const MixerShare& s) {
  const auto& a = m.mamba;
  return s.nh * static_cast<double>(a.head_dim) * static_cast<double>(a.state_size) +
         static_cast<double>(a.conv_kernel - 1) * mamba_conv_channels(m, s);
}

// The parameters of one Gated DeltaNet layer a PE holds (the whole layer: mixer_share(m, 1)):
// in_proj_qkvz, in_proj_ba, the convolution (no bias), dt_bias and A_log, the gated norm, out_proj
// (modeling_qwen3_next.py; docs/physics.md §2).
inline double linear_layer_params(const ModelSpec& m, const MixerShare& s) {
  const auto& a = m.linear;
  const double H = static_cast<double>(m.hidden);
  const double dk = static_cast<double>(a.key_head_dim), dv = static_cast<double>(a.value_head_dim);
  return H * (2 * s.nk * dk + 2 * s.nv * dv + 2 * s.nv) +
         linear_conv_channels(m, s) * static_cast<double>(a.conv_kernel) + 2 * s.nv + dv + s.nv * dv * H;
}
// The same of one Mamba-2 layer: in_proj (z, x, B, C, dt), the convolution with its bias,
// dt_bias, A_log and D, the gated norm, out_proj (modeling_nemotron_h.py).
inline double mamba_layer_params(const ModelSpec& m, const MixerShare& s) {
  const double H = static_cast<double>(m.hidden);
  const double Di = s.nh * static_cast<double>(m.mamba.head_dim);
  const double BC = 2 * s.ng * static_cast<double>(m.mamba.state_size);
  return H * (2 * Di + BC + s.nh) +
         mamba_conv_channels(m, s) * (static_cast<double>(m.mamba.conv_kernel) + 1) + 3 * s.nh + Di + Di * H;
}

// Bytes of one token's index key (DeepSeek-V3.2's indexer cache): d_I FP8 values and one fp32
// scale (DeepSeek's inference code quantises each 128-wide key block with its own scale).
inline double index_key_bytes(const ModelSpec& m) {
  return static_cast<double>(m.sparse.index_head_dim) + 4.0;
}

}  // namespace tessera
