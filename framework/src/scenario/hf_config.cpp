// Hugging Face `config.json` import (SPEC §2): Llama, Mistral/Mixtral, Qwen2/Qwen2-MoE/Qwen3/
// Qwen3-MoE and DeepSeek-V2/V3 families. The config becomes a model mapping in the loader's
// tree (each value located at its key in the JSON text), so that overrides and the model
// schema's checks apply to it exactly as to a YAML model file. Dtypes are bf16.
#include "scenario/hf_config.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/nearest_name.hpp"
#include "scenario/schema_util.hpp"

namespace tessera::loader {

namespace {

using json = nlohmann::json;

const std::vector<std::string> kFamilies = {"llama", "mistral",   "mixtral",     "qwen2",      "qwen2_moe",
                                            "qwen3", "qwen3_moe", "deepseek_v2", "deepseek_v3"};

struct Reader {
  const json& cfg;
  const std::string& file;
  const std::string& text;
  const std::string& family;
  Diags& d;
  std::vector<std::string> missing;

  SourceLocation locate(const std::string& key) const {
    SourceLocation w{file, 0, 0};
    const std::size_t pos = text.find("\"" + key + "\"");
    if (pos == std::string::npos) return w;
    int line = 1, col = 1;
    for (std::size_t i = 0; i < pos; ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    w.line = line;
    w.column = col;
    return w;
  }

  bool present(const std::string& key) const { return cfg.contains(key) && !cfg.at(key).is_null(); }

  // An integer field; nullopt (and recorded as missing when required) when absent.
  std::optional<std::int64_t> integer(const std::string& key, bool required) {
    if (!present(key)) {
      if (required) missing.push_back(key);
      return std::nullopt;
    }
    const json& v = cfg.at(key);
    if (v.is_number_integer()) return v.get<std::int64_t>();
    if (v.is_number_float() &&
        v.get<double>() == static_cast<double>(static_cast<std::int64_t>(v.get<double>())))
      return static_cast<std::int64_t>(v.get<double>());
    d.error(locate(key), "hf_config: '" + key + "': expected an integer, found " + v.dump());
    return std::nullopt;
  }

  std::optional<bool> boolean(const std::string& key) {
    if (!present(key)) return std::nullopt;
    const json& v = cfg.at(key);
    if (v.is_boolean()) return v.get<bool>();
    d.error(locate(key), "hf_config: '" + key + "': expected true or false, found " + v.dump());
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

}  // namespace

std::optional<YNode> hf_config_tree(const std::string& path, Diags& d) {
  const SourceLocation file_loc{path, 0, 0};
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    d.error(file_loc, "cannot read the Hugging Face config file (does it exist?)");
    return std::nullopt;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  json cfg;
  try {
    cfg = json::parse(text);
  } catch (const json::parse_error& e) {
    SourceLocation w = file_loc;
    w.line = 1;
    w.column = 1;
    for (std::size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++w.line;
        w.column = 1;
      } else {
        ++w.column;
      }
    }
    d.error(w, std::string("malformed JSON: ") + e.what());
    return std::nullopt;
  }
  if (!cfg.is_object()) {
    d.error(file_loc, "hf_config: expected a JSON object (a Hugging Face config.json)");
    return std::nullopt;
  }
  std::string family = cfg.contains("model_type") && cfg["model_type"].is_string()
                           ? cfg["model_type"].get<std::string>()
                           : std::string();
  const bool known = std::find(kFamilies.begin(), kFamilies.end(), family) != kFamilies.end();
  const std::size_t before = d.size();
  Reader r{cfg, path, text, family, d, {}};

  const bool deepseek = family == "deepseek_v2" || family == "deepseek_v3";
  const auto layers = r.integer("num_hidden_layers", true);
  const auto hidden = r.integer("hidden_size", true);
  const auto heads = r.integer("num_attention_heads", true);
  const auto kv_heads = r.integer("num_key_value_heads", false);
  const auto head_dim = r.integer("head_dim", false);
  const auto ffn = r.integer("intermediate_size", true);
  const auto vocab = r.integer("vocab_size", true);
  const auto tied = r.boolean("tie_word_embeddings");
  const auto attention_bias = r.boolean("attention_bias");
  const auto mlp_bias = r.boolean("mlp_bias");

  // MoE fields by family.
  std::optional<std::int64_t> experts, top_k, expert_ffn, shared, dense;
  if (family == "mixtral") {
    experts = r.integer("num_local_experts", true);
    top_k = r.integer("num_experts_per_tok", true);
    expert_ffn = ffn;
  } else if (family == "qwen3_moe" || family == "qwen2_moe") {
    experts = r.integer("num_experts", true);
    top_k = r.integer("num_experts_per_tok", true);
    expert_ffn = r.integer("moe_intermediate_size", true);
    if (const auto step = r.integer("decoder_sparse_step", false); step && *step != 1)
      d.error(r.locate("decoder_sparse_step"),
              "hf_config: decoder_sparse_step " + std::to_string(*step) +
                  " (MoE in every n-th layer) is not supported: Tessera models leading dense layers "
                  "then MoE layers; describe the model in a YAML file");
    dense = 0;
    if (r.present("mlp_only_layers")) {
      const json& m = cfg["mlp_only_layers"];
      bool leading = m.is_array();
      for (std::size_t i = 0; leading && i < m.size(); ++i)
        leading = m[i].is_number_integer() && m[i].get<std::int64_t>() == static_cast<std::int64_t>(i);
      if (!leading)
        d.error(r.locate("mlp_only_layers"),
                "hf_config: mlp_only_layers " + m.dump() +
                    " is not supported: only leading dense layers [0, 1, ..., k-1] are modelled");
      else
        dense = static_cast<std::int64_t>(m.size());
    }
    shared = 0;
    if (family == "qwen2_moe") {
      const auto shared_size = r.integer("shared_expert_intermediate_size", false);
      if (shared_size && *shared_size > 0 && expert_ffn) {
        if (*shared_size % *expert_ffn != 0)
          d.error(r.locate("shared_expert_intermediate_size"),
                  "hf_config: shared_expert_intermediate_size " + std::to_string(*shared_size) +
                      " is not a multiple of moe_intermediate_size " + std::to_string(*expert_ffn) +
                      ": Tessera's shared experts have the routed experts' size");
        else
          shared = *shared_size / *expert_ffn;
      }
    }
  } else if (deepseek && r.present("n_routed_experts")) {
    experts = r.integer("n_routed_experts", true);
    top_k = r.integer("num_experts_per_tok", true);
    expert_ffn = r.integer("moe_intermediate_size", true);
    shared = r.integer("n_shared_experts", false).value_or(0);
    dense = r.integer("first_k_dense_replace", false).value_or(0);
    if (const auto freq = r.integer("moe_layer_freq", false); freq && *freq != 1)
      d.error(r.locate("moe_layer_freq"), "hf_config: moe_layer_freq " + std::to_string(*freq) +
                                              " is not supported: Tessera models leading dense layers "
                                              "then MoE layers");
  }

  // MLA.
  std::optional<std::int64_t> kv_lora, q_lora, rope, nope, v_head;
  if (deepseek) {
    kv_lora = r.integer("kv_lora_rank", true);
    q_lora = r.integer("q_lora_rank", false).value_or(0);
    rope = r.integer("qk_rope_head_dim", true);
    nope = r.integer("qk_nope_head_dim", true);
    v_head = r.integer("v_head_dim", true);
  }

  if (!r.missing.empty()) {
    std::string what = join_names(r.missing, " and ");
    if (!known) {
      d.error(file_loc, "hf_config: unsupported architecture" +
                            (family.empty() ? std::string(" (no model_type)") : " '" + family + "'") +
                            ": supported families are " + join_names(kFamilies) +
                            "; read as a Llama-like model it lacks " + what +
                            ". Describe it in a YAML model file instead");
    } else {
      d.error(file_loc, "hf_config: the " + family + " config lacks " + what + ", which Tessera needs");
    }
    return std::nullopt;
  }
  if (d.size() != before) return std::nullopt;
  if (!known)
    spdlog::warn("{}: model_type '{}' is not a known family ({}); read as a Llama-like dense model", path,
                 family, join_names(kFamilies));

  YNode m = mapping(SourceLocation{path, 1, 1});
  std::string name;
  if (cfg.contains("_name_or_path") && cfg["_name_or_path"].is_string() &&
      !cfg["_name_or_path"].get<std::string>().empty()) {
    name = std::filesystem::path(cfg["_name_or_path"].get<std::string>()).filename().string();
  }
  if (name.empty()) name = std::filesystem::path(path).parent_path().filename().string();
  if (name.empty()) name = "hf-model";
  const auto num = [](std::int64_t v) { return std::to_string(v); };
  m.set("name", file_loc, scalar(name, file_loc));
  m.set("layers", r.locate("num_hidden_layers"), scalar(num(*layers), r.locate("num_hidden_layers")));
  m.set("hidden", r.locate("hidden_size"), scalar(num(*hidden), r.locate("hidden_size")));
  m.set("heads", r.locate("num_attention_heads"), scalar(num(*heads), r.locate("num_attention_heads")));
  if (deepseek) {
    // MLA: every query head has its own (decompressed) key and value; head_dim = nope + rope.
    m.set("kv_heads", r.locate("num_attention_heads"), scalar(num(*heads), r.locate("num_attention_heads")));
    m.set("head_dim", r.locate("qk_nope_head_dim"), scalar(num(*nope + *rope), r.locate("qk_nope_head_dim")));
  } else {
    const std::int64_t kvh = kv_heads.value_or(*heads);
    m.set("kv_heads", r.locate("num_key_value_heads"), scalar(num(kvh), r.locate("num_key_value_heads")));
    if (head_dim) m.set("head_dim", r.locate("head_dim"), scalar(num(*head_dim), r.locate("head_dim")));
  }
  m.set("ffn", r.locate("intermediate_size"), scalar(num(*ffn), r.locate("intermediate_size")));
  m.set("ffn_kind", file_loc, scalar("gated", file_loc));  // every supported family uses SwiGLU
  m.set("vocab", r.locate("vocab_size"), scalar(num(*vocab), r.locate("vocab_size")));
  m.set("tied_embeddings", r.locate("tie_word_embeddings"),
        scalar(tied.value_or(false) ? "true" : "false", r.locate("tie_word_embeddings")));
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
    moe.set("experts", file_loc, scalar(num(*experts), file_loc));
    moe.set("top_k", r.locate("num_experts_per_tok"), scalar(num(*top_k), r.locate("num_experts_per_tok")));
    moe.set("expert_ffn", file_loc, scalar(num(*expert_ffn), file_loc));
    moe.set("shared_experts", file_loc, scalar(num(shared.value_or(0)), file_loc));
    moe.set("dense_layers", file_loc, scalar(num(dense.value_or(0)), file_loc));
    m.set("moe", file_loc, std::move(moe));
  }
  if (deepseek) {
    YNode mla = mapping(file_loc);
    mla.set("kv_lora_rank", r.locate("kv_lora_rank"), scalar(num(*kv_lora), r.locate("kv_lora_rank")));
    mla.set("q_lora_rank", r.locate("q_lora_rank"), scalar(num(*q_lora), r.locate("q_lora_rank")));
    mla.set("rope_dim", r.locate("qk_rope_head_dim"), scalar(num(*rope), r.locate("qk_rope_head_dim")));
    mla.set("nope_dim", r.locate("qk_nope_head_dim"), scalar(num(*nope), r.locate("qk_nope_head_dim")));
    mla.set("v_head_dim", r.locate("v_head_dim"), scalar(num(*v_head), r.locate("v_head_dim")));
    m.set("mla", file_loc, std::move(mla));
  }
  return m;
}

}  // namespace tessera::loader
