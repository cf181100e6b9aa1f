#pragma once
// What one PE holds of the model (docs/physics.md §10): weight bytes per layer and KV bytes per token.
// Shared by the step-work builder and the memory model so the two can never disagree.
#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/layout.hpp"

namespace tessera {

struct ShardSizes {
  double attn_weight_bytes = 0;       // per layer, per PE: qkv (or MLA projections) + out
  double dense_ffn_weight_bytes = 0;  // per dense-FFN layer, per PE
  double moe_weight_bytes = 0;        // per MoE layer, per PE: router + its experts + shared
  double embedding_bytes = 0;         // input embedding per PE (first pipeline stage)
  double lm_head_bytes = 0;           // lm_head per PE (last pipeline stage; 0 when tied and pp = 1)
  double kv_bytes_per_layer = 0;      // KV cache per full-attention layer per PE for the workload's context
  double kv_bytes_sliding_layer = 0;  // per sliding-window layer: min(context, W) tokens
  double kv_bytes_chunked_layer = 0;  // per chunked layer: min(context, C) tokens
  // Per layer of the other mixer kinds, per PE: a sparse layer's indexer (replicated on the TP
  // ranks, beside attn_weight_bytes), a Gated DeltaNet layer, a Mamba-2 layer.
  double indexer_weight_bytes = 0;
  double linear_weight_bytes = 0;
  double mamba_weight_bytes = 0;
  // A sparse layer keeps every token: its KV (as a full layer's) and its index keys.
  double kv_bytes_sparse_layer = 0;
  // A linear or mamba layer's recurrent state (and its convolution's last K_c - 1 inputs) for
  // the workload's batch: constant in the context.
  double state_bytes_linear_layer = 0;
  double state_bytes_mamba_layer = 0;
  double n_kv = 1;            // KV heads held per PE
  double r = 1;               // PEs sharing one KV head
  double s_loc_fraction = 1;  // S_loc / S
};

// The KV sizes are those of `workload`'s batch and context.
TESSERA_API void compute_shards(const EvalContext& ctx, const Workload& workload, const ParallelConfig& c,
                                const Layout& layout, ShardSizes& out);

}  // namespace tessera
