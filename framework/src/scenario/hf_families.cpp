// The fields of a Hugging Face `config.json` by family (hf_config.cpp reads their values and
// builds the model mapping from what is read here).
//
// Falcon, GPT-J and GPT-NeoX (docs/scenario-format.md, "Hugging Face configs") have a plain
// GELU MLP and may compute attention and the MLP from the same input (`parallel_block`), each
// as its transformers modelling file does:
//   falcon   (modeling_falcon.py) parallel when `new_decoder_architecture` or `parallel_attn`
//            (default true); KV heads: `num_kv_heads` (default num_attention_heads) with the new
//            decoder architecture (Falcon-40B/180B), else 1 when `multi_query` (default true;
//            Falcon-7B), else num_attention_heads; `bias` (default false) on every linear layer;
//            `ffn_hidden_size` (default 4 x hidden_size); `tie_word_embeddings` absent means tied
//            (PretrainedConfig's default, which FalconForCausalLM follows); `alibi` changes the
//            position encoding only (not modelled).
//   gptj     (modeling_gptj.py) always parallel; n_layer, n_embd, n_head; `n_inner` (null: 4 x
//            n_embd); q/k/v/out without bias, fc_in/fc_out with; `rotary_dim` at most the head
//            dimension (partial rotary: no cost modelled).
//   gpt_neox (modeling_gpt_neox.py) parallel when `use_parallel_residual` (default true);
//            `attention_bias` (default true), MLP biases always.
//
// gpt-oss (modeling_gpt_oss.py): every layer MoE (`num_local_experts` experts of
// `intermediate_size`, `num_experts_per_tok` active), the experts' gate_up/down projections and
// the router with a bias; one learned sink logit per head (`sinks`); `layer_types` lists each
// layer's attention (`sliding_attention` over `sliding_window` tokens, `full_attention`).
// Any family whose config lists `layer_types` is read the same way (docs/scenario-format.md).
//
// What a family has without a field (Falcon's tied embeddings, gpt-oss's sinks and router bias,
// Qwen2's q/k/v bias, the GELU MLP of Falcon, GPT-J and GPT-NeoX) is written where the model
// mapping is built (hf_config.cpp).
#include "scenario/hf_families.hpp"

#include <algorithm>
#include <functional>
#include <optional>

#include "tessera/limits.hpp"

