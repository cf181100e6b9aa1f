// Recurrent and sparse layers (docs/physics.md §3 "Recurrent layers", "Sparse attention", §10):
// Gated DeltaNet (Qwen3-Next), Mamba-2 (Nemotron-H) and DeepSeek sparse attention, by hand from
// the shipped models' dimensions; the limits that must agree (a recurrent layer's decode does not
// grow with the context; top-k at least the context is dense attention plus the indexer).
#include <catch2/catch.hpp>

#include "tessera_build_paths.hpp"

#include "fixtures.hpp"
#include "layer_steps.hpp"
#include "physics/kv_transfer.hpp"
#include "scenario/scenario_loader.hpp"

using namespace tessera;
using namespace tessera::test;
namespace recurrent_layers {

using layer_kinds::build;
using layer_kinds::chunk_shape;
using layer_kinds::decode_shape;
using layer_kinds::stage;

ModelSpec shipped(const char* file) {
  return load_model_file(std::string(TESSERA_SOURCE_DIR) + "/models/" + file);
}

// Every stage's FLOPs and bytes, times its count, but those named `skip_prefix`.
struct Sum {
  double flops = 0, bytes = 0;
};
Sum step_sum(const StepWork& w, const char* skip_prefix = nullptr) {
  Sum s;
  for (int i = 0; i < w.size; ++i) {
    const StageWork& st = w.stages[static_cast<std::size_t>(i)];
    if (skip_prefix && std::strncmp(st.name, skip_prefix, std::strlen(skip_prefix)) == 0) continue;
    s.flops += st.count * st.flops;
    s.bytes += st.count * st.hbm_bytes;
  }
  return s;
}

}  // namespace recurrent_layers

using namespace recurrent_layers;

TEST_CASE("recurrent layers: Qwen3-Next and Nemotron-H parameters by hand", "[physics][layers]") {
  const ModelSpec q = shipped("qwen3-next-80b-a3b.yaml");
  CHECK(q.layers_of(AttentionKind::linear) == 36);
  CHECK(q.layers_of(AttentionKind::full) == 12);
  // Gated attention: H d (2 h_q + 2 h_kv) + h_q d H = 2048 x 256 x 36 + 16 x 256 x 2048.
  const double attn = 2048.0 * 256 * 36 + 16.0 * 256 * 2048;
  CHECK(attn == 27262976.0);
  // Gated DeltaNet: in_proj_qkvz H (2 D_k + 2 D_v), in_proj_ba 2 H n_v, the convolution over
  // 2 D_k + D_v channels of 4, dt_bias and A_log 2 n_v, the norm d_v, out_proj D_v H; D_k = 2048,
  // D_v = 4096.
  const double lin = 2048.0 * 12288 + 2048.0 * 64 + 8192.0 * 4 + 64 + 128 + 4096.0 * 2048;
  CHECK(lin == 33718464.0);
  // 48 MoE layers of 512 + 1 shared experts of 3 H I_e and a router H E; norms (2L + 1) H; the
  // embedding and lm_head 2 V H.
  const double expert = 3.0 * 2048 * 512, router = 2048.0 * 512, norms = 97.0 * 2048,
               ends = 2.0 * 151936 * 2048;
  const double total = 12 * attn + 36 * lin + 48 * (513 * expert + router) + norms + ends;
  CHECK(params_total(q) == total);
  CHECK(params_total(q) == 79674286848.0);
  CHECK(params_active(q) == 12 * attn + 36 * lin + 48 * (11 * expert + router) + norms + ends);

  const ModelSpec n = shipped("nemotron-h-56b.yaml");
  CHECK(n.layers_of(AttentionKind::mamba) == 54);
  CHECK(n.layers_of(AttentionKind::full) == 10);
  CHECK(n.layers_of(AttentionKind::none) == 54);
  CHECK(n.ffn_free_layers() == 64);
  CHECK(n.dense_ffn_layers() == 54);
  // Mamba-2: in_proj H (2 D_i + 2 n_g N + n_h), the convolution over D_i + 2 n_g N channels of 4
  // and its bias, dt_bias, A_log and D, the norm D_i, out_proj D_i H; D_i = 16384.
  const double mamba = 8192.0 * (32768 + 4096 + 256) + 20480.0 * 5 + 3 * 256 + 16384 + 16384.0 * 8192;
  CHECK(mamba == 438424320.0);
  const double nattn = 8192.0 * 128 * (64 + 16) + 64.0 * 128 * 8192, mlp = 2.0 * 8192 * 32768;
  // One norm per mixer and per MLP (118 of them) and the final one.
  const double nnorms = 119.0 * 8192, nends = 2.0 * 131072 * 8192;
  CHECK(params_total(n) == 10 * nattn + 54 * mamba + 54 * mlp + nnorms + nends);
  CHECK(params_total(n) == 56324350464.0);
}

