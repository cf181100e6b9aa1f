// Number formats in the physics (docs/physics.md §1 "Number formats", §3, §4, §10): the
// attention compute format apart from the KV storage format, per-part weight formats, the MoE
// dispatch payload, FP4 peaks. Expected values are derived BY HAND below (python3 used as a
// calculator only); agreement to 0.1 % unless the check is exact.
//
// Machines: DGX-H100 (tests/physics/fixtures.hpp: bf16 989e12, fp8 1979e12 FLOP/s, no FP4) and
// a Blackwell-like variant of it: bf16 2250e12, fp8 4500e12, nvfp4 9000e12 FLOP/s (the dense
// figures of machines/dgx-b200.yaml), HBM 8e12 B/s, 180e9 B, the same NVLink node.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "fixtures.hpp"
#include "physics_checks.hpp"
#include "tessera/physics/stage_timing.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

MachineSpec blackwell_like() {
  MachineSpec m = dgx_h100();
  m.name = "blackwell-like";
  m.pe.flops = {};
  set_peak(m, DType::bf16, 2250e12);
  set_peak(m, DType::fp8, 4500e12);
  set_peak(m, DType::nvfp4, 9000e12);  // mxfp4 left out: it falls back to nvfp4
  m.pe.hbm_capacity = 180e9;
  m.pe.hbm_bandwidth = 8e12;
  return m;
}

const StageWork& work(const Evaluation& e, const char* name) {
  for (int i = 0; i < e.work.size; ++i)
    if (std::string(e.work.stages[static_cast<std::size_t>(i)].name) == name)
      return e.work.stages[static_cast<std::size_t>(i)];
  FAIL("no stage " << name);
  return e.work.stages[0];
}

}  // namespace

// ---------------------------------------------------------------------------------------
// (1) Llama-3.1-70B decode, S = 4096, B = 1, TP = 8 on DGX-H100 (golden (a)'s configuration):
//   q_pe = 8, n_kv = 1, q_loc = 8, T = 1.
//   attn.core flops 4*B*d*q_loc*S = 4*128*8*4096 = 16,777,216;
//     bytes with k = a = 1 (fp8): 2*B*S*d*k*n_kv + 2*T*q_loc*d*a = 1,048,576 + 2,048 = 1,050,624
//     (the KV bytes are the storage format's whatever attention computes in).
//   fp8 KV + fp8 activations, `attention` unset: bf16 math -> compute 16,777,216/989e12
//     = 1.6963818e-8 s; with `attention: fp8`: 16,777,216/1979e12 = 8.4776230e-9 s.
//   attn.qkv with fp8 weights and activations: fp8 peak, 2*1*8192*128*(8+2) = 20,971,520 flops
//     -> 1.0597029e-8 s; bytes 8192*1280*1 + 1*(8192+1280)*1 = 10,495,232.
TEST_CASE("dtype: fp8 KV with fp8 activations attends in bf16 unless attention is fp8", "[physics][dtype]") {
  ModelSpec m = llama31_70b();
  m.dtype.weights = m.dtype.kv = m.dtype.activations = DType::fp8;
  const MachineSpec mc = dgx_h100();
  const Evaluation e = evaluate(m, mc, decode(4096), cfg(1, 8));
  REQUIRE(e.valid);
  CHECK(stage(e, "attn.core").flops == Approx(16777216.0).epsilon(kTol));
  CHECK(stage(e, "attn.core").hbm_bytes == Approx(1050624.0).epsilon(kTol));
  CHECK(stage(e, "attn.core").compute_s == Approx(1.6963818e-8).epsilon(kTol));
  CHECK(stage(e, "attn.qkv").compute_s == Approx(1.0597029e-8).epsilon(kTol));
  CHECK(stage(e, "attn.qkv").hbm_bytes == Approx(10495232.0).epsilon(kTol));

  m.dtype.attention = DType::fp8;
  const Evaluation f = evaluate(m, mc, decode(4096), cfg(1, 8));
  CHECK(stage(f, "attn.core").compute_s == Approx(8.4776230e-9).epsilon(kTol));
  CHECK(stage(f, "attn.core").hbm_bytes == stage(e, "attn.core").hbm_bytes);  // same KV bytes
  CHECK(stage(f, "attn.qkv").compute_s == stage(e, "attn.qkv").compute_s);    // GEMMs unaffected

  // attention: fp8 over a bf16 cache reads bf16 K and V: the bf16 peak again.
  m.dtype.kv = DType::bf16;
  const Evaluation g = evaluate(m, mc, decode(4096), cfg(1, 8));
  CHECK(stage(g, "attn.core").compute_s == Approx(1.6963818e-8).epsilon(kTol));
}

