// Layer kinds (docs/physics.md §3 "Layer kinds", §10): sliding-window and chunked attention
// bounded by what each kind reads, by hand from gpt-oss-120b's dimensions; the limits where a
// local layer is a full one; parameter counts against the gpt-oss model card.
#include <catch2/catch.hpp>

#include <cstring>

#include "fixtures.hpp"
#include "layer_steps.hpp"
#include "tessera/physics/step_work.hpp"

using namespace tessera;
using namespace tessera::test;

// A named namespace: the physics tests build as one unity file (test_mixed_step.cpp has its own
// stage() and chunk_shape()).
namespace layer_kinds {

// gpt-oss-120b (models/gpt-oss-120b.yaml): L36 H2880 h_q64 h_kv8 d64, 128 experts top-4 of
// I_e 2880, V201088 untied, attention and expert biases, router bias, sinks; layers alternate
// sliding (W 128) and full, from layer 0. All bf16 here.
ModelSpec gpt_oss_120b() {
  ModelSpec m;
  m.name = "gpt-oss-120b";
  m.layers = 36;
  m.hidden = 2880;
  m.heads = 64;
  m.kv_heads = 8;
  m.head_dim = 64;
  m.ffn = 2880;
  m.vocab = 201088;
  m.attention_bias = true;
  m.mlp_bias = true;
  m.has_moe = true;
  m.moe.experts = 128;
  m.moe.top_k = 4;
  m.moe.expert_ffn = 2880;
  m.moe.router_bias = true;
  m.attention.sliding_window = 128;
  m.attention.sinks = true;
  for (int i = 0; i < 36; ++i)
    m.layer_types.push_back(i % 2 == 0 ? AttentionKind::sliding : AttentionKind::full);
  return m;
}

}  // namespace layer_kinds

using namespace layer_kinds;

TEST_CASE("layer kinds: gpt-oss-120b parameters equal the model card's 116.83B and 5.13B",
          "[physics][layers]") {
  const ModelSpec m = gpt_oss_120b();
  // Per layer: attention H d (h_q + 2 h_kv) + h_q d H = 26,542,080, biases d (h_q + 2 h_kv) + H
  // = 8,000, sinks 64; an expert 3 H I_e + 2 I_e + H = 24,891,840; router H E + E = 368,768;
  // norms 2H. Embedding and lm_head 2 V H = 1,158,266,880; final norm H.
  const double attn = 26542080.0 + 8000 + 64, expert = 24891840.0, router = 368768.0, norms = 5760.0;
  const double total = 36 * (attn + 128 * expert + router + norms) + 1158266880.0 + 2880;
  CHECK(total == 116829156672.0);
  CHECK(params_total(m) == total);
  const double active = 36 * (attn + 4 * expert + router + norms) + 1158266880.0 + 2880;
  CHECK(params_active(m) == active);
  // The card's 5.13B leaves the embedding row (V H = 579,133,440) out.
  CHECK(params_active(m) - 579133440.0 == Approx(5.13e9).epsilon(0.001));
  CHECK(params_total(m) == Approx(116.83e9).epsilon(0.0001));
  // gpt-oss-20b: 24 layers of 32 experts; the card's 20.91B and 3.61B.
  ModelSpec s = m;
  s.layers = 24;
  s.moe.experts = 32;
  s.layer_types.resize(24);
  CHECK(params_total(s) == Approx(20.91e9).epsilon(0.0005));
  CHECK(params_active(s) - 579133440.0 == Approx(3.61e9).epsilon(0.001));
  CHECK(m.layers_of(AttentionKind::sliding) == 18);
  CHECK(m.layers_of(AttentionKind::full) == 18);
}

