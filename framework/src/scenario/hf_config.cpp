// Hugging Face `config.json` import (docs/specification.md §2.2 "Model file"): the families of
// hf_families() (Llama, Llama 4, Mistral/Mixtral, Qwen2/Qwen3 and their MoE, Qwen3-Next,
// DeepSeek-V2/V3/V3.2, Kimi-K2, GLM-4.5, Gemma 3, Nemotron-H, Falcon, GPT-J, GPT-NeoX, gpt-oss).
// The config becomes a model mapping in the loader's tree (each value located at its key in the
// JSON text), so that overrides and the model schema's checks apply to it exactly as to a YAML
// model file. Dtypes are bf16. This file reads the values (HfReader), chooses the family and
// builds the model mapping; hf_families.cpp knows which fields each family has.
//
// The JSON is held to the YAML standard (docs/limits.md, "JSON and CSV"): read through
// json_tree (locations, duplicate keys, depth, size), and every field Tessera reads must be an
// integer in its range — null, zero, negative, fractional or huge values are refused at their
// key, never defaulted (a null `n_routed_experts` would otherwise make DeepSeek-V3 dense).
// The exceptions are the nulls Hugging Face documents a meaning for: `q_lora_rank` (no query
// compression), GPT-J's `n_inner` and Falcon's `ffn_hidden_size` (4 x the hidden size).
#include "scenario/hf_config.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <string_view>

#include "core/text/input_file.hpp"
#include "core/text/nearest_name.hpp"
#include "core/text/safe_text.hpp"
#include "scenario/hf_families.hpp"
#include "scenario/readers/json_tree.hpp"
#include "scenario/readers/schema_util.hpp"