TEST_CASE("recurrent layers: DeepSeek-V3.2 is DeepSeek-V3 and an indexer per layer", "[physics][layers]") {
  const ModelSpec v32 = shipped("deepseek-v3.2.yaml");
  const ModelSpec v3 = shipped("deepseek-v3.yaml");
  // wq_b 1536 x 64 x 128, wk 7168 x 128, weights_proj 7168 x 64, the key's LayerNorm 2 x 128.
  const double indexer = 1536.0 * 64 * 128 + 7168.0 * 128 + 7168.0 * 64 + 256;
  CHECK(indexer == 13959424.0);
  CHECK(params_total(v32) - params_total(v3) == 61 * indexer);
  CHECK(params_active(v32) - params_active(v3) == 61 * indexer);
}

TEST_CASE("recurrent layers: state and KV bytes per sequence by hand", "[physics][layers][memory]") {
  ParallelConfig c;
  // Qwen3-Next on one H100, B 2: 12 full layers of S tokens x 2 h_kv x 2 d x 2 B = 2048 B each;
  // 36 linear layers of n_v d_k d_v + 3 (2 D_k + D_v) = 524288 + 24576 elements x 2 B each
  // sequence, whatever S.
  const ModelSpec q = shipped("qwen3-next-80b-a3b.yaml");
  const double lin_state = (32.0 * 128 * 128 + 3.0 * 8192) * 2;
  CHECK(lin_state == 1097728.0);
  for (const std::int64_t S : {4096, 131072}) {
    INFO("S " << S);
    const Evaluation e = evaluate(q, dgx_h100(), decode(S, 2), c);
    CHECK(e.memory.kv_bytes == Approx(2 * (12 * 2048.0 * static_cast<double>(S) + 36 * lin_state)));
  }
  // Nemotron-H, state in fp32: 10 full layers of 2 x 8 x 128 x 2 B = 4096 B per token; 54 mamba
  // layers of n_h P N + 3 (D_i + 2 n_g N) = 4194304 + 61440 elements x 4 B.
  const ModelSpec n = shipped("nemotron-h-56b.yaml");
  const double ssm_state = (256.0 * 64 * 256 + 3.0 * 20480) * 4;
  CHECK(ssm_state == 17022976.0);
  const Evaluation e = evaluate(n, dgx_h100(), decode(8192, 1), c);
  CHECK(e.memory.kv_bytes == Approx(10 * 4096.0 * 8192 + 54 * ssm_state));
  // DeepSeek-V3.2: every layer caches the latent (512 + 64) x 2 B and the index key 128 + 4 B.
  const ModelSpec v32 = shipped("deepseek-v3.2.yaml");
  const Evaluation d = evaluate(v32, dgx_h100(), decode(8192, 1), c);
  CHECK(d.memory.kv_bytes == Approx(61 * (576.0 * 2 + 132) * 8192));
}