TEST_CASE("layer kinds: a sliding decode reads min(S - W) cached tokens", "[physics][layers]") {
  const ModelSpec m = gpt_oss_120b();
  const StepWork w = layer_kinds::build(m, decode(8192, 4), layer_kinds::decode_shape(m, 4, 8192));
  const StageWork* full = layer_kinds::stage(w, "attn.core");
  const StageWork* slide = layer_kinds::stage(w, "attn.core.sliding");
  REQUIRE(full);
  REQUIRE(slide);
  CHECK(full->count == 18);
  CHECK(slide->count == 18);
  CHECK(layer_kinds::stage(w, "attn.core.chunked") == nullptr);
  CHECK(layer_kinds::stage(w, "attn.qkv")->count == 36);
  // B 4, h_q 64 query heads, d 64: 4 d per query per key; KV 2 d bf16 per token per head, 8 heads.
  const double qo = 4 * 64 * 2 * 64 * 2.0;  // T_rank q_pe 2d a
  CHECK(full->flops == Approx(4 * 64 * 4 * 64 * 8192.0));
  CHECK(slide->flops == Approx(4 * 64 * 4 * 64 * 128.0));
  CHECK(full->hbm_bytes == Approx(4 * 8192 * 2 * 64 * 2.0 * 8 + qo));
  CHECK(slide->hbm_bytes == Approx(4 * 128 * 2 * 64 * 2.0 * 8 + qo));
  // A context shorter than the window: the sliding layer reads all of it, like a full one.
  const StepWork s = layer_kinds::build(m, decode(100, 4), layer_kinds::decode_shape(m, 4, 100));
  CHECK(layer_kinds::stage(s, "attn.core.sliding")->flops ==
        Approx(layer_kinds::stage(s, "attn.core")->flops));
  CHECK(layer_kinds::stage(s, "attn.core.sliding")->hbm_bytes ==
        Approx(layer_kinds::stage(s, "attn.core")->hbm_bytes));
}

TEST_CASE("layer kinds: a window at least the context equals full attention", "[physics][layers]") {
  ModelSpec local = gpt_oss_120b();
  ModelSpec full = local;
  full.layer_types.clear();
  full.attention.sliding_window = 0;
  for (const AttentionKind k : {AttentionKind::sliding, AttentionKind::chunked}) {
    INFO(static_cast<int>(k));
    local.attention.sliding_window = local.attention.chunk = 8192;
    for (auto& t : local.layer_types)
      if (t != AttentionKind::full) t = k;
    // Decode at S = 8192 and S = 5000; prefill chunks [0, 2048) and [4096, 6144) and a whole
    // 8192-token prompt: every key of every query lies inside the window.
    for (const double S : {8192.0, 5000.0}) {
      const CoreSum a =
          core_sum(layer_kinds::build(local, decode(8192, 2), layer_kinds::decode_shape(local, 2, S)));
      const CoreSum b =
          core_sum(layer_kinds::build(full, decode(8192, 2), layer_kinds::decode_shape(full, 2, S)));
      CHECK(a.count == 36);
      CHECK(a.flops == Approx(b.flops).epsilon(1e-12));
      CHECK(a.bytes == Approx(b.bytes).epsilon(1e-12));
    }
    for (const auto& [c, P] : {std::pair{2048, 0.0}, std::pair{2048, 4096.0}, std::pair{8192, 0.0}}) {
      const CoreSum a =
          core_sum(layer_kinds::build(local, prefill(8192, 1, c), layer_kinds::chunk_shape(local, c, P)));
      const CoreSum b =
          core_sum(layer_kinds::build(full, prefill(8192, 1, c), layer_kinds::chunk_shape(full, c, P)));
      CHECK(a.flops == Approx(b.flops).epsilon(1e-12));
      CHECK(a.bytes == Approx(b.bytes).epsilon(1e-12));
    }
  }
}