namespace tessera::loader {

namespace {

// Integers above 2^53 are not exact in a double, which the physics computes in.
constexpr std::int64_t kMaxInt = (std::int64_t{1} << 53) - 1;

}  // namespace

std::optional<std::int64_t> HfReader::integer(const std::string& key, bool required, std::int64_t min,
                                              std::optional<std::int64_t> null_means) {
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

std::optional<bool> HfReader::boolean(const std::string& key) {
  const JMember* m = member(key);
  if (!m) return std::nullopt;
  if (m->value.kind == JNode::Kind::boolean) return m->value.boolean;
  d.error(m->key_where, "hf_config." + key + ": expected true or false, found " + describe(m->value));
  return std::nullopt;
}

namespace {

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

// The keys Tessera needs that the config lacks, in one error at the file; false when none.
bool report_missing_keys(const HfReader& r) {
  if (r.missing.empty()) return false;
  const JMember* mt = r.cfg.find("model_type");
  const std::string model_type = mt ? mt->value.text : std::string();
  const std::string what = join_names(r.missing, " and ");
  const std::string which =
      model_type == r.family ? r.family + " config" : "'" + model_type + "' config read as " + r.family;
  r.d.error(r.cfg.where, "hf_config: the " + which + " lacks " + what + ", which Tessera needs");
  return true;
}

// `key: v` in `into`, standing where the value was read (`from`; the file when "").
void put(const HfReader& r, YNode& into, const char* key, std::int64_t v, const std::string& from) {
  const SourceLocation w = r.at(from);
  into.set(key, w, scalar(std::to_string(v), w));
}

// The model's name: the last part of _name_or_path, else the config's folder, else hf-model.
std::string model_name(const JNode& cfg, const std::string& path) {
  std::string name;
  if (const JMember* n = cfg.find("_name_or_path"); n && n->value.is_string() && !n->value.text.empty())
    name = std::filesystem::path(n->value.text).filename().string();
  if (name.empty()) name = std::filesystem::path(path).parent_path().filename().string();
  if (name.empty()) name = "hf-model";
  return name;
}

// Layers, hidden size, heads, KV heads and head dimension, FFN, vocabulary and tied embeddings.
void put_dimensions(const HfReader& r, const HfModel& m, YNode& out) {
  const SourceLocation file_loc = r.cfg.where;
  put(r, out, "layers", *m.layers, m.layers_key);
  put(r, out, "hidden", *m.hidden, m.hidden_key);
  put(r, out, "heads", *m.heads, m.heads_key);
  if (r.deepseek()) {
    // MLA: every query head has its own (decompressed) key and value; head_dim = nope + rope.
    put(r, out, "kv_heads", *m.heads, "num_attention_heads");
    put(r, out, "head_dim", *m.nope + *m.rope, "qk_nope_head_dim");
  } else {
    put(r, out, "kv_heads", m.kv_heads.value_or(*m.heads), m.kv_key);
    if (m.head_dim) put(r, out, "head_dim", *m.head_dim, "head_dim");
  }
  put(r, out, "ffn", *m.ffn, m.ffn_key);
  // Llama, Mistral, Qwen and DeepSeek use SwiGLU; Falcon, GPT-J and GPT-NeoX a GELU MLP.
  // Nemotron-H's MLP is relu2 over up and down projections.
  const bool plain_mlp =
      r.family == "falcon" || r.family == "gptj" || r.family == "gpt_neox" || r.family == "nemotron_h";
  out.set("ffn_kind", file_loc, scalar(plain_mlp ? "plain" : "gated", file_loc));
  put(r, out, "vocab", *m.vocab, "vocab_size");
  const SourceLocation tied_at = r.locate("tie_word_embeddings");
  out.set(
      "tied_embeddings", tied_at,
      scalar(m.tied.value_or(r.family == "falcon" || r.family == "gemma3_text") ? "true" : "false", tied_at));
  // The checkpoint's multi-token-prediction modules (DeepSeek-V3, GLM-4.5): speculative drafters.
  if (m.mtp_layers && *m.mtp_layers > 0) put(r, out, "mtp_layers", *m.mtp_layers, "num_nextn_predict_layers");
}

// The sizes of the sparse, linear and mamba layers the config has (optional keys only when given:
// the model file's defaults are the modelling files' own).
void put_mixer_sizes(const HfReader& r, const HfModel& m, YNode& out) {
  const SourceLocation file_loc = r.cfg.where;
  const auto opt = [&](YNode& into, const char* key, const std::optional<std::int64_t>& v, const char* from) {
    if (v) put(r, into, key, *v, from);
  };
  // A block only for a kind some layer has (a Qwen3-Next config whose layer_types are all
  // full_attention has no linear layer, so no linear_attention block).
  const auto has = [&m](const char* kind) {
    return std::any_of(m.kinds.begin(), m.kinds.end(), [kind](const auto& k) { return k.first == kind; });
  };
  if (m.index_heads && m.index_head_dim && m.index_top_k && has("sparse")) {
    YNode sparse = mapping(file_loc);
    put(r, sparse, "index_heads", *m.index_heads, "index_n_heads");
    put(r, sparse, "index_head_dim", *m.index_head_dim, "index_head_dim");
    put(r, sparse, "top_k", *m.index_top_k, "index_topk");
    out.set("sparse_attention", file_loc, std::move(sparse));
  }
  if (m.lin_key_heads && m.lin_value_heads && m.lin_key_dim && m.lin_value_dim && has("linear")) {
    YNode lin = mapping(file_loc);
    put(r, lin, "key_heads", *m.lin_key_heads, "linear_num_key_heads");
    put(r, lin, "value_heads", *m.lin_value_heads, "linear_num_value_heads");
    put(r, lin, "key_head_dim", *m.lin_key_dim, "linear_key_head_dim");
    put(r, lin, "value_head_dim", *m.lin_value_dim, "linear_value_head_dim");
    opt(lin, "conv_kernel", m.lin_conv, "linear_conv_kernel_dim");
    out.set("linear_attention", file_loc, std::move(lin));
  }
  if (m.ssm_heads && m.ssm_head_dim && m.ssm_state && has("mamba")) {
    YNode ssm = mapping(file_loc);
    put(r, ssm, "heads", *m.ssm_heads, "mamba_num_heads");
    put(r, ssm, "head_dim", *m.ssm_head_dim, "mamba_head_dim");
    put(r, ssm, "state_size", *m.ssm_state, "ssm_state_size");
    opt(ssm, "groups", m.ssm_groups, "n_groups");
    opt(ssm, "conv_kernel", m.ssm_conv, "conv_kernel");
    opt(ssm, "chunk", m.ssm_chunk, "chunk_size");
    out.set("mamba", file_loc, std::move(ssm));
  }
}

// Each layer's attention kind, the sliding window, and gpt-oss's attention sinks.
void put_attention(const HfReader& r, const HfModel& m, YNode& out) {
  const SourceLocation file_loc = r.cfg.where;
  if (!m.kinds.empty()) {
    const SourceLocation at = m.kinds_key.empty() ? r.locate("layer_types") : r.at(m.kinds_key);
    YNode list;
    list.kind = YNode::Kind::sequence;
    list.where = at;
    for (const auto& [kind, where] : m.kinds) list.items.push_back(scalar(kind, where));
    out.set("layer_types", at, std::move(list));
  }
  const bool sinks = r.family == "gpt_oss";
  if (m.window || m.chunk || sinks || m.output_gate) {
    YNode attention = mapping(file_loc);
    if (m.window) put(r, attention, "sliding_window", *m.window, "sliding_window");
    if (m.chunk) put(r, attention, "chunk", *m.chunk, "attention_chunk_size");
    if (sinks) attention.set("sinks", file_loc, scalar("true", file_loc));
    if (m.output_gate) attention.set("output_gate", file_loc, scalar("true", file_loc));
    out.set("attention", file_loc, std::move(attention));
  }
  put_mixer_sizes(r, m, out);
}

// Whether attention and MLP run in parallel, which of them have biases, and the dtypes (bf16).
void put_block(const HfReader& r, const HfModel& m, YNode& out) {
  const SourceLocation file_loc = r.cfg.where;
  if (m.parallel) {
    const SourceLocation at = r.at(m.parallel_key);
    out.set("parallel_block", at, scalar(*m.parallel ? "true" : "false", at));
  }
  YNode bias = mapping(file_loc);
  // Qwen2 (and Qwen2-MoE) always put a bias on q, k, v; the others say so with attention_bias.
  const bool attn_bias =
      (r.family == "qwen2" || r.family == "qwen2_moe") ? true : m.attention_bias.value_or(false);
  bias.set("attention", file_loc, scalar(attn_bias ? "true" : "false", file_loc));
  bias.set("mlp", file_loc, scalar(m.mlp_bias.value_or(false) ? "true" : "false", file_loc));
  out.set("bias", file_loc, std::move(bias));
  YNode dtype = mapping(file_loc);
  for (const char* k : {"weights", "kv", "activations"}) dtype.set(k, file_loc, scalar("bf16", file_loc));
  if (m.state_fp32) dtype.set("state", file_loc, scalar("fp32", file_loc));
  out.set("dtype", file_loc, std::move(dtype));
}

// A dense model's layers without an FFN (Nemotron-H), located at the key that decided them.
void put_layer_ffns(const HfReader& r, const HfModel& m, YNode& out) {
  if (m.layer_ffns.empty()) return;
  const SourceLocation at = r.at(m.ffn_types_key);
  YNode list;
  list.kind = YNode::Kind::sequence;
  list.where = at;
  for (const std::string& f : m.layer_ffns) list.items.push_back(scalar(f, at));
  out.set("ffn_types", at, std::move(list));
}

// The model's `moe` mapping (gpt-oss's router has a bias).
void put_moe(const HfReader& r, const HfModel& m, YNode& out) {
  const SourceLocation file_loc = r.cfg.where;
  YNode moe = mapping(file_loc);
  put(r, moe, "experts", *m.experts, m.experts_key);
  put(r, moe, "top_k", *m.top_k, "num_experts_per_tok");
  put(r, moe, "expert_ffn", *m.expert_ffn, m.expert_ffn_key);
  put(r, moe, "shared_experts", m.shared.value_or(0), m.shared_key);
  if (m.moe_layer.empty()) put(r, moe, "dense_layers", m.dense.value_or(0), m.dense_key);
  if (r.family == "gpt_oss") moe.set("router_bias", file_loc, scalar("true", file_loc));
  out.set("moe", file_loc, std::move(moe));
  if (m.moe_layer.empty()) return;
  // The layers' FFNs one by one, located at the key that decided them.
  const SourceLocation at = r.at(m.ffn_types_key);
  YNode list;
  list.kind = YNode::Kind::sequence;
  list.where = at;
  for (const bool b : m.moe_layer) list.items.push_back(scalar(b ? "moe" : "dense", at));
  out.set("ffn_types", at, std::move(list));
}

// The model's `mla` mapping.
void put_mla(const HfReader& r, const HfModel& m, YNode& out) {
  YNode mla = mapping(r.cfg.where);
  put(r, mla, "kv_lora_rank", *m.kv_lora, "kv_lora_rank");
  put(r, mla, "q_lora_rank", *m.q_lora, "q_lora_rank");
  put(r, mla, "rope_dim", *m.rope, "qk_rope_head_dim");
  put(r, mla, "nope_dim", *m.nope, "qk_nope_head_dim");
  put(r, mla, "v_head_dim", *m.v_head, "v_head_dim");
  out.set("mla", r.cfg.where, std::move(mla));
}

// The model mapping, located at the file: its name, then what was read.
YNode model_tree(const HfReader& r, const HfModel& m, const std::string& path) {
  const SourceLocation file_loc = r.cfg.where;
  YNode out = mapping(file_loc);
  out.set("name", file_loc, scalar(model_name(r.cfg, path), file_loc));
  put_dimensions(r, m, out);
  put_attention(r, m, out);
  put_block(r, m, out);
  if (m.experts) put_moe(r, m, out);
  put_layer_ffns(r, m, out);
  if (r.deepseek()) put_mla(r, m, out);
  return out;
}

// Reads the whole config before answering, so that every refused or missing key is reported
// (missing keys in one error); any error means no model.
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
  const std::string family = choose_family(cfg, chosen, d);
  if (family.empty()) return std::nullopt;
  // Gemma 3 and Llama 4's multimodal configs hold the language model in text_config, read as the
  // text-only family.
  const JNode* fields = &cfg;
  std::string reading = family;
  if (family == "gemma3" || family == "llama4") {
    const JMember* t = cfg.find("text_config");
    if (!t || !t->value.is_object()) {
      d.error(t ? t->key_where : cfg.where,
              "hf_config.text_config: expected the language model's fields (a " +
                  std::string("JSON object) in a ") + family + " config, found " +
                  (t ? describe(t->value) : std::string("nothing")));
      return std::nullopt;
    }
    fields = &t->value;
    reading = family + "_text";
  }
  HfReader r{*fields, reading, d, {}};
  HfModel m;
  read_hf_fields(r, m);
  if (report_missing_keys(r) || d.size() != before) return std::nullopt;
  return model_tree(r, m, path);
}

}  // namespace

const std::vector<std::string>& hf_families() {
  static const std::vector<std::string> kFamilies = {
      "llama",        "llama4",  "llama4_text", "mistral",    "mixtral",     "qwen2",
      "qwen2_moe",    "qwen3",   "qwen3_moe",   "qwen3_next", "deepseek_v2", "deepseek_v3",
      "deepseek_v32", "kimi_k2", "glm4_moe",    "gemma3",     "gemma3_text", "nemotron_h",
      "falcon",       "gptj",    "gpt_neox",    "gpt_oss"};
  return kFamilies;
}

namespace {
// Python's json module writes Infinity, -Infinity and NaN (allow_nan, the default of
// save_pretrained), which JSON does not have: Nemotron-H's config.json holds
// "time_step_limit": [0.0, Infinity]. Outside strings they are read as null, padded to their
// length so every location after them stays (NaN, shorter than null, moves the rest of its line
// by one column), then given back their value (restore_python_constants): a key Tessera reads
// refuses NaN or an infinity at its place.
// `replaced`: where each null stands in the text returned (its byte offset), and what it was.
std::string python_constants_as_null(const std::string& text,
                                     std::map<std::size_t, std::string_view>& replaced) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size())
        out += text[++i];
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    bool matched = false;
    for (const std::string_view token :
         {std::string_view("-Infinity"), std::string_view("Infinity"), std::string_view("NaN")}) {
      if (text.compare(i, token.size(), token) != 0) continue;
      replaced.emplace(out.size(), token);
      out += "null";
      if (token.size() > 4) out.append(token.size() - 4, ' ');
      i += token.size() - 1;
      matched = true;
      break;
    }
    if (!matched) out += c;
  }
  return out;
}
}  // namespace

