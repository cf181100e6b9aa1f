// The work of a mixed iteration of serving (docs/physics.md §12, StepShape::mixed_batch): b decode
// tokens at context S beside a prefill chunk of c tokens after P, by hand from the dimensions.
#include <catch2/catch.hpp>

#include <cstring>

#include "fixtures.hpp"
#include "tessera/physics/step_work.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

const StageWork& stage(const StepWork& w, const char* name) {
  for (int i = 0; i < w.size; ++i)
    if (std::strcmp(w.stages[static_cast<std::size_t>(i)].name, name) == 0)
      return w.stages[static_cast<std::size_t>(i)];
  FAIL("no stage " << name);
  return w.stages[0];
}

StepShape chunk_shape(std::int64_t prompts, std::int64_t c, double P, std::int64_t b, double S, bool last) {
  StepShape sh;
  sh.mode = Mode::prefill;
  sh.batch = prompts;
  sh.tokens = prompts * c + b;
  sh.kv_cached = P;
  sh.chunk = c;
  sh.layers = 80;
  sh.dense_layers = 80;
  sh.lm_head = last;
  sh.hops = 0;
  sh.mixed_batch = b;
  sh.mixed_context = S;
  return sh;
}

}  // namespace

TEST_CASE("mixed iteration work: attention per part and GEMMs on every token", "[physics][serving]") {
  // Llama-3.1-70B bf16 on one H100 (tp 1): H 8192, h_q 64, h_kv 8, d 128, I 28672, V 128256.
  const ModelSpec m = llama31_70b();
  const MachineSpec mach = dgx_h100();
  Workload w;
  w.mode = Mode::prefill;
  w.context = 2048;
  w.chunk = 1024;
  const EvalContext ctx = make_eval_context(m, mach);
  ParallelConfig c;
  Layout lay;
  compute_layout(m, mach, w, c, lay);
  REQUIRE(lay.valid);
  StepWork mixed, alone;
  // b = 16 decode tokens at S = 3000 beside a chunk of 1024 after P = 1024, the prompt's last.
  build_step_work(ctx, w, c, lay, chunk_shape(1, 1024, 1024, 16, 3000, true), mixed);
  build_step_work(ctx, w, c, lay, chunk_shape(1, 1024, 1024, 0, 0, true), alone);
  const double H = 8192, d = 128, hq = 64, hkv = 8, V = 128256;
  // attn.core: the chunk's 4 d h_q c (P + c/2) plus the decode part's 4 d h_q b S.
  const double chunk_attn = 4 * d * hq * 1024 * (1024 + 512.0);
  const double decode_attn = 4 * d * hq * 16 * 3000.0;
  CHECK(stage(alone, "attn.core").flops == Approx(chunk_attn).epsilon(1e-12));
  CHECK(stage(mixed, "attn.core").flops == Approx(chunk_attn + decode_attn).epsilon(1e-12));
  // Its cache read: the chunk's (P + c) tokens and the decode sequences' b S, 2 d h_kv x 2 bytes.
  const double kv_bytes = (2048.0 + 16 * 3000.0) * 2 * d * hkv * 2;
  CHECK(stage(mixed, "attn.core").hbm_bytes >= kv_bytes);
  CHECK(stage(mixed, "attn.core").hbm_bytes - stage(alone, "attn.core").hbm_bytes >=
        16 * 3000.0 * 2 * d * hkv * 2);
  // The QKV GEMM: T = c + b = 1040 tokens x H x d (h_q + 2 h_kv) x 2.
  CHECK(stage(mixed, "attn.qkv").flops == Approx(2 * 1040 * H * d * (hq + 2 * hkv)).epsilon(1e-12));
  CHECK(stage(mixed, "ffn.up").gemm.m == 1040);
  CHECK(stage(mixed, "ffn.down").flops == Approx(2 * 1040 * 28672 * H).epsilon(1e-12));
  // lm_head samples the 16 decode sequences and the prompt's first token: 17 rows.
  CHECK(stage(mixed, "lm_head").flops == Approx(2 * 17 * H * V).epsilon(1e-12));
  CHECK(stage(alone, "lm_head").flops == Approx(2 * 1 * H * V).epsilon(1e-12));
  // Not the prompt's last chunk: only the decode sequences are sampled.
  StepWork middle;
  build_step_work(ctx, w, c, lay, chunk_shape(1, 1024, 0, 16, 3000, false), middle);
  CHECK(stage(middle, "lm_head").flops == Approx(2 * 16 * H * V).epsilon(1e-12));
  // k = 3 whole prompts of 128 packed beside 16 decode tokens: attention 3 x 4 d h_q 128 x 64
  // (each prompt against itself), GEMMs on 3 x 128 + 16 tokens, lm_head 3 + 16 rows.
  StepWork packed;
  build_step_work(ctx, w, c, lay, chunk_shape(3, 128, 0, 16, 3000, true), packed);
  CHECK(stage(packed, "attn.core").flops == Approx(3 * 4 * d * hq * 128 * 64.0 + decode_attn).epsilon(1e-12));
  CHECK(stage(packed, "attn.qkv").gemm.m == 3 * 128 + 16);
  CHECK(stage(packed, "lm_head").flops == Approx(2 * 19 * H * V).epsilon(1e-12));
}