TEST_CASE("layer kinds: prefill pairs and KV held by a sliding and a chunked layer", "[physics][layers]") {
  ModelSpec m = gpt_oss_120b();
  // Sliding W 128, chunk c 1024 after P 4096: each query reads W keys: pairs c W; held W + c.
  StepWork w = layer_kinds::build(m, prefill(8192, 1, 1024), layer_kinds::chunk_shape(m, 1024, 4096));
  const StageWork* s = layer_kinds::stage(w, "attn.core.sliding");
  REQUIRE(s);
  const double per_qk = 4 * 64.0, q = 64, kv_token = 2 * 64 * 2.0 * 8, qo = 1024 * q * 2 * 64 * 2.0;
  CHECK(s->flops == Approx(per_qk * q * 1024 * 128));
  CHECK(s->hbm_bytes == Approx((128 + 1024) * kv_token + qo));
  // The first chunk [0, 1024): queries 0..127 read q keys, the rest 128: 128^2/2 + 896 * 128.
  w = layer_kinds::build(m, prefill(8192, 1, 1024), layer_kinds::chunk_shape(m, 1024, 0));
  CHECK(layer_kinds::stage(w, "attn.core.sliding")->flops ==
        Approx(per_qk * q * (128.0 * 128 / 2 + 896 * 128)));
  CHECK(layer_kinds::stage(w, "attn.core.sliding")->hbm_bytes == Approx(1024 * kv_token + qo));
  // Chunked, C 1024: the chunk [1536, 2560) spans the end of chunk 1 and the start of chunk 2:
  // (1024^2 - 512^2)/2 + 512^2/2 = 1024^2/2 pairs; held (1536 mod 1024) + 1024 = 1536 tokens.
  for (auto& t : m.layer_types)
    if (t == AttentionKind::sliding) t = AttentionKind::chunked;
  m.attention.sliding_window = 0;
  m.attention.chunk = 1024;
  w = layer_kinds::build(m, prefill(8192, 1, 1024), layer_kinds::chunk_shape(m, 1024, 1536));
  const StageWork* ch = layer_kinds::stage(w, "attn.core.chunked");
  REQUIRE(ch);
  CHECK(ch->count == 18);
  CHECK(ch->flops == Approx(per_qk * q * 1024.0 * 1024 / 2));
  CHECK(ch->hbm_bytes == Approx(1536 * kv_token + qo));
  // Decode: the bound min(S, C).
  w = layer_kinds::build(m, decode(8192, 1), layer_kinds::decode_shape(m, 1, 8192));
  CHECK(layer_kinds::stage(w, "attn.core.chunked")->flops == Approx(per_qk * q * 1024));
}

TEST_CASE("layer kinds: KV memory holds W tokens per sliding layer", "[physics][layers][memory]") {
  const ModelSpec m = gpt_oss_120b();
  ParallelConfig c;
  // B 2 at S 65536 on one H100: 18 full layers of S tokens and 18 sliding of 128, each token
  // 2 d k h_kv = 2048 bytes.
  const Evaluation e = evaluate(m, dgx_h100(), decode(65536, 2), c);
  CHECK(e.memory.kv_bytes == Approx(2 * 2048.0 * (18 * 65536 + 18 * 128)));
  ModelSpec full = m;
  full.layer_types.clear();
  const Evaluation f = evaluate(full, dgx_h100(), decode(65536, 2), c);
  CHECK(f.memory.kv_bytes == Approx(2 * 2048.0 * 36 * 65536));
  // pp 2: each stage of 18 layers holds its own 9 full and 9 sliding ones (the layers alternate).
  c.pp = 2;
  const Evaluation p = evaluate(m, dgx_h100(), decode(65536, 2), c);
  CHECK(p.memory.kv_bytes == Approx(2 * 2048.0 * (9 * 65536 + 9 * 128)));
  // Were the full layers all in one half, that stage would hold 18 of them.
  ModelSpec halves = m;
  for (int i = 0; i < 36; ++i)
    halves.layer_types[static_cast<std::size_t>(i)] = i < 18 ? AttentionKind::full : AttentionKind::sliding;
  CHECK(evaluate(halves, dgx_h100(), decode(65536, 2), c).memory.kv_bytes == Approx(2 * 2048.0 * 18 * 65536));
}