// ---------------------------------------------------------------------------------------
// (2) A mixed recipe: Mixtral-8x7B prefill, S = 4096 in one chunk, B = 1, TP = 2 and CP = 4
//   on one node, FFN scope TP+CP (f = 8), EP = 8, on the Blackwell-like machine (golden
//   (e2)'s configuration). dtype {weights: bf16, attention_weights: fp8, expert_weights: nvfp4,
//   dispatch: nvfp4}: a = 2, w_attn = 1, w_exp = 0.5625, p = 0.5625, w (router) = w_head = 2.
//   T = 4096, T_rank = 1024, T_f = 4096; q_pe = 16, n_kv = 4; H = 4096, E = 8, K = 2,
//   I_e = 14336, P_e = 3*4096*14336 = 176,160,768.
//   attn.qkv  bytes 4096*3072*1 + 1024*(4096+3072)*2 = 12,582,912 + 14,680,064 = 27,262,976;
//             peak: the wider of fp8 weights and bf16 activations = bf16 (2250e12)
//             -> compute 25,769,803,776/2250e12 = 1.1453246e-5 s
//   attn.out  bytes 2048*4096*1 + 1024*(2048+4096)*2 = 8,388,608 + 12,582,912 = 20,971,520
//   moe.router bytes 4096*8*2 + 1024*(4096+8)*2 = 8,470,528 (weights: bf16)
//   moe.dispatch all-to-all M = T_f*K*H*p/ep = 4096*2*4096*0.5625/8 = 2,359,296 B
//   moe.combine  all-to-all M = T_f*K*H*a/ep = 4096*2*4096*2/8      = 8,388,608 B (bf16)
//   moe.experts (f/ep = 1, one expert touched, slots 1066.48996 as in golden (e2)):
//             bytes P_e*0.5625 + slots*(H*p + (H + 3*I_e)*a)
//                   = 99,090,432 + 1066.48996*(2304 + 94,208) = 202,019,511;
//             peak: the wider of nvfp4 weights and the nvfp4 dispatch = nvfp4 (9000e12):
//             375,747,381,793 flops -> 4.1749709e-5 s
//   lm_head   bytes 32000*4096*2/2 + (4096 + 16000)*2 = 131,112,192 (bf16), peak bf16
//   Memory (standard, pp = 1): per layer attention (H*d*(q_pe+2n_kv) + q_pe*d*H)*w_attn
//     = (4096*128*24 + 16*128*4096)*1 = 20,971,520; MoE H*E*w + E*P_e/f*w_exp
//     = 65,536 + 8*176,160,768/8*0.5625 = 99,155,968; embedding and lm_head 32000*4096*2/2
//     = 131,072,000 each. weights = 32*(20,971,520 + 99,155,968) + 2*131,072,000
//     = 4,106,223,616 B. KV 32 layers * 1*4096/4*256*2*4 = 67,108,864 B (bf16 cache).
TEST_CASE("dtype: mixed recipe stage bytes peaks and memory (Mixtral prefill EP=8)", "[physics][dtype]") {
  ModelSpec m = mixtral_8x7b();
  m.dtype.attention_weights = DType::fp8;
  m.dtype.expert_weights = DType::nvfp4;
  m.dtype.dispatch = DType::nvfp4;
  const MachineSpec mc = blackwell_like();
  ParallelConfig c = cfg(4, 2, 1, 1, 8);
  c.cp_placement = 0;
  c.ffn_shard_scope = FfnShardScope::tp_cp;
  const Evaluation e = evaluate(m, mc, prefill(4096), c);
  REQUIRE(e.valid);

  CHECK(work(e, "attn.qkv").hbm_bytes == 27262976.0);
  CHECK(work(e, "attn.qkv").part == WeightPart::attention);
  CHECK(stage(e, "attn.qkv").compute_s == Approx(1.1453246e-5).epsilon(kTol));
  CHECK(work(e, "attn.out").hbm_bytes == 20971520.0);
  CHECK(work(e, "moe.router").hbm_bytes == 8470528.0);
  const StageWork& dispatch = work(e, "moe.dispatch");
  REQUIRE(dispatch.comm_count == 1);
  CHECK(dispatch.comms[0].bytes == 2359296.0);
  const StageWork& combine = work(e, "moe.combine");
  REQUIRE(combine.comm_count == 1);
  CHECK(combine.comms[0].bytes == 8388608.0);
  CHECK(work(e, "moe.experts").hbm_bytes == Approx(202019511.0).epsilon(kTol));
  CHECK(work(e, "moe.experts").part == WeightPart::experts);
  CHECK(stage(e, "moe.experts").compute_s == Approx(4.1749709e-5).epsilon(kTol));
  CHECK(work(e, "lm_head").hbm_bytes == 131112192.0);

  const EvalContext ctx = make_eval_context(m, mc);
  CHECK(stage_math_dtype(ctx, work(e, "moe.experts")) == DType::nvfp4);
  CHECK(stage_math_dtype(ctx, work(e, "attn.qkv")) == DType::bf16);
  CHECK(stage_math_dtype(ctx, work(e, "attn.core")) == DType::bf16);
  CHECK(stage_peak(ctx, work(e, "moe.experts")) == 9000e12);
  CHECK(stage_peak(ctx, work(e, "lm_head")) == 2250e12);
  // The router is in `weights` (bf16): 2*1024*4096*8 = 67,108,864 flops at 2250e12.
  CHECK(ctx.gemm_peak == 2250e12);
  CHECK(stage_peak(ctx, work(e, "moe.router")) == 2250e12);
  CHECK(stage(e, "moe.router").compute_s == Approx(67108864.0 / 2250e12).epsilon(kTol));
  // compute_util's peak: the fastest of the parts' GEMM peaks, the FP4 experts'.
  CHECK(ctx.util_peak == 9000e12);

  CHECK(e.memory.weights_bytes == 4106223616.0);
  CHECK(e.memory.kv_bytes == 67108864.0);

  // mxfp4 experts on the same machine: no mxfp4 key, so the nvfp4 figure (same FP4 units).
  m.dtype.expert_weights = m.dtype.dispatch = DType::mxfp4;
  const Evaluation x = evaluate(m, mc, prefill(4096), c);
  CHECK(stage(x, "moe.experts").compute_s == Approx(4.1749709e-5).epsilon(kTol));
  // ... and on an H100 (no FP4 units) the fp8 peak: 375,747,381,793/1979e12 = 1.8986730e-4 s.
  const Evaluation h = evaluate(m, dgx_h100(), prefill(4096), c);
  CHECK(stage(h, "moe.experts").compute_s == Approx(1.8986730e-4).epsilon(kTol));
}