TEST_CASE("recurrent layers: a linear or mamba layer's decode does not grow with the context",
          "[physics][layers]") {
  for (const char* file : {"qwen3-next-80b-a3b.yaml", "nemotron-h-56b.yaml"}) {
    const ModelSpec m = shipped(file);
    INFO(file);
    const char* scan = m.layers_of(AttentionKind::linear) > 0 ? "linear.scan" : "mamba.scan";
    const StepWork a =
        recurrent_layers::build(m, decode(4096, 4), recurrent_layers::decode_shape(m, 4, 4096));
    const StepWork b =
        recurrent_layers::build(m, decode(262144, 4), recurrent_layers::decode_shape(m, 4, 262144));
    REQUIRE(recurrent_layers::stage(a, scan));
    REQUIRE(recurrent_layers::stage(b, scan));
    CHECK(recurrent_layers::stage(a, scan)->flops == recurrent_layers::stage(b, scan)->flops);
    CHECK(recurrent_layers::stage(a, scan)->hbm_bytes == recurrent_layers::stage(b, scan)->hbm_bytes);
    // Only the full layers' attention grows.
    CHECK(recurrent_layers::stage(b, "attn.core")->hbm_bytes >
          60 * recurrent_layers::stage(a, "attn.core")->hbm_bytes);
  }
  // Gated DeltaNet decode per token at tp 1: 7 d_k d_v per value head and 2 K_c per channel;
  // the state of each sequence read and written.
  const ModelSpec q = shipped("qwen3-next-80b-a3b.yaml");
  const StepWork w = recurrent_layers::build(q, decode(4096, 4), recurrent_layers::decode_shape(q, 4, 4096));
  const StageWork* s = recurrent_layers::stage(w, "linear.scan");
  CHECK(s->flops == 4 * (32.0 * 7 * 128 * 128 + 2.0 * 4 * 8192));
  CHECK(s->hbm_bytes == 2 * 4 * (32.0 * 128 * 128 + 3.0 * 8192) * 2 + 4 * (8192.0 + 2 * 4096) * 2);
  CHECK(s->count == 36);
  CHECK(recurrent_layers::stage(w, "attn.qkv")->count == 12);
  CHECK(recurrent_layers::stage(w, "linear.proj")->count == 36);
}

TEST_CASE("recurrent layers: top-k at least the context is dense attention plus the indexer",
          "[physics][layers]") {
  ModelSpec sparse = shipped("deepseek-v3.2.yaml");
  sparse.sparse.top_k = 1 << 20;
  const ModelSpec dense = shipped("deepseek-v3.yaml");
  for (const bool decoding : {true, false}) {
    INFO((decoding ? "decode" : "prefill chunk"));
    const StepShape sh = decoding ? recurrent_layers::decode_shape(sparse, 2, 16384)
                                  : recurrent_layers::chunk_shape(sparse, 2048, 8192);
    const Workload w = decoding ? decode(16384, 2) : prefill(16384, 1, 2048);
    const StepWork a = recurrent_layers::build(sparse, w, sh);
    const StepWork b = recurrent_layers::build(dense, w, sh);
    REQUIRE(recurrent_layers::stage(a, "attn.core.sparse"));
    CHECK(recurrent_layers::stage(a, "attn.core.sparse")->flops ==
          recurrent_layers::stage(b, "attn.core")->flops);
    CHECK(recurrent_layers::stage(a, "attn.core.sparse")->hbm_bytes ==
          recurrent_layers::stage(b, "attn.core")->hbm_bytes);
    const Sum without = step_sum(a, "attn.ind");
    const Sum plain = step_sum(b);
    CHECK(without.flops == Approx(plain.flops).epsilon(1e-12));
    CHECK(without.bytes == Approx(plain.bytes).epsilon(1e-12));
  }
  // At top-k 2048 a decode query at 16K reads 2048 latents; the indexer scores all 16384
  // (64 heads of 128: 2 h_I d_I + 2 h_I FLOPs a key) from 132-byte keys.
  const ModelSpec v32 = shipped("deepseek-v3.2.yaml");
  const StepWork w =
      recurrent_layers::build(v32, decode(16384, 2), recurrent_layers::decode_shape(v32, 2, 16384));
  const StepWork full =
      recurrent_layers::build(dense, decode(16384, 2), recurrent_layers::decode_shape(dense, 2, 16384));
  CHECK(recurrent_layers::stage(w, "attn.core.sparse")->flops ==
        Approx(recurrent_layers::stage(full, "attn.core")->flops * 2048 / 16384));
  CHECK(recurrent_layers::stage(w, "attn.indexer")->flops == 2 * 16384 * (2.0 * 64 * 128 + 2 * 64));
  CHECK(recurrent_layers::stage(w, "attn.indexer")->hbm_bytes == 2 * 16384 * 132.0 + 2 * 64 * 128 * 2.0);
}

