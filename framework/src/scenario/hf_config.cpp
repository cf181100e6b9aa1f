// Hugging Face `config.json` import (docs/specification.md §2.2 "Model file"): Llama, Mistral/Mixtral,
// Qwen2/Qwen2-MoE/Qwen3/
// Qwen3-MoE, DeepSeek-V2/V3, Falcon, GPT-J and GPT-NeoX families. The config becomes a model
// mapping in the loader's tree (each value located at its key in the JSON text), so that
// overrides and the model schema's checks apply to it exactly as to a YAML model file. Dtypes
// are bf16.
//
// The JSON is held to the YAML standard (docs/limits.md, "JSON and CSV"): read through
// json_tree (locations, duplicate keys, depth, size), and every field Tessera reads must be an
// integer in its range — null, zero, negative, fractional or huge values are refused at their
// key, never defaulted (a null `n_routed_experts` would otherwise make DeepSeek-V3 dense).
// The exceptions are the nulls Hugging Face documents a meaning for: `q_lora_rank` (no query
// compression), GPT-J's `n_inner` and Falcon's `ffn_hidden_size` (4 x the hidden size).
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
#include "scenario/hf_config.hpp"

#include <algorithm>
#include <filesystem>

#include "core/text/nearest_name.hpp"
#include "core/text/safe_text.hpp"
#include "scenario/readers/json_tree.hpp"
#include "scenario/readers/schema_util.hpp"

namespace tessera::loader {

namespace {

// Integers above 2^53 are not exact in a double, which the physics computes in.
constexpr std::int64_t kMaxInt = (std::int64_t{1} << 53) - 1;

struct Reader {
  const JNode& cfg;
  const std::string& family;
  Diags& d;
  std::vector<std::string> missing;

  const JMember* member(const std::string& key) const { return cfg.find(key); }

  SourceLocation locate(const std::string& key) const {
    const JMember* m = member(key);
    return m ? m->key_where : cfg.where;
  }

  bool present(const std::string& key) const { return member(key) != nullptr; }

  // An integer field in [min, 2^53); nullopt (recorded as missing when required) when absent,
  // and (recorded as an error) when null or out of range. `null_means` : the value a JSON null
  // stands for, when Hugging Face uses null for it (q_lora_rank).
  std::optional<std::int64_t> integer(const std::string& key, bool required, std::int64_t min = 1,
                                      std::optional<std::int64_t> null_means = std::nullopt) {
    const JMember* m = member(key);
    if (!m) {
      if (required) missing.push_back(key);
      return std::nullopt;
    }
    const JNode& v = m->value;
    if (v.is_null() && null_means) return null_means;
    std::optional<std::int64_t> x;
    if (v.kind == JNode::Kind::integer) {
      x = v.integer;
    } else if (v.kind == JNode::Kind::real && v.real >= -9.0e15 && v.real <= 9.0e15 &&
               v.real == static_cast<double>(static_cast<std::int64_t>(v.real))) {
      x = static_cast<std::int64_t>(v.real);
    }
    if (x && *x >= min && *x <= kMaxInt) return x;
    const std::string range = min == 0 ? "a non-negative integer" : "a positive integer";
    d.error(m->key_where,
            "hf_config." + key + ": expected " + range + " (at most 2^53-1), found " + describe(v) +
                (v.is_null() ? " (Tessera does not guess what a null stands for: give the value)" : ""));
    return std::nullopt;
  }