// ---------------------------------------------------------------------------------------
// (3) DeepSeek-V3 (H = 7168, K = 8) decode with attention DP and expert parallelism: tp = 1,
//   dp = 8, ep = 8 on one node, FFN scope TP+CP+DP, B = 1: T_f = dp*B = 8 tokens differ across
//   the group, so moe.dispatch is an all-to-all of M = T_f*K*H*p/ep = 8*7168*p B per rank,
//   i.e. 7168*p per (token, destination): TensorRT-LLM's post-quant dispatch sizes,
//   NVFP4 4032 B/token (M = 32,256), MXFP8 7392 B/token (M = 59,136); bf16 14,336 (M = 114,688).
//   The combine stays bf16: M = 8*7168*2 = 114,688.
TEST_CASE("dtype: DeepSeek-V3 dispatch payload reproduces TensorRT-LLM's 4032 and 7392 B per token",
          "[physics][dtype][moe]") {
  ModelSpec m = deepseek_v3();
  const MachineSpec mc = blackwell_like();
  ParallelConfig c = cfg(1, 1, 1, 8, 8);
  c.ffn_shard_scope = FfnShardScope::tp_cp_dp;
  const auto payload = [&](std::optional<DType> dispatch) {
    m.dtype.dispatch = dispatch;
    const Evaluation e = evaluate(m, mc, decode(4096), c);
    REQUIRE(e.valid);
    const StageWork& d = work(e, "moe.dispatch");
    const StageWork& k = work(e, "moe.combine");
    REQUIRE(d.comm_count == 1);
    REQUIRE(k.comm_count == 1);
    CHECK(k.comms[0].bytes == 114688.0);
    return d.comms[0].bytes;
  };
  CHECK(payload(DType::nvfp4) == 32256.0);
  CHECK(payload(DType::nvfp4) / 8 == 4032.0);
  CHECK(payload(DType::mxfp8) / 8 == 7392.0);
  CHECK(payload(std::nullopt) == 114688.0);  // default: the activations (bf16)
}

