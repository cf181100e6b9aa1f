// The model file schema (docs/specification.md §2.2 "Model file").
#include <cstdio>

#include "core/checked_math.hpp"
#include "scenario/fields/field_reader.hpp"
#include "scenario/fields/mapping_reader.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/schemas/schemas.hpp"
#include "tessera/limits.hpp"

namespace tessera::loader {

namespace {

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
  const std::string canon = path == "dtype" ? "dtype" : "model.dtype";
  const auto read = [&](const char* key) -> std::optional<DType> {
    const YNode* v = n.find(key);
    if (!v) return std::nullopt;
    const auto f = read_field(*v, join_path(path, key), row_of(join_path(canon, key)), d);
    return f ? dtype_from_name(f->text) : std::nullopt;
  };
  const auto set = [&](const char* key, DType& field) {
    if (auto t = read(key)) field = *t;
  };
  const auto set_opt = [&](const char* key, std::optional<DType>& field) {
    if (auto t = read(key)) field = *t;
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
  set_opt("state", out.state);
}

// A per-layer list, `<types_key>: [...]` (one kind per layer), or `<pattern_key>: [...]` (a group
// repeated to cover the layers and cut at them; a single kind is a list of one), read item by
// item by `row`: each layer's choice
// index, in order. Empty when neither key is given; nullopt after a diagnostic. `*list` is the
// list given (nullptr when none).
// `what` names one item ("attention kind").
std::optional<std::vector<std::uint32_t>> read_layer_list(const YNode& n, const std::string& path,
                                                          const char* types_key, const char* pattern_key,
                                                          const std::string& what, const ModelSpec& m,
                                                          const YNode** list, Diags& d) {
  const YNode* types = n.find(types_key);
  const YNode* pattern = n.find(pattern_key);
  *list = types ? types : pattern;
  if (types && pattern) {
    d.error(pattern->where, join_path(path, pattern_key) + ": give " + types_key +
                                " (one kind per layer) or " + pattern_key + " (a repeated group), not both");
    return std::nullopt;
  }
  if (!*list) return std::vector<std::uint32_t>{};
  const char* key = types ? types_key : pattern_key;
  const std::string lp = join_path(path, key);
  const schema::FieldRow& row = row_of(std::string("model.") + types_key);
  // A single kind stands for a list of one (the field table's list rows: `layer_pattern: linear`
  // makes every layer linear).
  const std::vector<YNode> one = (*list)->is_scalar() ? std::vector<YNode>{**list} : std::vector<YNode>{};
  const std::vector<YNode>& items = (*list)->is_scalar() ? one : (*list)->items;
  if (!((*list)->is_sequence() || (*list)->is_scalar()) || items.empty()) {
    std::vector<std::string> choices;
    for (std::uint32_t c = 0; c < row.spec.choice_count; ++c) choices.emplace_back(row.spec.choices[c].value);
    const std::string names = join_names(choices, ", ");
    d.error((*list)->where, lp + ": expected a list of " + what + "s (" + names + "), found " +
                                ((*list)->is_sequence() ? std::string("an empty list") : describe(**list)));
    return std::nullopt;
  }
  std::vector<std::uint32_t> kinds;
  bool ok = true;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto v =
        read_field(items[i], (*list)->is_scalar() ? lp : lp + "[" + std::to_string(i) + "]", row, d);
    if (!v) {
      ok = false;
      continue;
    }
    for (std::uint32_t c = 0; c < row.spec.choice_count; ++c)
      if (v->text == row.spec.choices[c].value) kinds.push_back(c);
  }
  if (!ok || m.layers < 1) return std::nullopt;
  const auto count = static_cast<std::int64_t>(kinds.size());
  if (types && count != m.layers) {
    d.error((*list)->where, lp + ": expected one " + what + " per layer (layers: " +
                                std::to_string(m.layers) + "), found " + std::to_string(count));
    return std::nullopt;
  }
  if (pattern && count > m.layers) {
    d.error((*list)->where, lp + ": expected a group of at most layers (" + std::to_string(m.layers) +
                                ") kinds, found " + std::to_string(count));
    return std::nullopt;
  }
  std::vector<std::uint32_t> out(static_cast<std::size_t>(m.layers));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = kinds[i % kinds.size()];
  return out;
}

// `ffn_types` / `ffn_pattern`: each layer's FFN, dense or moe. A moe layer needs the moe block,
// the list replaces moe.dense_layers, and a list without a moe layer leaves the block unused.
void parse_ffn_types(const YNode& n, const std::string& path, ModelSpec& m, Diags& d) {
  const YNode* list = nullptr;
  const auto kinds = read_layer_list(n, path, "ffn_types", "ffn_pattern", "FFN kind", m, &list, d);
  if (!kinds || kinds->empty()) return;
  const std::string lp = join_path(path, n.find("ffn_types") ? "ffn_types" : "ffn_pattern");
  const YNode* moe = n.find("moe");
  const bool any_moe = std::find(kinds->begin(), kinds->end(), 1u) != kinds->end();
  const bool any_none = std::find(kinds->begin(), kinds->end(), 2u) != kinds->end();
  if (!m.has_moe && (any_moe || !any_none)) {
    d.error(list->where, any_moe
                             ? lp + ": a moe layer needs the model's moe block (experts, top_k, expert_ffn)"
                             : lp + ": without a moe block or a layer without FFN (none) every layer is "
                                    "dense (remove it)");
    return;
  }
  if (!m.has_moe) {
    m.ffn_types.clear();
    for (const std::uint32_t k : *kinds) m.ffn_types.push_back(k == 2 ? LayerFfn::none : LayerFfn::dense);
    return;
  }
  if (moe && moe->is_mapping() && moe->find("dense_layers")) {
    d.error(moe->find("dense_layers")->where,
            join_path(path, "moe.dense_layers") + ": give moe.dense_layers " + "(leading dense layers) or " +
                lp.substr(lp.rfind('.') + 1) + " (each layer's FFN), not both");
    return;
  }
  if (!any_moe) {
    d.error(list->where, lp + ": no layer is moe, so the moe block is never used (remove it, or name "
                              "the moe layers)");
    return;
  }
  m.ffn_types.clear();
  for (const std::uint32_t k : *kinds) m.ffn_types.push_back(static_cast<LayerFfn>(k));
}

// A layer runs a mixer, an FFN or both: a layer with neither is refused.
void check_empty_layers(const YNode& n, const std::string& path, const ModelSpec& m, Diags& d) {
  if (m.layer_types.empty() || m.ffn_types.empty()) return;
  for (std::size_t i = 0; i < m.layer_types.size() && i < m.ffn_types.size(); ++i)
    if (m.layer_types[i] == AttentionKind::none && m.ffn_types[i] == LayerFfn::none) {
      const YNode* at = n.find("ffn_types") ? n.find("ffn_types") : n.find("ffn_pattern");
      d.error(at ? at->where : n.where, join_path(path, "ffn_types") + ": layer " + std::to_string(i) +
                                            " has no mixer (layer_types: none) and no FFN (none): a layer "
                                            "runs one or both");
      return;
    }
}

// `layer_types: [sliding, full, ...]` (one kind per layer) or `layer_pattern: [...]` (a group
// repeated to cover the layers), and the sizes the kinds named need.
void parse_layer_types(const YNode& n, const std::string& path, ModelSpec& m, Diags& d) {
  const YNode* list = nullptr;
  const auto kinds = read_layer_list(n, path, "layer_types", "layer_pattern", "attention kind", m, &list, d);
  if (!kinds) return;
  const char* key = n.find("layer_types") ? "layer_types" : "layer_pattern";
  // The row's choices in AttentionKind's order (full, sliding, chunked).
  m.layer_types.clear();
  for (const std::uint32_t k : *kinds) m.layer_types.push_back(static_cast<AttentionKind>(k));
  // A size for every local kind used, and no size for a kind no layer has.
  const YNode* attn = n.find("attention");
  const auto size_check = [&](AttentionKind k, const char* kind, const char* size_key, std::int64_t size) {
    const bool used = m.layers_of(k) > 0;
    const YNode* given = attn && attn->is_mapping() ? attn->find(size_key) : nullptr;
    if (used && size < 1)
      d.error(list->where,
              join_path(path, key) + ": a " + kind + " layer needs its size: give attention." + size_key);
    else if (!used && given)
      d.error(given->where, join_path(path, std::string("attention.") + size_key) + ": no layer is " + kind +
                                " (name the " + kind + " layers in layer_types or layer_pattern)");
  };
  size_check(AttentionKind::sliding, "sliding", "sliding_window", m.attention.sliding_window);
  size_check(AttentionKind::chunked, "chunked", "chunk", m.attention.chunk);
  // The recurrent and sparse kinds' blocks: given exactly when a layer of the kind is.
  const auto block_check = [&](AttentionKind k, const char* kind, const char* block) {
    const bool used = m.layers_of(k) > 0;
    const YNode* given = n.find(block);
    if (used && !given)
      d.error(list ? list->where : n.where, join_path(path, key) + ": a " + kind +
                                                " layer needs its sizes: give " + block +
                                                " (docs/scenario-format.md)");
    else if (!used && given)
      d.error(given->where, join_path(path, block) + ": no layer is " + kind + " (name the " + kind +
                                " layers in layer_types or layer_pattern)");
  };
  block_check(AttentionKind::sparse, "sparse", "sparse_attention");
  block_check(AttentionKind::linear, "linear", "linear_attention");
  block_check(AttentionKind::mamba, "mamba", "mamba");
  // Where a block's key stands (the block when it is not a mapping with it).
  const auto key_at = [&](const char* block, const char* k) {
    const YNode* b = n.find(block);
    return b->is_mapping() && b->find(k) ? b->find(k)->where : b->where;
  };
  if (m.layers_of(AttentionKind::linear) > 0 && m.linear.key_heads > 0 &&
      m.linear.value_heads % m.linear.key_heads != 0)
    d.error(key_at("linear_attention", "value_heads"),
            join_path(path, "linear_attention.value_heads") + ": expected a multiple of key_heads (" +
                std::to_string(m.linear.key_heads) + "), found " + std::to_string(m.linear.value_heads));
  if (m.layers_of(AttentionKind::mamba) > 0 && m.mamba.groups > 0 && m.mamba.heads % m.mamba.groups != 0)
    d.error(key_at("mamba", "groups"), join_path(path, "mamba.groups") + ": expected a divisor of heads (" +
                                           std::to_string(m.mamba.heads) + "), found " +
                                           std::to_string(m.mamba.groups));
}

// What follows from the fields read: kv_heads (default heads, a divisor of heads) and head_dim
// (default hidden / heads).
void derive_model_heads(const YNode& n, const std::string& path, ModelSpec& m, Diags& d) {
  if (!n.find("kv_heads")) m.kv_heads = m.heads;
  if (m.kv_heads > 0 && m.heads > 0 && m.heads % m.kv_heads != 0) {
    d.error(n.find("kv_heads")->where, join_path(path, "kv_heads") + ": expected a divisor of heads (" +
                                           std::to_string(m.heads) + ", grouped-query attention), found " +
                                           std::to_string(m.kv_heads));
  }
  if (!n.find("head_dim") && m.hidden > 0 && m.heads > 0) {
    if (m.hidden % m.heads != 0) {
      d.error(n.where, join_path(path, "head_dim") + ": missing, and hidden (" + std::to_string(m.hidden) +
                           ") is not a multiple of heads (" + std::to_string(m.heads) +
                           "): write head_dim explicitly");
    } else {
      m.head_dim = m.hidden / m.heads;
    }
  }
}

// The `moe:` block: its fields, and top_k and dense_layers within experts and layers.
void parse_moe_block(const YNode& moe, const std::string& mp, const schema::FieldSite& site, ModelSpec& m,
                     Diags& d) {
  if (!expect_mapping(moe, mp, d)) return;
  check_keys(moe, mp, *schema_keys("model.moe"), d);
  m.has_moe = true;
  read_slot_fields(moe, mp, "model.moe", site, d);
  if (m.moe.experts > 0 && m.moe.top_k > m.moe.experts)
    d.error(moe.find("top_k")->where,
            join_path(mp, "top_k") + ": expected at most experts (" + std::to_string(m.moe.experts) +
                ") distinct experts per token, found " + std::to_string(m.moe.top_k));
  if (m.layers > 0 && moe.find("dense_layers") && m.moe.dense_layers >= m.layers)
    d.error(moe.find("dense_layers")->where,
            join_path(mp, "dense_layers") + ": expected fewer leading dense layers than layers (" +
                std::to_string(m.layers) + "), found " + std::to_string(m.moe.dense_layers));
}

}  // namespace