std::optional<YNode> hf_config_tree(const std::string& path, Diags& d,
                                    const std::optional<HfFamily>& chosen) {
  std::string text;
  try {
    text = read_input_file(path, "Hugging Face config file");
  } catch (const InputError& e) {
    std::string m = e.what();
    if (m.rfind(path + ": ", 0) == 0) m = m.substr(path.size() + 2);
    d.error(SourceLocation{path, 0, 0}, m);
    return std::nullopt;
  }
  return hf_config_tree_from_text(text, path, d, chosen);
}

namespace {
// The nulls that stand for Python's constants become what they were: a real of that value (NaN,
// +-inf) written as in the file, which every integer or boolean key refuses at its place (a
// null would read as "absent" where Hugging Face gives null a meaning). A null is matched by its
// place in the converted text (line and 1-based byte column, as the parser locates it).
void restore_python_constants(const std::string& converted,
                              const std::map<std::size_t, std::string_view>& replaced,
                              std::optional<JNode>& doc) {
  if (!doc || replaced.empty()) return;
  std::vector<std::size_t> line_start{0};
  for (std::size_t i = 0; i < converted.size(); ++i)
    if (converted[i] == '\n') line_start.push_back(i + 1);
  std::vector<JNode*> stack{&*doc};
  while (!stack.empty()) {
    JNode* n = stack.back();
    stack.pop_back();
    for (JNode& c : n->items) stack.push_back(&c);
    for (JMember& c : n->members) stack.push_back(&c.value);
    if (!n->is_null() || n->where.line < 1 || static_cast<std::size_t>(n->where.line) > line_start.size() ||
        n->where.column < 1)
      continue;
    const auto it = replaced.find(line_start[static_cast<std::size_t>(n->where.line - 1)] +
                                  static_cast<std::size_t>(n->where.column - 1));
    if (it == replaced.end()) continue;
    const std::string_view token = it->second;
    n->kind = JNode::Kind::real;
    n->real = token == "NaN" ? std::numeric_limits<double>::quiet_NaN()
                             : (token[0] == '-' ? -1.0 : 1.0) * std::numeric_limits<double>::infinity();
    n->text = std::string(token);
  }
}
}  // namespace

std::optional<YNode> hf_config_tree_from_text(const std::string& text, const std::string& path, Diags& d,
                                              const std::optional<HfFamily>& chosen) {
  std::map<std::size_t, std::string_view> replaced;
  const std::string converted = python_constants_as_null(text, replaced);
  std::optional<JNode> doc = parse_json_text(converted, path, d);
  restore_python_constants(converted, replaced, doc);
  return hf_model(doc, path, d, chosen);
}

}  // namespace tessera::loader