// ---------------------------------------------------------------------------------------
// (4) Naming every part's format as the default gives the same numbers bit for bit, and an
//   fp4 recipe only changes what it names.
TEST_CASE("dtype: explicit defaults change nothing", "[physics][dtype]") {
  const MachineSpec mc = blackwell_like();
  for (ModelSpec m : {llama31_70b(), mixtral_8x7b(), deepseek_v3()}) {
    INFO(m.name);
    m.dtype.weights = DType::fp8;
    ModelSpec n = m;
    n.dtype.attention_weights = n.dtype.ffn_weights = n.dtype.expert_weights = n.dtype.lm_head_weights =
        DType::fp8;
    n.dtype.dispatch = DType::bf16;
    n.dtype.attention = DType::bf16;
    ParallelConfig c = cfg(1, 8, 1, 1, m.has_moe ? 8 : 1);
    for (const Workload& w : {decode(8192, 4), prefill(2048)}) {
      const Evaluation a = evaluate(m, mc, w, c);
      const Evaluation b = evaluate(n, mc, w, c);
      REQUIRE(a.valid);
      CHECK(a.totals.latency_s == b.totals.latency_s);
      CHECK(a.memory.used_bytes == b.memory.used_bytes);
      CHECK(a.totals.hbm_bytes_all_pes == b.totals.hbm_bytes_all_pes);
    }
  }
}

TEST_CASE("dtype: narrower expert weights lower expert bytes and memory only", "[physics][dtype]") {
  const MachineSpec mc = blackwell_like();
  ModelSpec m = mixtral_8x7b();
  const ParallelConfig c = cfg(1, 8, 1, 1, 8);
  const Evaluation base = evaluate(m, mc, decode(4096, 8), c);
  m.dtype.expert_weights = DType::nvfp4;
  const Evaluation fp4 = evaluate(m, mc, decode(4096, 8), c);
  CHECK(work(fp4, "moe.experts").hbm_bytes < work(base, "moe.experts").hbm_bytes);
  CHECK(fp4.memory.weights_bytes < base.memory.weights_bytes);
  CHECK(fp4.memory.kv_bytes == base.memory.kv_bytes);
  for (const char* s : {"attn.qkv", "attn.core", "attn.out", "moe.router", "lm_head"})
    CHECK(work(fp4, s).hbm_bytes == work(base, s).hbm_bytes);
  // Weight-only: bf16 activations keep the experts at the bf16 peak.
  CHECK(stage(fp4, "moe.experts").compute_s == stage(base, "moe.experts").compute_s);
}
