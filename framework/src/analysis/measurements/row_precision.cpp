// A measured row's precision column -> Tessera's dtypes (analysis/measurements/row_precision.hpp).
#include "analysis/measurements/row_precision.hpp"

#include <cctype>
#include <set>
#include <vector>

#include "core/text/input_text.hpp"

namespace tessera::accuracy {

namespace {

// One word of a precision string: letters, digits and `_` (so "float8_e4m3fn" is one word,
// "16-bit" two, "bf16/fp16" two).
std::vector<std::string> words(const std::string& p) {
  std::vector<std::string> out;
  std::string w;
  for (const char c : p) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      w += c;
    } else {
      if (!w.empty()) out.push_back(w);
      w.clear();
      if (c == ';') out.emplace_back(";");  // a clause ends
      if (c == ',') out.emplace_back(",");  // a segment ends
    }
  }
  if (!w.empty()) out.push_back(w);
  return out;
}

// The dtype a word names (lower case), if any. int4 and its weight-only schemes (AWQ, GPTQ,
// w4a16) name 4-bit weights.
std::optional<DType> dtype_word(const std::string& w) {
  if (w == "fp16" || w == "float16" || w == "half") return DType::fp16;
  if (w == "bf16" || w == "bfloat16") return DType::bf16;
  if (w == "fp32" || w == "float32") return DType::fp32;
  if (w == "fp8" || w == "float8" || w == "e4m3" || w == "e5m2" || w == "float8_e4m3fn" || w == "fp8_e4m3" ||
      w == "fp8_e5m2")
    return DType::fp8;
  if (w == "int8") return DType::int8;
  if (w == "int4" || w == "awq" || w == "gptq" || w == "w4a16") return DType::int4;
  if (w == "nvfp4") return DType::nvfp4;
  if (w == "mxfp4") return DType::mxfp4;
  if (w == "mxfp8") return DType::mxfp8;
  return std::nullopt;
}

enum Role : unsigned { kWeights = 1, kKv = 2, kActivations = 4 };

unsigned role_word(const std::string& w) {
  if (w == "weights" || w == "weight" || w == "w") return kWeights;
  if (w == "kv" || w == "kv_cache" || w == "kvcache") return kKv;
  if (w == "activations" || w == "activation" || w == "act" || w == "acts") return kActivations;
  return 0;
}

// Words naming a part of the model rather than a tensor role: a dtype attached to them is a
// per-layer precision, which no single dtype set describes.
bool layer_word(const std::string& w) {
  for (const char* l : {"attention", "attn", "experts", "expert", "moe", "gemms", "gemm", "layers", "mlp",
                        "dense", "proj", "o_proj", "q_b_proj", "lm_head", "embedding"})
    if (w == l) return true;
  return false;
}

}  // namespace

