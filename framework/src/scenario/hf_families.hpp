#pragma once
// A Hugging Face config.json's fields read by family: the reader of its values (hf_config.cpp)
// and what the fields say of the model (read by hf_families.cpp).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scenario/readers/json_tree.hpp"

namespace tessera::loader {

// The config being read as `family`, with the keys Tessera needs that it lacks.
struct HfReader {
  const JNode& cfg;
  const std::string& family;
  Diags& d;
  std::vector<std::string> missing;

  const JMember* member(const std::string& key) const { return cfg.find(key); }

  SourceLocation locate(const std::string& key) const {
    const JMember* m = member(key);
    return m ? m->key_where : cfg.where;
  }

  // Where a value read from `key` stands in the model tree: at the key; at the file when "".
  SourceLocation at(const std::string& key) const { return key.empty() ? cfg.where : locate(key); }

  bool present(const std::string& key) const { return member(key) != nullptr; }

  // DeepSeek-V2/V3 and Kimi-K2 (DeepSeek-V3's architecture, model_type kimi_k2): multi-head
  // latent attention, MoE when n_routed_experts is given.
  bool deepseek() const {
    return family == "deepseek_v2" || family == "deepseek_v3" || family == "deepseek_v32" ||
           family == "kimi_k2";
  }

  // An integer field in [min, 2^53); nullopt (recorded as missing when required) when absent,
  // and (recorded as an error) when null or out of range. `null_means` : the value a JSON null
  // stands for, when Hugging Face uses null for it (q_lora_rank).
  std::optional<std::int64_t> integer(const std::string& key, bool required, std::int64_t min = 1,
                                      std::optional<std::int64_t> null_means = std::nullopt);

  // A boolean field; nullopt when absent, and (recorded as an error) when not true or false.
  std::optional<bool> boolean(const std::string& key);
};

// What the config says of the model, each value with the key it was read from (where it stands
// in the model tree; "" stands for the file). A value left nullopt was absent or refused.
struct HfModel {
  std::string layers_key, hidden_key, heads_key;
  std::optional<std::int64_t> layers, hidden, heads, kv_heads, head_dim, ffn, vocab;
  std::string kv_key, ffn_key = "intermediate_size", parallel_key;
  std::optional<bool> attention_bias, mlp_bias, parallel, tied;
  std::optional<std::int64_t> mtp_layers;  // num_nextn_predict_layers (speculative drafters)
  // MoE, when `experts` was read.
  std::optional<std::int64_t> experts, top_k, expert_ffn, shared, dense;
  std::string experts_key, expert_ffn_key = "moe_intermediate_size", shared_key, dense_key;
  // Each layer's FFN (true: MoE) when the MoE layers are not the trailing ones (Qwen's
  // decoder_sparse_step and mlp_only_layers, DeepSeek's moe_layer_freq), read from `ffn_key_from`;
  // empty: `dense` leading dense layers.
  std::vector<bool> moe_layer;
  std::string ffn_types_key;
  // Multi-head latent attention (DeepSeek).
  std::optional<std::int64_t> kv_lora, q_lora, rope, nope, v_head;
  // Each layer's attention kind ("full", "sliding", "chunked") where it was decided (a
  // `layer_types` entry, or the key of the rule); the window and the chunk, and the keys of the
  // rule that gave the kinds ("" when `layer_types` lists them).
  std::vector<std::pair<std::string, SourceLocation>> kinds;
  std::optional<std::int64_t> window, chunk;
  std::string kinds_key;
  // Each layer's FFN by name ("dense", "none") where a dense model's layers differ (Nemotron-H's
  // hybrid_override_pattern), decided at `ffn_types_key`; empty: every layer has its FFN.
  std::vector<std::string> layer_ffns;
  // Qwen3-Next: gated attention and Gated DeltaNet's sizes.
  bool output_gate = false;
  std::optional<std::int64_t> lin_key_heads, lin_value_heads, lin_key_dim, lin_value_dim, lin_conv;
  // Nemotron-H: Mamba-2's sizes; its recurrent state kept in fp32 (vLLM's NemotronH default).
  std::optional<std::int64_t> ssm_heads, ssm_head_dim, ssm_state, ssm_groups, ssm_conv, ssm_chunk;
  bool state_fp32 = false;
  // DeepSeek-V3.2: the sparse attention's indexer and top-k.
  std::optional<std::int64_t> index_heads, index_head_dim, index_top_k;
};

// Reads every field r.family has into `m`: the dimensions, attention and FFN, MoE, MLA and the
// layer kinds, in that order (the order of their diagnostics).
void read_hf_fields(HfReader& r, HfModel& m);

}  // namespace tessera::loader