TEST_CASE("recurrent layers: a pipeline stage holds its own mixers and FFNs", "[physics][layers]") {
  const ModelSpec q = shipped("qwen3-next-80b-a3b.yaml");
  // pp 2: 24 layers a stage, 6 full and 18 linear (the pattern repeats every 4).
  const auto mix = q.path_mixers(24, 2);
  CHECK(mix[static_cast<std::size_t>(AttentionKind::full)] == 6);
  CHECK(mix[static_cast<std::size_t>(AttentionKind::linear)] == 18);
  const ModelSpec n = shipped("nemotron-h-56b.yaml");
  // The whole model: 54 mamba, 10 full, 54 without a mixer.
  const auto all = n.path_mixers(118, 1);
  CHECK(all[static_cast<std::size_t>(AttentionKind::mamba)] == 54);
  CHECK(all[static_cast<std::size_t>(AttentionKind::none)] == 54);
  // Prefill over 2 CP ranks hands each linear layer's state on once.
  ParallelConfig c;
  c.cp = 2;
  const StepWork w =
      recurrent_layers::build(q, prefill(8192, 1, 8192), recurrent_layers::chunk_shape(q, 8192, 0), c);
  REQUIRE(recurrent_layers::stage(w, "linear.cp"));
  CHECK(recurrent_layers::stage(w, "linear.cp")->count == 36);
  CHECK(recurrent_layers::stage(w, "linear.cp")->comms[0].bytes == (32.0 * 128 * 128 + 3.0 * 8192) * 2);
}

TEST_CASE("recurrent layers: a disaggregated hand-over sends what each layer keeps", "[physics][layers]") {
  // Qwen3-Next, a 4096-token prompt: the 12 full layers' KV (2048 B a token) and, once, the 36
  // linear layers' state of the sequence (1,097,728 B each in bf16).
  const ModelSpec q = shipped("qwen3-next-80b-a3b.yaml");
  CHECK(kv_transfer_bytes(q, 4096) == 12 * 4096 * 2048.0);
  CHECK(state_transfer_bytes(q) == 36 * 1097728.0);
  // DeepSeek-V3.2: every layer's latent (576 x 2 B) and index key (132 B) of each token.
  const ModelSpec v32 = shipped("deepseek-v3.2.yaml");
  CHECK(kv_transfer_bytes(v32, 4096) == 61 * 4096 * (1152.0 + 132));
  CHECK(state_transfer_bytes(v32) == 0);
  // A sliding layer sends its window only (gpt-oss-120b: 18 full layers of 4096 tokens and 18
  // sliding ones of 128, 2048 B a token).
  const ModelSpec g = shipped("gpt-oss-120b.yaml");
  CHECK(kv_transfer_bytes(g, 4096) == (18 * 4096 + 18 * 128) * 2048.0);
}

TEST_CASE("recurrent layers: the field table's defaults and the prefill scan in chunks of 64",
          "[physics][layers]") {
  // models/qwen3-next-80b-a3b.yaml leaves linear_attention.chunk out: 64, as the table says.
  const ModelSpec q = shipped("qwen3-next-80b-a3b.yaml");
  CHECK(q.linear.chunk == 64);
  CHECK(MambaSpec{}.groups == 1);
  CHECK(MambaSpec{}.conv_kernel == 4);
  CHECK(MambaSpec{}.chunk == 256);
  // Per token and value head: 2 C (3 d_k + 2 d_v) + 6 d_k d_v = 81,920 + 98,304; the
  // convolution 2 K_c per channel, 8192 channels.
  const StepWork w =
      recurrent_layers::build(q, prefill(4096, 1, 4096), recurrent_layers::chunk_shape(q, 4096, 0));
  CHECK(recurrent_layers::stage(w, "linear.scan")->flops == 4096 * (32 * (81920.0 + 98304) + 8.0 * 8192));
}