namespace tessera::loader {

namespace {

// The FFN width at `key` (Falcon's ffn_hidden_size, GPT-J's n_inner), where null or absence
// means 4 x the hidden size; absent, it stands at the hidden size's key. Without a hidden size
// (reported missing) the key is not read.
void read_ffn_or_4x_hidden(HfReader& r, HfModel& m, const std::string& key) {
  m.ffn_key = key;
  if (m.hidden) m.ffn = r.integer(key, false, 1, 4 * *m.hidden);
  if (!m.ffn && !r.present(key) && m.hidden) {
    m.ffn = 4 * *m.hidden;
    m.ffn_key = m.hidden_key;
  }
}

// modeling_falcon.py: the new decoder architecture (Falcon-40B/180B) has num_kv_heads grouped
// KV heads; the old one has one (multi_query, Falcon-7B) or one per query head.
void read_falcon(HfReader& r, HfModel& m) {
  const auto nda = r.boolean("new_decoder_architecture");
  const auto multi_query = r.boolean("multi_query");
  const auto parallel_attn = r.boolean("parallel_attn");
  r.boolean("alibi");  // a position encoding: checked, not modelled
  if (nda.value_or(false)) {
    m.kv_heads = r.integer("num_kv_heads", false);
    if (m.kv_heads) m.kv_key = "num_kv_heads";
  } else if (multi_query.value_or(true)) {
    m.kv_heads = 1;
    m.kv_key = r.present("multi_query") ? "multi_query" : "";
  }
  m.parallel = nda.value_or(false) || parallel_attn.value_or(true);
  m.parallel_key = nda.value_or(false) ? "new_decoder_architecture" : "parallel_attn";
  read_ffn_or_4x_hidden(r, m, "ffn_hidden_size");
  m.attention_bias = m.mlp_bias = r.boolean("bias").value_or(false);
}

// modeling_gptj.py: attention and MLP both read ln_1's output; q/k/v/out_proj have no bias,
// fc_in/fc_out do; n_inner null means 4 * n_embd.
void read_gptj(HfReader& r, HfModel& m) {
  read_ffn_or_4x_hidden(r, m, "n_inner");
  if (const auto rotary = r.integer("rotary_dim", false, 0, 0);
      rotary && m.hidden && m.heads && *m.heads > 0 && *rotary > *m.hidden / *m.heads)
    r.d.error(r.locate("rotary_dim"),
              "hf_config.rotary_dim: expected at most the head dimension n_embd / n_head (" +
                  std::to_string(*m.hidden / *m.heads) + "), found " + std::to_string(*rotary));
  m.parallel = true;
  m.attention_bias = false;
  m.mlp_bias = true;
}

// modeling_gpt_neox.py: use_parallel_residual (default true) feeds attention and MLP the same
// residual input; query_key_value/dense carry attention_bias (default true), the MLP's
// dense_h_to_4h/dense_4h_to_h always a bias.
void read_gpt_neox(HfReader& r, HfModel& m) {
  m.ffn = r.integer(m.ffn_key, true);
  m.parallel = r.boolean("use_parallel_residual").value_or(true);
  m.parallel_key = "use_parallel_residual";
  m.attention_bias = r.boolean("attention_bias").value_or(true);
  m.mlp_bias = true;
}

// Llama, Mistral, Qwen, DeepSeek and gpt-oss: num_key_value_heads grouped KV heads (default one
// per query head), an optional head_dim, and the biases attention_bias and mlp_bias name.
void read_llama_style(HfReader& r, HfModel& m) {
  // Llama 4's dense layers run a MLP of intermediate_size_mlp (intermediate_size is an expert's).
  if (r.family == "llama4_text") m.ffn_key = "intermediate_size_mlp";
  m.kv_heads = r.integer("num_key_value_heads", false);
  if (m.kv_heads) m.kv_key = "num_key_value_heads";
  // Nemotron-H names its attention heads' width attention_head_dim.
  m.head_dim = r.integer(r.family == "nemotron_h" ? "attention_head_dim" : "head_dim", false);
  m.ffn = r.integer(m.ffn_key, true);
  m.attention_bias = r.boolean("attention_bias");
  m.mlp_bias = r.boolean("mlp_bias");
}

// The dimensions every family has (GPT-J names them n_layer, n_embd, n_head), the family's
// attention heads, FFN and biases, then the vocabulary and whether the embeddings are tied.
void read_dimensions(HfReader& r, HfModel& m) {
  const bool gptj = r.family == "gptj";
  m.layers_key = gptj ? "n_layer" : "num_hidden_layers";
  m.hidden_key = gptj ? "n_embd" : "hidden_size";
  m.heads_key = gptj ? "n_head" : "num_attention_heads";
  m.layers = r.integer(m.layers_key, true);
  m.hidden = r.integer(m.hidden_key, true);
  m.heads = r.integer(m.heads_key, true);
  m.kv_key = m.heads_key;
  if (r.family == "falcon")
    read_falcon(r, m);
  else if (gptj)
    read_gptj(r, m);
  else if (r.family == "gpt_neox")
    read_gpt_neox(r, m);
  else
    read_llama_style(r, m);
  m.vocab = r.integer("vocab_size", true);
  m.tied = r.boolean("tie_word_embeddings");
  m.mtp_layers = r.integer("num_nextn_predict_layers", false, 0);
}

// Mixtral and gpt-oss: num_local_experts experts, intermediate_size wide. gpt-oss has MoE in
// every layer (no dense FFN) and a bias on the experts' projections.
void read_local_experts(HfReader& r, HfModel& m) {
  m.experts_key = "num_local_experts";
  m.experts = r.integer(m.experts_key, true);
  m.top_k = r.integer("num_experts_per_tok", true);
  m.expert_ffn = m.ffn;
  m.expert_ffn_key = "intermediate_size";
  if (r.family == "gpt_oss") {
    m.shared = 0;
    m.dense = 0;
    m.mlp_bias = true;
  }
}

// A list of layer indexes in [0, layers) at `mm` (Qwen-MoE's mlp_only_layers, Llama 4's
// moe_layers); the indexes, or nullopt after a diagnostic.
std::optional<std::vector<std::int64_t>> read_layer_indexes(HfReader& r, const HfModel& m,
                                                            const JMember& mm) {
  const JNode& layers = mm.value;
  if (!layers.is_array()) {
    r.d.error(mm.key_where,
              "hf_config." + mm.key + ": expected a list of layer indexes, found " + describe(layers));
    return std::nullopt;
  }
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < layers.items.size(); ++i) {
    const JNode& item = layers.items[i];
    if (item.kind != JNode::Kind::integer || item.integer < 0 || (m.layers && item.integer >= *m.layers)) {
      r.d.error(item.where, "hf_config." + mm.key + "[" + std::to_string(i) +
                                "]: expected a layer index in [0, num_hidden_layers), found " +
                                describe(item));
      return std::nullopt;
    }
    out.push_back(item.integer);
  }
  return out;
}

// Whether the layer count is read and within the model.dimension limit, so that a per-layer rule
// may walk the layers (a count past the limit is refused when the model is read).
bool layer_count_ok(const HfModel& m) {
  return m.layers && static_cast<std::uint64_t>(*m.layers) <= limit_value("model.dimension");
}

// Each layer's FFN from a rule (true: MoE), kept only when the MoE layers are not exactly the
// trailing ones (then `dense` leading dense layers say it).
void set_layer_ffns(HfModel& m, const std::string& key, const std::function<bool(std::int64_t)>& moe_at) {
  if (!layer_count_ok(m)) return;
  std::vector<bool> moe(static_cast<std::size_t>(*m.layers));
  std::int64_t leading = 0;
  for (std::int64_t i = 0; i < *m.layers; ++i) moe[static_cast<std::size_t>(i)] = moe_at(i);
  while (leading < *m.layers && !moe[static_cast<std::size_t>(leading)]) ++leading;
  const bool trailing = std::all_of(moe.begin() + leading, moe.end(), [](bool b) { return b; });
  if (trailing && leading < *m.layers) {
    m.dense = leading;
    return;
  }
  if (leading == *m.layers) {  // no layer runs the experts: a dense model, as transformers builds it
    m.experts.reset();
    return;
  }
  m.moe_layer = std::move(moe);
  m.ffn_types_key = key;
}

// Qwen2-MoE's shared expert: shared_expert_intermediate_size wide, which must be a whole number
// of routed experts (Tessera's shared experts have the routed experts' size).
void read_qwen2_shared_experts(HfReader& r, HfModel& m) {
  const auto shared_size = r.integer("shared_expert_intermediate_size", false, 0);
  if (!shared_size || *shared_size <= 0 || !m.expert_ffn || *m.expert_ffn <= 0) return;
  m.shared_key = "shared_expert_intermediate_size";
  if (*shared_size % *m.expert_ffn != 0)
    r.d.error(r.locate("shared_expert_intermediate_size"),
              "hf_config.shared_expert_intermediate_size: " + std::to_string(*shared_size) +
                  " is not a multiple of moe_intermediate_size " + std::to_string(*m.expert_ffn) +
                  ": Tessera's shared experts have the routed experts' size");
  else
    m.shared = *shared_size / *m.expert_ffn;
}

// Qwen2-MoE and Qwen3-MoE (modeling_qwen3_moe.py): num_experts experts of
// moe_intermediate_size; layer i runs them unless it is in mlp_only_layers, and only when
// (i + 1) is a multiple of decoder_sparse_step (default 1: every layer).
void read_qwen_moe(HfReader& r, HfModel& m) {
  m.experts_key = "num_experts";
  m.experts = r.integer(m.experts_key, true);
  m.top_k = r.integer("num_experts_per_tok", true);
  m.expert_ffn = r.integer("moe_intermediate_size", true);
  const std::int64_t step = r.integer("decoder_sparse_step", false).value_or(1);
  m.dense = 0;
  std::vector<std::int64_t> dense_only;
  if (const JMember* mm = r.cfg.find("mlp_only_layers")) {
    const auto v = read_layer_indexes(r, m, *mm);
    if (!v) return;
    dense_only = *v;
    std::sort(dense_only.begin(), dense_only.end());
    m.dense_key = "mlp_only_layers";
  }
  set_layer_ffns(m, step != 1 ? "decoder_sparse_step" : "mlp_only_layers", [&](std::int64_t i) {
    return !std::binary_search(dense_only.begin(), dense_only.end(), i) && (i + 1) % step == 0;
  });
  m.shared = 0;
  if (r.family == "qwen2_moe" || r.family == "qwen3_next") read_qwen2_shared_experts(r, m);
}

// DeepSeek-V2/V3, Kimi-K2 and GLM-4.5 MoE: n_routed_experts experts of moe_intermediate_size,
// n_shared_experts shared ones, and first_k_dense_replace leading dense layers, then MoE in every
// layer.
void read_deepseek_moe(HfReader& r, HfModel& m) {
  m.experts_key = "n_routed_experts";
  m.experts = r.integer(m.experts_key, true);
  m.top_k = r.integer("num_experts_per_tok", true);
  m.expert_ffn = r.integer("moe_intermediate_size", true);
  m.shared_key = "n_shared_experts";
  m.shared = r.integer(m.shared_key, false, 0).value_or(0);
  m.dense_key = "first_k_dense_replace";
  m.dense = r.integer(m.dense_key, false, 0).value_or(0);
  // modeling_deepseek.py: layer i runs the experts when i >= first_k_dense_replace and i is a
  // multiple of moe_layer_freq (default 1).
  // GLM-4.5's modelling file (modeling_glm4_moe.py) has no moe_layer_freq: not read for it.
  const std::int64_t freq = r.deepseek() ? r.integer("moe_layer_freq", false).value_or(1) : 1;
  const std::int64_t first = *m.dense;
  if (freq != 1)
    set_layer_ffns(m, "moe_layer_freq", [&](std::int64_t i) { return i >= first && i % freq == 0; });
}

// Llama 4 (configuration_llama4.py, modeling_llama4.py): num_local_experts experts of
// intermediate_size, top num_experts_per_tok, and one shared expert of the same size in every
// MoE layer; the MoE layers are `moe_layers` when given, else every interleave_moe_layer_step-th
// layer from layer step - 1 (range(step - 1, layers, step)).
void read_llama4_moe(HfReader& r, HfModel& m) {
  m.experts_key = "num_local_experts";
  m.experts = r.integer(m.experts_key, true);
  m.top_k = r.integer("num_experts_per_tok", true);
  m.expert_ffn_key = "intermediate_size";
  m.expert_ffn = r.integer(m.expert_ffn_key, true);
  m.shared = 1;
  m.dense = 0;
  const std::int64_t step = r.integer("interleave_moe_layer_step", false).value_or(1);
  std::optional<std::vector<std::int64_t>> listed;
  if (const JMember* ml = r.cfg.find("moe_layers"); ml && !ml->value.is_null()) {
    listed = read_layer_indexes(r, m, *ml);
    if (!listed) return;
    std::sort(listed->begin(), listed->end());
  }
  set_layer_ffns(m, listed ? "moe_layers" : "interleave_moe_layer_step", [&](std::int64_t i) {
    return listed ? std::binary_search(listed->begin(), listed->end(), i) : i % step == step - 1;
  });
}

// The MoE fields by family; the other families, and DeepSeek without n_routed_experts, are dense.
// GLM-4.5 (modeling_glm4_moe.py) names its experts as DeepSeek-V3 does, with GQA attention.
void read_moe(HfReader& r, HfModel& m) {
  if (r.family == "gpt_oss" || r.family == "mixtral")
    read_local_experts(r, m);
  else if (r.family == "qwen3_moe" || r.family == "qwen2_moe" || r.family == "qwen3_next")
    read_qwen_moe(r, m);
  else if ((r.deepseek() && r.present("n_routed_experts")) || r.family == "glm4_moe")
    read_deepseek_moe(r, m);
  else if (r.family == "llama4_text")
    read_llama4_moe(r, m);
}

// DeepSeek's multi-head latent attention.
void read_mla(HfReader& r, HfModel& m) {
  if (!r.deepseek()) return;
  m.kv_lora = r.integer("kv_lora_rank", true);
  m.q_lora = r.integer("q_lora_rank", false, 0, 0).value_or(0);  // null: no query compression
  m.rope = r.integer("qk_rope_head_dim", true);
  m.nope = r.integer("qk_nope_head_dim", true);
  m.v_head = r.integer("v_head_dim", true);
}

// Each layer's kind by an `interval` rule: layer i is `other` when (i + 1) is a multiple of the
// interval, else `every`; decided at `key` (the file when absent).
void kinds_by_interval(HfReader& r, HfModel& m, const std::string& key, std::int64_t interval,
                       const char* every, const char* other) {
  if (!layer_count_ok(m)) return;
  m.kinds_key = key;
  const SourceLocation at = r.at(r.present(key) ? key : "");
  for (std::int64_t i = 0; i < *m.layers; ++i)
    m.kinds.emplace_back((i + 1) % interval == 0 ? other : every, at);
}

// Llama 4 and Gemma 3 without `layer_types`, as their modelling files decide. Llama 4
// (modeling_llama4.py): layer i uses RoPE and attends within attention_chunk_size tokens unless
// (i + 1) is a multiple of 4 (no_rope_layer_interval), a global NoPE layer; `no_rope_layers`
// (1: RoPE) overrides the rule; without attention_chunk_size every layer is full. Gemma 3
// (modeling_gemma3.py): every sliding_window_pattern-th layer global, the others sliding over
// sliding_window tokens.
void read_layer_rule(HfReader& r, HfModel& m) {
  if (r.family == "gemma3_text") {
    const std::int64_t pattern = r.integer("sliding_window_pattern", false).value_or(6);
    kinds_by_interval(r, m, "sliding_window_pattern", pattern, "sliding", "full");
    m.window = r.integer("sliding_window", true);
    return;
  }
  const JMember* chunk = r.cfg.find("attention_chunk_size");
  if (!chunk || chunk->value.is_null()) return;
  m.chunk = r.integer("attention_chunk_size", true);
  const JMember* nope = r.cfg.find("no_rope_layers");
  if (!nope || nope->value.is_null() || (nope->value.is_array() && nope->value.items.empty())) {
    kinds_by_interval(r, m, "no_rope_layer_interval", r.integer("no_rope_layer_interval", false).value_or(4),
                      "chunked", "full");
    return;
  }
  m.kinds_key = "no_rope_layers";
  const JNode& list = nope->value;
  if (!list.is_array() || (m.layers && static_cast<std::int64_t>(list.items.size()) != *m.layers)) {
    r.d.error(nope->key_where,
              "hf_config.no_rope_layers: expected one 0 or 1 per layer (1: RoPE and chunked "
              "attention), found " +
                  describe(list));
    return;
  }
  for (std::size_t i = 0; i < list.items.size(); ++i) {
    const JNode& item = list.items[i];
    if (item.kind != JNode::Kind::integer || (item.integer != 0 && item.integer != 1)) {
      r.d.error(item.where, "hf_config.no_rope_layers[" + std::to_string(i) + "]: expected 0 or 1, found " +
                                describe(item));
      return;
    }
    m.kinds.emplace_back(item.integer == 1 ? "chunked" : "full", item.where);
  }
}

// Nemotron-H (configuration_nemotron_h.py): hybrid_override_pattern, one character per layer —
// M a Mamba-2 mixer, * self-attention, - an MLP (relu2) — each layer running one of them.
void read_hybrid_pattern(HfReader& r, HfModel& m) {
  const JMember* p = r.cfg.find("hybrid_override_pattern");
  if (!p) {
    r.missing.push_back("hybrid_override_pattern");
    return;
  }
  if (!p->value.is_string()) {
    r.d.error(p->key_where,
              "hf_config.hybrid_override_pattern: expected a string of M, * and -, one per "
              "layer, found " +
                  describe(p->value));
    return;
  }
  const std::string& text = p->value.text;
  // Each character first (a character of several bytes is no layer), then the count.
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == 'M' || c == '*' || c == '-') continue;
    const bool printable = static_cast<unsigned char>(c) < 0x80 && c >= 0x20;
    r.d.error(p->value.where,
              "hf_config.hybrid_override_pattern[" + std::to_string(i) +
                  "]: expected M (Mamba-2), * (attention) or - (MLP), the layers Tessera "
                  "models, found " +
                  (printable ? "'" + std::string(1, c) + "'" : std::string("a non-ASCII byte")));
    return;
  }
  if (m.layers && static_cast<std::int64_t>(text.size()) != *m.layers) {
    r.d.error(p->key_where, "hf_config.hybrid_override_pattern: expected one of M, * and - per layer (" +
                                std::to_string(*m.layers) + ", num_hidden_layers), found " +
                                std::to_string(text.size()));
    return;
  }
  m.kinds_key = "hybrid_override_pattern";
  m.ffn_types_key = "hybrid_override_pattern";
  for (const char c : text) {
    m.kinds.emplace_back(c == 'M' ? "mamba" : c == '*' ? "full" : "none", p->value.where);
    m.layer_ffns.emplace_back(c == '-' ? "dense" : "none");
  }
  m.ssm_heads = r.integer("mamba_num_heads", true);
  m.ssm_head_dim = r.integer("mamba_head_dim", true);
  m.ssm_state = r.integer("ssm_state_size", true);
  m.ssm_groups = r.integer("n_groups", false);
  m.ssm_conv = r.integer("conv_kernel", false);
  m.ssm_chunk = r.integer("chunk_size", false);
  m.state_fp32 = true;
}

