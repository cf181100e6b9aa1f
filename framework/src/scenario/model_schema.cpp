// The model file schema (docs/specification.md §2.2 "Model file").
#include <cstdio>

#include "core/checked_math.hpp"
#include "scenario/schema_util.hpp"
#include "scenario/schemas.hpp"
#include "tessera/limits.hpp"

namespace tessera::loader {

namespace {

std::optional<std::int64_t> opt_int(const YNode& map, const std::string& path, const std::string& key,
                                    bool required, Diags& d, std::int64_t min = 1) {
  const std::string what = min >= 1 ? "a positive integer" : "a non-negative integer";
  const YNode* n = member(map, path, key, required, what, d);
  if (!n) return std::nullopt;
  return read_int(*n, join_path(path, key), d, min, "model.dimension");
}

void parse_dtypes(const YNode& n, const std::string& path, DTypes& out, Diags& d) {
  if (!expect_mapping(n, path, d)) return;
  // A part named without `_weights` (`experts: nvfp4`) gets its own hint: the plain names are
  // too far from the keys for the nearest-name suggestion.
  static const std::vector<std::pair<std::string, std::string>> kParts = {{"experts", "expert_weights"},
                                                                          {"expert", "expert_weights"},
                                                                          {"ffn", "ffn_weights"},
                                                                          {"lm_head", "lm_head_weights"},
                                                                          {"embedding", "lm_head_weights"}};
  std::vector<std::string> allowed = *schema_keys("model.dtype");
  for (const auto& e : n.entries)
    for (const auto& [part, key] : kParts)
      if (e.key == part) {
        d.error(e.key_where, "unknown key '" + join_path(path, part) + "' (did you mean '" +
                                 join_path(path, key) +
                                 "'? a part's weight format is `<part>_weights`; `attention` is the format "
                                 "attention computes in)");
        allowed.push_back(part);  // reported once, here
      }
  check_keys(n, path, allowed, d);
  // Each key given replaces what `out` had; keys left out keep it (docs/scenario-format.md).
  const auto set = [&](const char* key, DType& field) {
    if (const YNode* v = n.find(key))
      if (auto t = read_dtype(*v, join_path(path, key), d)) field = *t;
  };
  const auto set_opt = [&](const char* key, std::optional<DType>& field) {
    if (const YNode* v = n.find(key))
      if (auto t = read_dtype(*v, join_path(path, key), d)) field = *t;
  };
  set("weights", out.weights);
  set("kv", out.kv);
  set("activations", out.activations);
  set_opt("attention_weights", out.attention_weights);
  set_opt("ffn_weights", out.ffn_weights);
  set_opt("expert_weights", out.expert_weights);
  set_opt("lm_head_weights", out.lm_head_weights);
  set_opt("attention", out.attention);
  set_opt("dispatch", out.dispatch);
}

}  // namespace

void parse_dtype_block(const YNode& n, const std::string& path, DTypes& out, Diags& d) {
  parse_dtypes(n, path, out, d);
}

std::optional<ModelSpec> parse_model(const YNode& n, const std::string& path, bool require_name, Diags& d) {
  const std::size_t before = d.size();
  if (!expect_mapping(n, path, d)) return std::nullopt;
  check_keys(n, path, *schema_keys("model"), d);
  ModelSpec m;
  if (const YNode* name = member(n, path, "name", require_name, "the model's name, e.g. Llama-3.1-70B", d)) {
    if (auto s = read_string(*name, join_path(path, "name"), d)) m.name = *s;
  } else {
    m.name = "inline model";
  }
  if (const YNode* desc = n.find("description")) read_string(*desc, join_path(path, "description"), d);

  const auto layers = opt_int(n, path, "layers", true, d);
  const auto hidden = opt_int(n, path, "hidden", true, d);
  const auto heads = opt_int(n, path, "heads", true, d);
  const auto kv_heads = opt_int(n, path, "kv_heads", false, d);
  const auto head_dim = opt_int(n, path, "head_dim", false, d);
  const auto ffn = opt_int(n, path, "ffn", true, d);
  const auto vocab = opt_int(n, path, "vocab", true, d);
  if (layers) m.layers = *layers;
  if (hidden) m.hidden = *hidden;
  if (heads) m.heads = *heads;
  if (ffn) m.ffn = *ffn;
  if (vocab) m.vocab = *vocab;
  m.kv_heads = kv_heads ? *kv_heads : m.heads;

  if (kv_heads && heads && *heads % *kv_heads != 0) {
    d.error(n.find("kv_heads")->where, join_path(path, "kv_heads") + ": expected a divisor of heads (" +
                                           std::to_string(*heads) + ", grouped-query attention), found " +
                                           std::to_string(*kv_heads));
  }
  if (head_dim) {
    m.head_dim = *head_dim;
  } else if (hidden && heads) {
    if (*hidden % *heads != 0) {
      d.error(n.where, join_path(path, "head_dim") + ": missing, and hidden (" + std::to_string(*hidden) +
                           ") is not a multiple of heads (" + std::to_string(*heads) +
                           "): write head_dim explicitly");
    } else {
      m.head_dim = *hidden / *heads;
    }
  }

  if (const YNode* fk = n.find("ffn_kind"))
    if (auto c = read_choice(*fk, join_path(path, "ffn_kind"), {"gated", "plain"}, d))
      m.ffn_kind = *c == "gated" ? FfnKind::gated : FfnKind::plain;
  if (const YNode* t = n.find("tied_embeddings"))
    if (auto b = read_bool(*t, join_path(path, "tied_embeddings"), d)) m.tied_embeddings = *b;
  if (const YNode* pb = n.find("parallel_block"))
    if (auto b = read_bool(*pb, join_path(path, "parallel_block"), d)) m.parallel_block = *b;
  if (const YNode* bias = n.find("bias")) {
    const std::string bp = join_path(path, "bias");
    if (expect_mapping(*bias, bp, d)) {
      check_keys(*bias, bp, *schema_keys("model.bias"), d);
      if (const YNode* a = bias->find("attention"))
        if (auto b = read_bool(*a, join_path(bp, "attention"), d)) m.attention_bias = *b;
      if (const YNode* a = bias->find("mlp"))
        if (auto b = read_bool(*a, join_path(bp, "mlp"), d)) m.mlp_bias = *b;
    }
  }
  if (const YNode* dt = n.find("dtype")) parse_dtypes(*dt, join_path(path, "dtype"), m.dtype, d);

  if (const YNode* moe = n.find("moe")) {
    const std::string mp = join_path(path, "moe");
    if (expect_mapping(*moe, mp, d)) {
      check_keys(*moe, mp, *schema_keys("model.moe"), d);
      m.has_moe = true;
      const auto experts = opt_int(*moe, mp, "experts", true, d);
      const auto top_k = opt_int(*moe, mp, "top_k", true, d);
      const auto expert_ffn = opt_int(*moe, mp, "expert_ffn", true, d);
      const auto shared = opt_int(*moe, mp, "shared_experts", false, d, 0);
      const auto dense = opt_int(*moe, mp, "dense_layers", false, d, 0);
      if (experts) m.moe.experts = *experts;
      if (top_k) m.moe.top_k = *top_k;
      if (expert_ffn) m.moe.expert_ffn = *expert_ffn;
      if (shared) m.moe.shared_experts = *shared;
      if (dense) m.moe.dense_layers = *dense;
      if (experts && top_k && *top_k > *experts)
        d.error(moe->find("top_k")->where,
                join_path(mp, "top_k") + ": expected at most experts (" + std::to_string(*experts) +
                    ") distinct experts per token, found " + std::to_string(*top_k));
      if (dense && layers && *dense >= *layers)
        d.error(moe->find("dense_layers")->where,
                join_path(mp, "dense_layers") + ": expected fewer leading dense layers than layers (" +
                    std::to_string(*layers) + "), found " + std::to_string(*dense));
    }
  }
  if (const YNode* mla = n.find("mla")) {
    const std::string mp = join_path(path, "mla");
    if (expect_mapping(*mla, mp, d)) {
      check_keys(*mla, mp, *schema_keys("model.mla"), d);
      m.has_mla = true;
      if (auto v = opt_int(*mla, mp, "kv_lora_rank", true, d)) m.mla.kv_lora_rank = *v;
      if (auto v = opt_int(*mla, mp, "q_lora_rank", false, d, 0)) m.mla.q_lora_rank = *v;
      if (auto v = opt_int(*mla, mp, "rope_dim", true, d)) m.mla.rope_dim = *v;
      if (auto v = opt_int(*mla, mp, "nope_dim", true, d)) m.mla.nope_dim = *v;
      if (auto v = opt_int(*mla, mp, "v_head_dim", true, d)) m.mla.v_head_dim = *v;
    }
  }
  if (d.size() == before) check_model_consistency(n, path, m, d);
  if (d.size() != before) return std::nullopt;
  return m;
}

void check_model_consistency(const YNode& n, const std::string& path, ModelSpec& m, Diags& d) {
  const auto at = [&](const YNode& map, const char* key) {
    return map.find(key) ? map.find(key)->where : map.where;
  };
  if (m.has_mla) {
    // MLA: a query/key head is nope_dim + rope_dim wide (DeepSeek-V3: 128 + 64 = 192); the HF
    // reader writes head_dim that way. An absent head_dim is derived so.
    const std::int64_t qk = m.mla.nope_dim + m.mla.rope_dim;
    if (!n.find("head_dim")) {
      m.head_dim = qk;
    } else if (m.head_dim != qk) {
      d.error(at(n, "head_dim"), join_path(path, "head_dim") + ": expected mla.nope_dim + mla.rope_dim (" +
                                     std::to_string(m.mla.nope_dim) + " + " + std::to_string(m.mla.rope_dim) +
                                     " = " + std::to_string(qk) +
                                     ") for multi-head latent attention, found " +
                                     std::to_string(m.head_dim));
    }
  }
  if (m.has_moe && (m.moe.expert_ffn < 1 || m.moe.experts < 1 || m.moe.top_k < 1)) {
    const YNode* moe = n.find("moe");
    d.error(moe ? moe->where : n.where,
            join_path(path, "moe") +
                ": expected at least one expert with top_k >= 1 and expert_ffn >= 1, found " + "experts " +
                std::to_string(m.moe.experts) + ", top_k " + std::to_string(m.moe.top_k) + ", expert_ffn " +
                std::to_string(m.moe.expert_ffn));
    return;
  }
  // Parameter counts are carried as doubles: refuse a model whose count leaves the range where
  // every integer is exact (2^53). Every term is a product of non-negative integers, so a total
  // at most 2^53 means every partial product was exact too.
  const double total = params_total(m);
  if (!(total <= static_cast<double>(kExactDoubleMax))) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", total);
    d.error(n.where, (path.empty() ? std::string("the model") : path) + ": its dimensions give " + buf +
                         " parameters, beyond 2^53 (9.0e15) where counts stop being exact; check layers, "
                         "hidden, ffn, vocab and experts");
  }
}

}  // namespace tessera::loader