TEST_CASE("recurrent layers: a mixed iteration's decode sequences read and write their state",
          "[physics][layers]") {
  const ModelSpec q = shipped("qwen3-next-80b-a3b.yaml");
  StepShape sh = recurrent_layers::chunk_shape(q, 512, 0);
  sh.mixed_batch = 3;
  sh.mixed_context = 1000;
  sh.tokens += 3;
  const StepWork w = recurrent_layers::build(q, prefill(4096, 1, 512), sh);
  const StageWork* s = recurrent_layers::stage(w, "linear.scan");
  // One prompt and 3 decode sequences: 4 states of 548,864 bf16 elements, read and written; 515
  // tokens' inputs and outputs. The 3 decode tokens scan in decode form (7 d_k d_v a head).
  CHECK(s->hbm_bytes == 2 * 4 * 548864.0 * 2 + 515 * (8192.0 + 2 * 4096) * 2);
  CHECK(s->flops == 512 * (32 * (81920.0 + 98304) + 8.0 * 8192) + 3 * (32 * 7.0 * 128 * 128 + 8.0 * 8192));
}

TEST_CASE("recurrent layers: Nemotron-H's heaviest stage is one real stage", "[physics][layers]") {
  // Each Nemotron-H layer runs one block (a mixer or an MLP): a stage of 30 layers holds 30, and
  // the stage timed is the one whose layers weigh the most (MLP 537 M, Mamba-2 438 M, attention
  // 151 M parameters).
  const ModelSpec n = shipped("nemotron-h-56b.yaml");
  const MachineSpec mach = dgx_h100();
  const EvalContext ctx = make_eval_context(n, mach);
  REQUIRE(ctx.partial_layers);
  for (const std::int64_t pp : {2, 4, 8, 30, 40, 59}) {
    INFO("pp " << pp);
    const std::int64_t per = (118 + pp - 1) / pp;
    const auto mix = ctx.stage_mixers(pp);
    const auto ffn = ctx.stage_ffns(pp);
    double mixers = 0, all = 0, ffns_all = 0, weight = 0;
    for (std::size_t k = 0; k < mix.size(); ++k) {
      all += mix[k];
      weight += mix[k] * ctx.mixer_weight[k];
      if (k != static_cast<std::size_t>(AttentionKind::none)) mixers += mix[k];
    }
    for (std::size_t k = 0; k < ffn.size(); ++k) {
      ffns_all += ffn[k];
      weight += ffn[k] * ctx.ffn_weight[k];
    }
    CHECK(all == static_cast<double>(per));
    CHECK(ffns_all == static_cast<double>(per));
    CHECK(mixers + ffn[static_cast<std::size_t>(LayerFfn::dense)] <= static_cast<double>(per));
    // No real stage weighs more.
    for (std::int64_t lo = 0; lo < 118; lo += per) {
      double w = 0;
      for (std::int64_t i = lo; i < std::min<std::int64_t>(118, lo + per); ++i)
        w += ctx.mixer_weight[static_cast<std::size_t>(n.layer_types[static_cast<std::size_t>(i)])] +
             ctx.ffn_weight[static_cast<std::size_t>(n.ffn_types[static_cast<std::size_t>(i)])];
      CHECK(w <= weight);
    }
  }
}

TEST_CASE("recurrent layers: replicated heads are redundant work", "[physics][layers]") {
  // Two B/C groups (Nemotron-H has 8) replicate past tp 2: the useful FLOPs of all PEs stay
  // the model's.
  ModelSpec n = shipped("nemotron-h-56b.yaml");
  n.mamba.groups = 2;
  double useful_tp1 = 0;
  for (const int tp : {1, 4}) {
    ParallelConfig c;
    c.tp = tp;
    const StepWork w =
        recurrent_layers::build(n, prefill(2048, 1, 2048), recurrent_layers::chunk_shape(n, 2048, 0), c);
    double useful = 0;
    for (const char* name : {"mamba.in_proj", "mamba.scan", "mamba.out_proj"}) {
      const StageWork* s = recurrent_layers::stage(w, name);
      useful += (s->flops - s->redundant_flops) * tp;
    }
    if (tp == 1) useful_tp1 = useful;
    CHECK(useful == Approx(useful_tp1).epsilon(1e-12));
  }
}