// Qwen3-Next (configuration_qwen3_next.py): without layer_types, layer i is full attention when
// (i + 1) is a multiple of full_attention_interval (default 4), else Gated DeltaNet; gated
// attention; the linear layers' sizes.
void read_qwen3_next(HfReader& r, HfModel& m) {
  m.output_gate = true;
  m.lin_key_heads = r.integer("linear_num_key_heads", true);
  m.lin_value_heads = r.integer("linear_num_value_heads", true);
  m.lin_key_dim = r.integer("linear_key_head_dim", true);
  m.lin_value_dim = r.integer("linear_value_head_dim", true);
  m.lin_conv = r.integer("linear_conv_kernel_dim", false);
  if (!r.cfg.find("layer_types"))
    kinds_by_interval(r, m, "full_attention_interval",
                      r.integer("full_attention_interval", false).value_or(4), "linear", "full");
}

// DeepSeek-V3.2 (model_type deepseek_v32): every layer's MLA runs DeepSeek sparse attention.
void read_sparse_attention(HfReader& r, HfModel& m) {
  m.index_heads = r.integer("index_n_heads", true);
  m.index_head_dim = r.integer("index_head_dim", true);
  m.index_top_k = r.integer("index_topk", true);
  if (!layer_count_ok(m)) return;
  m.kinds_key = "index_topk";
  for (std::int64_t i = 0; i < *m.layers; ++i) m.kinds.emplace_back("sparse", r.at("index_topk"));
}