  std::optional<bool> boolean(const std::string& key) {
    const JMember* m = member(key);
    if (!m) return std::nullopt;
    if (m->value.kind == JNode::Kind::boolean) return m->value.boolean;
    d.error(m->key_where, "hf_config." + key + ": expected true or false, found " + describe(m->value));
    return std::nullopt;
  }
};

YNode scalar(const std::string& text, const SourceLocation& where) {
  YNode n;
  n.kind = YNode::Kind::scalar;
  n.value = text;
  n.where = where;
  return n;
}

YNode mapping(const SourceLocation& where) {
  YNode n;
  n.kind = YNode::Kind::mapping;
  n.where = where;
  return n;
}

// The family to read with: model_type when supported, else the user's `family:`. Records the
// refusal and returns "" otherwise.
std::string choose_family(const JNode& cfg, const std::optional<HfFamily>& chosen, Diags& d) {
  const auto& families = hf_families();
  const auto known = [&](const std::string& f) {
    return std::find(families.begin(), families.end(), f) != families.end();
  };
  const std::string how =
      "if it follows one of them, name it: model: {hf_config: PATH, family: llama}; otherwise describe "
      "the model in a YAML model file";
  if (chosen && !known(chosen->name)) {
    d.error(chosen->where, "model.family: '" + chosen->name + "' is not a supported family" +
                               did_you_mean(chosen->name, families) + " (supported: " + join_names(families) +
                               ")");
    return "";
  }
  const JMember* mt = cfg.find("model_type");
  if (mt && !mt->value.is_string()) {
    d.error(mt->key_where, "hf_config.model_type: expected a string, found " + describe(mt->value));
    return "";
  }
  const std::string model_type = mt ? mt->value.text : std::string();
  if (known(model_type)) {
    if (chosen && chosen->name != model_type) {
      d.error(chosen->where, "model.family: '" + chosen->name + "' contradicts the config's model_type '" +
                                 model_type + "' (line " + std::to_string(mt->key_where.line) +
                                 "), a supported family: drop family: or correct it");
      return "";
    }
    return model_type;
  }
  if (chosen) return chosen->name;
  if (!mt)
    d.error(cfg.where, "hf_config: the config has no model_type; supported families are " +
                           join_names(families) + "; " + how);
  else
    d.error(mt->value.where, "hf_config.model_type: '" + excerpt(model_type, 64) +
                                 "' is not a supported family (" + join_names(families) + "); " + how);
  return "";
}

}  // namespace

const std::vector<std::string>& hf_families() {
  static const std::vector<std::string> kFamilies = {
      "llama",       "mistral",     "mixtral", "qwen2", "qwen2_moe", "qwen3",  "qwen3_moe",
      "deepseek_v2", "deepseek_v3", "falcon",  "gptj",  "gpt_neox",  "gpt_oss"};
  return kFamilies;
}

namespace {
std::optional<YNode> hf_model(const std::optional<JNode>& doc, const std::string& path, Diags& d,
                              const std::optional<HfFamily>& chosen);
}  // namespace

std::optional<YNode> hf_config_tree(const std::string& path, Diags& d,
                                    const std::optional<HfFamily>& chosen) {
  return hf_model(read_json_file(path, "Hugging Face config file", d), path, d, chosen);
}

std::optional<YNode> hf_config_tree_from_text(const std::string& text, const std::string& path, Diags& d,
                                              const std::optional<HfFamily>& chosen) {
  return hf_model(parse_json_text(text, path, d), path, d, chosen);
}

namespace {

std::optional<YNode> hf_model(const std::optional<JNode>& doc, const std::string& path, Diags& d,
                              const std::optional<HfFamily>& chosen) {
  const std::size_t before = d.size();
  if (!doc) return std::nullopt;
  const JNode& cfg = *doc;
  if (!cfg.is_object()) {
    d.error(cfg.where,
            "hf_config: expected a JSON object (a Hugging Face config.json), found " + describe(cfg));
    return std::nullopt;
  }
  const SourceLocation file_loc = cfg.where;
  const std::string family = choose_family(cfg, chosen, d);
  if (family.empty()) return std::nullopt;
  const std::string model_type = cfg.find("model_type") ? cfg.find("model_type")->value.text : std::string();
  Reader r{cfg, family, d, {}};

  const bool deepseek = family == "deepseek_v2" || family == "deepseek_v3";
  const bool falcon = family == "falcon", gptj = family == "gptj", neox = family == "gpt_neox";
  const bool gpt_oss = family == "gpt_oss";
  const std::string layers_key = gptj ? "n_layer" : "num_hidden_layers";
  const std::string hidden_key = gptj ? "n_embd" : "hidden_size";
  const std::string heads_key = gptj ? "n_head" : "num_attention_heads";
  const auto layers = r.integer(layers_key, true);
  const auto hidden = r.integer(hidden_key, true);
  const auto heads = r.integer(heads_key, true);
  std::optional<std::int64_t> kv_heads, head_dim, ffn;
  std::string kv_key = heads_key, ffn_key = "intermediate_size", parallel_key;
  std::optional<bool> attention_bias, mlp_bias, parallel;
  if (falcon) {
    // modeling_falcon.py: the new decoder architecture (Falcon-40B/180B) has num_kv_heads
    // grouped KV heads; the old one has one (multi_query, Falcon-7B) or one per query head.
    const auto nda = r.boolean("new_decoder_architecture");
    const auto multi_query = r.boolean("multi_query");
    const auto parallel_attn = r.boolean("parallel_attn");
    r.boolean("alibi");  // a position encoding: checked, not modelled
    if (nda.value_or(false)) {
      kv_heads = r.integer("num_kv_heads", false);
      if (kv_heads) kv_key = "num_kv_heads";
    } else if (multi_query.value_or(true)) {
      kv_heads = 1;
      kv_key = r.present("multi_query") ? "multi_query" : "";
    }
    parallel = nda.value_or(false) || parallel_attn.value_or(true);
    parallel_key = nda.value_or(false) ? "new_decoder_architecture" : "parallel_attn";
    ffn_key = "ffn_hidden_size";
    if (hidden) ffn = r.integer(ffn_key, false, 1, 4 * *hidden);
    if (!ffn && !r.present(ffn_key) && hidden) {
      ffn = 4 * *hidden;
      ffn_key = hidden_key;
    }
    attention_bias = mlp_bias = r.boolean("bias").value_or(false);
  } else if (gptj) {
    // modeling_gptj.py: attention and MLP both read ln_1's output; q/k/v/out_proj have no bias,
    // fc_in/fc_out do; n_inner null means 4 * n_embd.
    ffn_key = "n_inner";
    if (hidden) ffn = r.integer(ffn_key, false, 1, 4 * *hidden);
    if (!ffn && !r.present(ffn_key) && hidden) {
      ffn = 4 * *hidden;
      ffn_key = hidden_key;
    }
    if (const auto rotary = r.integer("rotary_dim", false, 0, 0);
        rotary && hidden && heads && *heads > 0 && *rotary > *hidden / *heads)
      d.error(r.locate("rotary_dim"),
              "hf_config.rotary_dim: expected at most the head dimension n_embd / n_head (" +
                  std::to_string(*hidden / *heads) + "), found " + std::to_string(*rotary));
    parallel = true;
    attention_bias = false;
    mlp_bias = true;
  } else if (neox) {
    // modeling_gpt_neox.py: use_parallel_residual (default true) feeds attention and MLP the
    // same residual input; query_key_value/dense carry attention_bias (default true), the MLP's
    // dense_h_to_4h/dense_4h_to_h always a bias.
    ffn = r.integer(ffn_key, true);
    parallel = r.boolean("use_parallel_residual").value_or(true);
    parallel_key = "use_parallel_residual";
    attention_bias = r.boolean("attention_bias").value_or(true);
    mlp_bias = true;
  } else {
    kv_heads = r.integer("num_key_value_heads", false);
    if (kv_heads) kv_key = "num_key_value_heads";
    head_dim = r.integer("head_dim", false);
    ffn = r.integer(ffn_key, true);
    attention_bias = r.boolean("attention_bias");
    mlp_bias = r.boolean("mlp_bias");
  }
  const bool plain_mlp = falcon || gptj || neox;
  const auto vocab = r.integer("vocab_size", true);
  const auto tied = r.boolean("tie_word_embeddings");

  // MoE fields by family. Where each MoE value comes from (for the model tree's locations).
  std::optional<std::int64_t> experts, top_k, expert_ffn, shared, dense;
  std::string experts_key, expert_ffn_key = "moe_intermediate_size", shared_key, dense_key;
  if (gpt_oss) {
    // Every layer is MoE; the experts are intermediate_size wide (no dense FFN).
    experts_key = "num_local_experts";
    experts = r.integer(experts_key, true);
    top_k = r.integer("num_experts_per_tok", true);
    expert_ffn = ffn;
    expert_ffn_key = "intermediate_size";
    shared = 0;
    dense = 0;
    mlp_bias = true;
  } else if (family == "mixtral") {
    experts_key = "num_local_experts";
    experts = r.integer(experts_key, true);
    top_k = r.integer("num_experts_per_tok", true);
    expert_ffn = ffn;
    expert_ffn_key = "intermediate_size";
  } else if (family == "qwen3_moe" || family == "qwen2_moe") {
    experts_key = "num_experts";
    experts = r.integer(experts_key, true);
    top_k = r.integer("num_experts_per_tok", true);
    expert_ffn = r.integer("moe_intermediate_size", true);
    if (const auto step = r.integer("decoder_sparse_step", false); step && *step != 1)
      d.error(r.locate("decoder_sparse_step"),
              "hf_config.decoder_sparse_step: " + std::to_string(*step) +
                  " (MoE in every n-th layer) is not supported: Tessera models leading dense layers "
                  "then MoE layers; describe the model in a YAML file");
    dense = 0;
    if (const JMember* mm = cfg.find("mlp_only_layers")) {
      dense_key = "mlp_only_layers";
      const JNode& m = mm->value;
      bool leading = m.is_array();
      for (std::size_t i = 0; leading && i < m.items.size(); ++i)
        leading =
            m.items[i].kind == JNode::Kind::integer && m.items[i].integer == static_cast<std::int64_t>(i);
      if (!leading)
        d.error(mm->key_where,
                "hf_config.mlp_only_layers: expected the leading layers [0, 1, ..., k-1] (only "
                "leading dense layers are modelled), found " +
                    (m.is_array() ? std::string("other layers") : describe(m)));
      else
        dense = static_cast<std::int64_t>(m.items.size());
    }
    shared = 0;
    if (family == "qwen2_moe") {
      const auto shared_size = r.integer("shared_expert_intermediate_size", false, 0);
      if (shared_size && *shared_size > 0 && expert_ffn && *expert_ffn > 0) {
        shared_key = "shared_expert_intermediate_size";
        if (*shared_size % *expert_ffn != 0)
          d.error(r.locate("shared_expert_intermediate_size"),
                  "hf_config.shared_expert_intermediate_size: " + std::to_string(*shared_size) +
                      " is not a multiple of moe_intermediate_size " + std::to_string(*expert_ffn) +
                      ": Tessera's shared experts have the routed experts' size");
        else
          shared = *shared_size / *expert_ffn;
      }
    }
  } else if (deepseek && r.present("n_routed_experts")) {
    experts_key = "n_routed_experts";
    experts = r.integer(experts_key, true);
    top_k = r.integer("num_experts_per_tok", true);
    expert_ffn = r.integer("moe_intermediate_size", true);
    shared_key = "n_shared_experts";
    shared = r.integer(shared_key, false, 0).value_or(0);
    dense_key = "first_k_dense_replace";
    dense = r.integer(dense_key, false, 0).value_or(0);
    if (const auto freq = r.integer("moe_layer_freq", false); freq && *freq != 1)
      d.error(r.locate("moe_layer_freq"), "hf_config.moe_layer_freq: " + std::to_string(*freq) +
                                              " is not supported: Tessera models leading dense layers "
                                              "then MoE layers");
  }

  // MLA.
  std::optional<std::int64_t> kv_lora, q_lora, rope, nope, v_head;
  if (deepseek) {
    kv_lora = r.integer("kv_lora_rank", true);
    q_lora = r.integer("q_lora_rank", false, 0, 0).value_or(0);  // null: no query compression
    rope = r.integer("qk_rope_head_dim", true);
    nope = r.integer("qk_nope_head_dim", true);
    v_head = r.integer("v_head_dim", true);
  }

  // Per-layer attention kinds: `layer_types` (required for gpt-oss), and the sliding window
  // when a layer slides. Kinds Tessera does not model are refused at their entry.
  std::vector<std::pair<std::string, SourceLocation>> kinds;
  std::optional<std::int64_t> window;
  const JMember* lt = cfg.find("layer_types");
  if (!lt && gpt_oss) r.missing.push_back("layer_types");
  if (lt) {
    if (!lt->value.is_array()) {
      d.error(lt->key_where,
              "hf_config.layer_types: expected a list of layer kinds, found " + describe(lt->value));
    } else {
      for (std::size_t i = 0; i < lt->value.items.size(); ++i) {
        const JNode& item = lt->value.items[i];
        const std::string text = item.is_string() ? item.text : std::string();
        const std::string kind = text == "full_attention"      ? "full"
                                 : text == "sliding_attention" ? "sliding"
                                                               : "";
        if (kind.empty()) {
          d.error(item.where, "hf_config.layer_types[" + std::to_string(i) +
                                  "]: expected full_attention or "
                                  "sliding_attention (the kinds Tessera models), found " +
                                  describe(item));
          continue;
        }
        kinds.emplace_back(kind, item.where);
      }
      if (std::any_of(kinds.begin(), kinds.end(), [](const auto& k) { return k.first == "sliding"; }))
        window = r.integer("sliding_window", true);
    }
  }
  const bool sinks = gpt_oss;

  if (!r.missing.empty()) {
    const std::string what = join_names(r.missing, " and ");
    const std::string which =
        model_type == family ? family + " config" : "'" + model_type + "' config read as " + family;
    d.error(file_loc, "hf_config: the " + which + " lacks " + what + ", which Tessera needs");
    return std::nullopt;
  }
  if (d.size() != before) return std::nullopt;

  YNode m = mapping(file_loc);
  std::string name;
  if (const JMember* n = cfg.find("_name_or_path"); n && n->value.is_string() && !n->value.text.empty())
    name = std::filesystem::path(n->value.text).filename().string();
  if (name.empty()) name = std::filesystem::path(path).parent_path().filename().string();
  if (name.empty()) name = "hf-model";
  const auto num = [](std::int64_t v) { return std::to_string(v); };
  const auto put = [&](YNode& into, const char* key, std::int64_t v, const std::string& from) {
    const SourceLocation w = from.empty() ? file_loc : r.locate(from);
    into.set(key, w, scalar(num(v), w));
  };
  m.set("name", file_loc, scalar(name, file_loc));
  put(m, "layers", *layers, layers_key);
  put(m, "hidden", *hidden, hidden_key);
  put(m, "heads", *heads, heads_key);
  if (deepseek) {
    // MLA: every query head has its own (decompressed) key and value; head_dim = nope + rope.
    put(m, "kv_heads", *heads, "num_attention_heads");
    put(m, "head_dim", *nope + *rope, "qk_nope_head_dim");
  } else {
    put(m, "kv_heads", kv_heads.value_or(*heads), kv_key);
    if (head_dim) put(m, "head_dim", *head_dim, "head_dim");
  }
  put(m, "ffn", *ffn, ffn_key);
  // Llama, Mistral, Qwen and DeepSeek use SwiGLU; Falcon, GPT-J and GPT-NeoX a GELU MLP.
  m.set("ffn_kind", file_loc, scalar(plain_mlp ? "plain" : "gated", file_loc));
  put(m, "vocab", *vocab, "vocab_size");
  const SourceLocation tied_at = r.locate("tie_word_embeddings");
  m.set("tied_embeddings", tied_at, scalar(tied.value_or(falcon) ? "true" : "false", tied_at));
  if (!kinds.empty()) {
    YNode list;
    list.kind = YNode::Kind::sequence;
    list.where = r.locate("layer_types");
    for (const auto& [kind, where] : kinds) list.items.push_back(scalar(kind, where));
    m.set("layer_types", r.locate("layer_types"), std::move(list));
  }
  if (window || sinks) {
    YNode attention = mapping(file_loc);
    if (window) put(attention, "sliding_window", *window, "sliding_window");
    if (sinks) attention.set("sinks", file_loc, scalar("true", file_loc));
    m.set("attention", file_loc, std::move(attention));
  }
  if (parallel) {
    const SourceLocation at = parallel_key.empty() ? file_loc : r.locate(parallel_key);
    m.set("parallel_block", at, scalar(*parallel ? "true" : "false", at));
  }
  YNode bias = mapping(file_loc);
  // Qwen2 (and Qwen2-MoE) always put a bias on q, k, v; the others say so with attention_bias.
  const bool attn_bias = (family == "qwen2" || family == "qwen2_moe") ? true : attention_bias.value_or(false);
  bias.set("attention", file_loc, scalar(attn_bias ? "true" : "false", file_loc));
  bias.set("mlp", file_loc, scalar(mlp_bias.value_or(false) ? "true" : "false", file_loc));
  m.set("bias", file_loc, std::move(bias));
  YNode dtype = mapping(file_loc);
  for (const char* k : {"weights", "kv", "activations"}) dtype.set(k, file_loc, scalar("bf16", file_loc));
  m.set("dtype", file_loc, std::move(dtype));
  if (experts) {
    YNode moe = mapping(file_loc);
    put(moe, "experts", *experts, experts_key);
    put(moe, "top_k", *top_k, "num_experts_per_tok");
    put(moe, "expert_ffn", *expert_ffn, expert_ffn_key);
    put(moe, "shared_experts", shared.value_or(0), shared_key);
    put(moe, "dense_layers", dense.value_or(0), dense_key);
    if (gpt_oss) moe.set("router_bias", file_loc, scalar("true", file_loc));
    m.set("moe", file_loc, std::move(moe));
  }
  if (deepseek) {
    YNode mla = mapping(file_loc);
    put(mla, "kv_lora_rank", *kv_lora, "kv_lora_rank");
    put(mla, "q_lora_rank", *q_lora, "q_lora_rank");
    put(mla, "rope_dim", *rope, "qk_rope_head_dim");
    put(mla, "nope_dim", *nope, "qk_nope_head_dim");
    put(mla, "v_head_dim", *v_head, "v_head_dim");
    m.set("mla", file_loc, std::move(mla));
  }
  return m;
}

}  // namespace

}  // namespace tessera::loader