std::optional<DTypes> dtypes_from_precision(const std::string& precision, std::string& why) {
  const std::string p = lower(trim(precision));
  DTypes d;
  if (p.empty()) {
    why = "precision not stated";
    return std::nullopt;
  }
  auto all = [&](DType t) {
    d.weights = d.kv = d.activations = t;
    return d;
  };
  // DeepGEMM's "fp8 e4m3 inputs with fine-grained (block) scaling ...; output dtype not stated":
  // a GEMM's inputs are all it times.
  if (p.rfind("fp8 e4m3 inputs", 0) == 0) return all(DType::fp8);
  // "fp4 (format, e.g. NVFP4 vs MXFP4, not stated)": both formats run on the same FP4 tensor cores
  // at one peak (machines/gb200-nvl72.yaml); they differ only in scale bytes (0.5625 vs 0.53125 B
  // per element). nvfp4, the wider, is taken (docs/accuracy.md "How a row is mapped").
  if (p.rfind("fp4 (format", 0) == 0) return all(DType::nvfp4);
  for (const char* vague : {"not stated", "presumably", "not explicitly", "unknown", "not set"})
    if (p.find(vague) != std::string::npos) {
      why = "precision '" + precision + "': part of it is not stated";
      return std::nullopt;
    }
  // The dtype words, each with the roles (weights, KV, activations) that follow it in its clause
  // ("fp8 (weights, activations, KV)", "bf16 (fp8 KV cache)"); words that are neither — "default",
  // "16", "bit", "use_fp8", "true", "dynamic" — are qualifiers and read as nothing.
  struct Named {
    DType t;
    unsigned roles = 0;
    bool per_layer = false;
    bool leading = false;  // its roles were named before it ("weights FP8")
  };
  // Segments end at `,` and `;` (`;` also closes the clause: no later role attaches to what it
  // named). Roles and layer words before a segment's first dtype attach to that dtype ("weights
  // FP8", "KV cache fp8_e4m3"); roles after a dtype, and a segment of roles alone, attach to the
  // last dtype named ("fp8 (weights, activations, KV)").
  std::vector<Named> named;
  unsigned leading_roles = 0;
  bool leading_layer = false, segment_has_dtype = false;
  auto end_segment = [&](bool closes_clause) {
    if (!segment_has_dtype && !named.empty() && (named.back().roles & 0x100) == 0) {
      named.back().roles |= leading_roles;
      named.back().per_layer = named.back().per_layer || leading_layer;
    }
    if (closes_clause && !named.empty()) named.back().roles |= 0x100;
    leading_roles = 0;
    leading_layer = segment_has_dtype = false;
  };
  for (const std::string& w : words(p)) {
    if (w == ";" || w == ",") {
      end_segment(w == ";");
      continue;
    }
    if (const auto t = dtype_word(w)) {
      if (!named.empty() && named.back().t == *t && named.back().roles == 0) continue;  // "fp8 (e4m3)"
      if (segment_has_dtype && named.back().leading && named.back().t == *t)
        continue;  // "weights FP8 (... native FP8)": the segment's own dtype again
      named.push_back({*t, segment_has_dtype ? 0u : leading_roles, !segment_has_dtype && leading_layer,
                       !segment_has_dtype && leading_roles != 0});
      segment_has_dtype = true;
    } else if (!segment_has_dtype) {
      leading_roles |= role_word(w);
      leading_layer = leading_layer || layer_word(w);
    } else if ((named.back().roles & 0x100) == 0) {
      named.back().roles |= role_word(w);
      named.back().per_layer = named.back().per_layer || layer_word(w);
    }
  }
  end_segment(false);
  if (named.empty()) {
    why = "precision '" + precision + "' has no dtype mapping";
    return std::nullopt;
  }
  std::set<DType> kinds;
  for (Named& n : named) {
    n.roles &= 0xff;
    kinds.insert(n.t);
  }
  for (const Named& n : named)
    if (n.per_layer && kinds.size() > 1) {
      // A per-layer mix of dtypes, which no single dtype set describes. The text is the one this
      // row had before (tests/golden's digest holds it).
      why = "precision '" + precision + "' has no dtype mapping";
      return std::nullopt;
    }
  // Dtypes named with no role are the default of every role no other word names. Two 16-bit
  // float alternatives ("16-bit (bf16/fp16)") are one: bf16 and fp16 have the same bytes and the
  // same peak on every shipped machine (fp16 falls back to bf16 where a PE has no fp16 peak).
  std::set<DType> defaults;
  for (const Named& n : named)
    if (n.roles == 0 && n.t != DType::int4) defaults.insert(n.t);
  if (defaults.size() == 2 && defaults.count(DType::bf16) && defaults.count(DType::fp16))
    defaults.erase(DType::fp16);
  if (defaults.size() > 1) {
    why = "precision '" + precision + "' names several dtypes without saying which part each is";
    return std::nullopt;
  }
  unsigned set = 0;
  auto assign = [&](unsigned roles, DType t) {
    if (roles & kWeights) d.weights = t;
    if (roles & kKv) d.kv = t;
    if (roles & kActivations) d.activations = t;
    set |= roles;
  };
  for (const Named& n : named) {
    // int4 and its schemes quantize weights only.
    const unsigned roles = n.t == DType::int4 ? (n.roles ? n.roles : kWeights) : n.roles;
    if (roles & set) {
      why = "precision '" + precision + "' names two dtypes for the same part";
      return std::nullopt;
    }
    assign(roles, n.t);
  }
  if (!defaults.empty()) {
    assign(~set & (kWeights | kKv | kActivations), *defaults.begin());
  } else if (set == kWeights && (d.weights == DType::int8 || d.weights == DType::int4)) {
    // Weight-only integer quantization ("int8 (weights)", "int4 AWQ"): activations and KV stay
    // 16-bit. Float formats named for the weights alone ("fp8 weights") say nothing of the rest.
    assign(kKv | kActivations, DType::fp16);
  }
  if (set != (kWeights | kKv | kActivations)) {
    why = "precision '" + precision +
          "': the dtype of part of the model (weights, KV or activations) is not stated";
    return std::nullopt;
  }
  return d;
}

}  // namespace tessera::accuracy