void parse_dtype_block(const YNode& n, const std::string& path, DTypes& out, Diags& d) {
  parse_dtypes(n, path, out, d);
}

// The model mapping, walked by the field table (scenario/fields/mapping_reader.hpp); code reads
// only what the table cannot say: the name (required in a model file only), the enumerations,
// the dtype block (its hints for part names), the moe block's checks, and afterwards what follows
// from the fields (kv_heads, head_dim), the layer kinds and the checks across fields.
std::optional<ModelSpec> parse_model(const YNode& n, const std::string& path, bool require_name, Diags& d) {
  const std::size_t before = d.size();
  ModelSpec m;
  m.name = "inline model";
  schema::FieldSite site;
  site.model = &m;
  const auto check_text = [&d](const char* row) {
    return [row, &d](const YNode* v, const std::string& p) { read_field(*v, p, row_of(row), d); };
  };
  const ChildReader children[] = {
      name_reader(n, path, "model.name", require_name, m.name, d),
      {"model.description", check_text("model.description")},
      {"model.hf_id", check_text("model.hf_id")},
      {"model.ffn_kind",
       [&](const YNode* v, const std::string& p) {
         if (auto t = read_field(*v, p, row_of("model.ffn_kind"), d))
           m.ffn_kind = t->text == "gated" ? FfnKind::gated : FfnKind::plain;
       }},
      {"model.dtype", [&](const YNode* v, const std::string& p) { parse_dtypes(*v, p, m.dtype, d); }},
      {"model.moe", [&](const YNode* v, const std::string& p) { parse_moe_block(*v, p, site, m, d); }},
      {"model.mla",
       [&](const YNode* v, const std::string& p) {
         if (read_mapping(*v, p, "model.mla", site, d)) m.has_mla = true;
       }},
  };
  if (!read_mapping(n, path, "model", site, d, children)) return std::nullopt;
  // A dimension read well is at least 1 (an absent or refused one stays 0).
  derive_model_heads(n, path, m, d);
  if (d.size() == before) parse_layer_types(n, path, m, d);
  if (d.size() == before) parse_ffn_types(n, path, m, d);
  if (d.size() == before) check_empty_layers(n, path, m, d);
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
  if (m.attention.output_gate && m.has_mla) {
    const YNode* a = n.find("attention");
    d.error(a && a->is_mapping() && a->find("output_gate") ? a->find("output_gate")->where : n.where,
            join_path(path, "attention.output_gate") +
                ": gated attention is modelled on standard attention only, not with mla");
  }
  if (m.parallel_block && (m.layers_of(AttentionKind::none) > 0 || m.ffn_free_layers() > 0)) {
    d.error(n.find("parallel_block") ? n.find("parallel_block")->where : n.where,
            join_path(path, "parallel_block") +
                ": a parallel block runs attention and the FFN side by side; a layer without a mixer or "
                "without an FFN (none) has no such pair");
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