// Per-layer attention kinds: `layer_types` (required for gpt-oss), and the sliding window
// when a layer slides. Kinds Tessera does not model are refused at their entry.
void read_layer_types(HfReader& r, HfModel& m) {
  if (r.family == "nemotron_h") return read_hybrid_pattern(r, m);
  if (r.family == "qwen3_next") read_qwen3_next(r, m);
  if (r.family == "deepseek_v32") return read_sparse_attention(r, m);
  const JMember* lt = r.cfg.find("layer_types");
  if (!lt && r.family == "gpt_oss") r.missing.push_back("layer_types");
  if (!lt && (r.family == "llama4_text" || r.family == "gemma3_text")) read_layer_rule(r, m);
  if (!lt) return;
  if (!lt->value.is_array()) {
    r.d.error(lt->key_where,
              "hf_config.layer_types: expected a list of layer kinds, found " + describe(lt->value));
    return;
  }
  for (std::size_t i = 0; i < lt->value.items.size(); ++i) {
    const JNode& item = lt->value.items[i];
    const std::string text = item.is_string() ? item.text : std::string();
    // Gated DeltaNet layers (linear_attention) exist in Qwen3-Next only: its sizes are its keys.
    const bool linear_family = r.family == "qwen3_next";
    const std::string kind = text == "full_attention"                      ? "full"
                             : text == "sliding_attention"                 ? "sliding"
                             : text == "linear_attention" && linear_family ? "linear"
                                                                           : "";
    if (kind.empty()) {
      r.d.error(item.where,
                "hf_config.layer_types[" + std::to_string(i) + "]: expected full_attention" +
                    (linear_family ? ", sliding_attention or linear_attention" : " or sliding_attention") +
                    " (the kinds Tessera models" + (linear_family ? "" : " for " + r.family) + "), found " +
                    describe(item));
      continue;
    }
    m.kinds.emplace_back(kind, item.where);
  }
  if (std::any_of(m.kinds.begin(), m.kinds.end(), [](const auto& k) { return k.first == "sliding"; }))
    m.window = r.integer("sliding_window", true);
}

}  // namespace

void read_hf_fields(HfReader& r, HfModel& m) {
  read_dimensions(r, m);
  read_moe(r, m);
  read_mla(r, m);
  read_layer_types(r, m);
}

}  // namespace tessera::loader
