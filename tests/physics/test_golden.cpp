// Golden tests of the reference physics (acceptance tests): configurations whose expected
// numbers are derived BY HAND below, step by step, from docs/specification.md §3 and
// docs/physics.md — never from the code. python3 was used as a calculator only. Agreement to
// 0.1 % (Approx(x).epsilon(1e-3)).
//
// Conventions of every derivation (docs/physics.md §1, §3-§8):
//   a = w = k = 2 B (bf16).  compute = flops/peak, memory = bytes/hbm_bw,
//   visible = max(compute, memory) + stage_overhead (0 on both machines here).
//   Collectives over n ranks, per-rank M, link beta (B/s) and alpha (s):
//     all-reduce 2(n-1)/n*M/beta + 2(n-1)*alpha;  all-gather / reduce-scatter / all-to-all
//     (n-1)/n*M/beta + (n-1)*alpha;  point-to-point M/beta + alpha.
//   HBM bytes of a GEMM stage = its weights + activations in and out (docs/physics.md §3-§4):
//     attn.qkv  weights H*d*(q_pe+2n_kv)*w, activations T*(H + d*(q_pe+2n_kv))*a
//     attn.core KV B*S_loc*2d*k*n_kv, plus Q and O 2*T*q_loc*d*a
//     attn.out  weights q_pe*d*H*w, activations T*(q_pe*d + H)*a
//     ffn.up    weights H*2I*w/f, activations T_f*(H + 2I/f)*a       (gated)
//     ffn.down  weights I*H*w/f, activations T_f*(I/f + H)*a
//     lm_head   weights V*H*w/tp, activations B*(H + V/tp)*a, flops 2*B*H*V/tp
// Machines (tests/physics/fixtures.hpp):
//   DGX-H100: 989e12 FLOP/s bf16, 3.35e12 B/s; node: 8 GPUs, 450e9 B/s, 3e-6 s;
//             cluster: 32 nodes, 50e9 B/s, 8e-6 s, node uplink 400e9 B/s.
//   cube-sip: 128e12 FLOP/s bf16, 1e12 B/s; cube 16 PEs 400e9 B/s 0.1e-6 s; sip 8 cubes
//             200e9 B/s 0.3e-6 s; system 16 sips 100e9 B/s 1e-6 s.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "fixtures.hpp"
#include "physics_checks.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

void check_stage(const Evaluation& e, const char* name, double flops, double bytes, double visible) {
  const Stage& s = stage(e, name);
  INFO("stage " << name);
  CHECK(s.flops == Approx(flops).epsilon(kTol));
  CHECK(s.hbm_bytes == Approx(bytes).epsilon(kTol));
  CHECK(s.visible_s == Approx(visible).epsilon(kTol));
}

void check_comm(const Evaluation& e, const char* name, double visible) {
  const Stage& s = stage(e, name);
  INFO("stage " << name);
  CHECK(s.visible_s == Approx(visible).epsilon(kTol));
}

}  // namespace

// ---------------------------------------------------------------------------------------
// (a) Llama-3.1-70B decode on DGX-H100, TP=8 on the GPUs of one node, B=1, S=4096.
//   L80 H8192 h_q64 h_kv8 d128 I28672 V128256. tp=8: q_pe = 64/8 = 8, n_kv = max(1, 8/8) = 1,
//   r = 1, q_loc = 8. T = B = 1. The TP group is 8 GPUs of one node: 450e9 B/s, 3e-6 s.
//   attn.qkv : flops 2*1*8192*128*(8+2)            = 20,971,520
//              bytes 8192*1280*2 + 1*(8192+1280)*2  = 20,971,520 + 18,944 = 20,990,464
//              memory 20,990,464/3.35e12 = 6.265810e-6 s  (compute 2.12e-8 s)
//   attn.core: flops 4*B*d*q_loc*S = 4*128*8*4096    = 16,777,216
//              bytes 2*B*S*d*k*n_kv + 2*T*q_loc*d*a = 2*4096*128*2 + 2*8*128*2
//                    = 2,097,152 + 4,096 = 2,101,248 -> 6.272382e-7 s
//   attn.out : flops 2*1*8*128*8192 = 16,777,216; bytes 16,777,216 + (1024+8192)*2
//                    = 16,795,648 -> 5.013626e-6 s
//   attn.tp_reduce: all-reduce M = T*H*a = 16,384 over 8:
//              2*7/8*16384/450e9 + 14*3e-6 = 6.3716e-8 + 4.2e-5 = 4.2063716e-5 s
//   ffn.up   : flops 2*1*8192*(2*28672)/8 = 117,440,512; bytes 117,440,512 + (8192+7168)*2
//                    = 117,471,232 -> 3.5066039e-5 s
//   ffn.down : flops 2*1*3584*8192 = 58,720,256; bytes 58,720,256 + (3584+8192)*2
//                    = 58,743,808 -> 1.7535465e-5 s
//   ffn.reduce: = attn.tp_reduce = 4.2063716e-5 s
//   lm_head  : flops 2*1*8192*128256/8 = 262,668,288; bytes 262,668,288 + (8192+16032)*2
//                    = 262,716,736 -> 7.8422906e-5 s
//   per layer: 6.265810e-6 + 6.272382e-7 + 5.013626e-6 + 3.5066039e-5 + 1.7535465e-5
//              + 2*4.2063716e-5 = 1.48635610e-4 s
//   latency = 80*1.48635610e-4 + 7.8422906e-5 = 1.1969272e-2 s
//   (the weight-streaming floor alone, 80*(20.97+16.78+117.44+58.72)e6 B + 262.7e6 B over
//   3.35e12 B/s, is 5.19 ms; the 160 all-reduces add 6.73 ms of latency terms.)
//   flops_all_pes = 80*8*(20,971,520+16,777,216+16,777,216+117,440,512+58,720,256)
//                   + 8*262,668,288 = 149,740,847,104 ; redundant 0 (cp = 1, r = 1).
TEST_CASE("golden (a): Llama-3.1-70B decode 4K / TP=8 on DGX-H100", "[physics][golden]") {
  const ModelSpec m = llama31_70b();
  const MachineSpec mc = dgx_h100();
  const Evaluation e = evaluate(m, mc, decode(4096), cfg(1, 8));
  REQUIRE(e.valid);
  check_stage(e, "attn.qkv", 20971520, 20990464, 6.265810149e-6);
  check_stage(e, "attn.core", 16777216, 2101248, 6.272382090e-7);
  check_stage(e, "attn.out", 16777216, 16795648, 5.013626269e-6);
  check_comm(e, "attn.tp_reduce", 4.2063715556e-5);
  check_stage(e, "ffn.up", 117440512, 117471232, 3.506603940e-5);
  check_stage(e, "ffn.down", 58720256, 58743808, 1.753546507e-5);
  check_comm(e, "ffn.reduce", 4.2063715556e-5);
  check_stage(e, "lm_head", 262668288, 262716736, 7.842290627e-5);
  CHECK(stage(e, "attn.qkv").count == 80);
  CHECK(stage(e, "lm_head").count == 1);
  CHECK(find_stage(e, "attn.cp") == nullptr);
  CHECK(find_stage(e, "attn.kv_split") == nullptr);
  CHECK(find_stage(e, "pp.hop") == nullptr);
  CHECK(e.totals.latency_s == Approx(1.1969271724e-2).epsilon(kTol));
  CHECK(e.totals.flops_all_pes == Approx(149740847104.0).epsilon(kTol));
  CHECK(e.totals.redundant_flops == 0);
  CHECK(e.totals.pes == 8);
}

// (a') The same with stage_overhead = 5 us: docs/specification.md §2.3 "added to every compute stage", docs
// §7:
//   compute stages get it, communication stages (collectives only) do not. Per layer 5
//   compute stages (qkv, core, out, up, down) -> +25e-6 s; lm_head +5e-6 s:
//   latency = 1.1969271724e-2 + 80*25e-6 + 5e-6 = 1.3974271724e-2 s, in both latency models
//   (nothing to overlap without CP).
TEST_CASE("golden (a'): stage_overhead on every compute stage", "[physics][golden]") {
  const ModelSpec m = llama31_70b();
  MachineSpec mc = dgx_h100();
  mc.stage_overhead = 5e-6;
  for (Latency lat : {Latency::overlap, Latency::roofline}) {
    const Evaluation e = evaluate(m, mc, decode(4096), cfg(1, 8), lat);
    REQUIRE(e.valid);
    check_stage(e, "attn.qkv", 20971520, 20990464, 6.265810149e-6 + 5e-6);
    check_comm(e, "attn.tp_reduce", 4.2063715556e-5);
    check_stage(e, "lm_head", 262668288, 262716736, 7.842290627e-5 + 5e-6);
    CHECK(e.totals.latency_s == Approx(1.3974271724e-2).epsilon(kTol));
  }
}

// ---------------------------------------------------------------------------------------
// (b) The same at S = 128K = 131,072 with CP=8: cp_placement = node (placement 1: the 8 CP
//   ranks are 8 distinct nodes), TP=8 on the GPUs of each node. Same B = 1, T = 1.
//   The CP group spans the cluster level: 50e9 B/s, 8e-6 s; every node sends the traffic
//   of g = 8 CP groups (one per GPU) through its 400e9 B/s uplink -> 400e9/8 = 50e9:
//   beta = min(50e9, 50e9) = 50e9 B/s.
//   S_loc = 131072/8 = 16,384. attn.core (the local block, identical for all variants):
//     flops 4*1*128*8*16384 = 67,108,864; KV block 1*16384*256*2*1 = 8,388,608 B,
//     bytes 8,388,608 + 4,096 = 8,392,704 -> 2.5052848e-6 s.
//   attn.cp:
//   - kv   : 7 steps; t_i = max(67,108,864/989e12, 8,388,608/3.35e12) = 2.5040621e-6 s;
//            message = the block, 8e-6 + 8,388,608/50e9 = 1.7577216e-4 s;
//            overlap: 7*max(t_i, msg) = 1.23040512e-3 s per layer.
//            roofline: 7*(t_i + msg) = 1.24793355e-3 s per layer.
//   - qoml : decode, Q stays: partial O T*q_loc*d*4 = 4,096 + m,l 2*T*q_loc*4 = 64 -> 4,160 B;
//            7*(8e-6 + 4160/50e9) = 7*8.0832e-6 = 5.65824e-5 s.
//   - tree : ceil(log2 8) = 3 steps of the same 4,160 B: 3*8.0832e-6 = 2.42496e-5 s.
//   Everything else as in (a) (decode: every CP rank holds the same token; FFN scope TP).
//   per layer without attn.cp: 6.265810e-6 + 2.5052848e-6 + 5.013626e-6 + 3.5066039e-5
//     + 1.7535465e-5 + 2*4.2063716e-5 = 1.50513657e-4 s
//   latency = 80*(1.50513657e-4 + attn.cp) + 7.8422906e-5:
//     kv 0.11055192505 s; qoml 0.01664610745 s; tree 0.01405948345 s; kv roofline 0.1119541998 s.
//   Accounting: the model's FLOPs for the step =
//     80*(2*(8192*128*(64+16) + 64*128*8192) + 4*128*64*131072*1 + 2*3*8192*28672)
//     + 2*8192*128256 = 482,600,812,544.
//   Executed (64 PEs: 8 CP x 8 TP): qoml 80*64*(20,971,520 + 67,108,864 + 16,777,216
//     + 117,440,512 + 58,720,256) + 8*262,668,288 = 1,440,915,390,464, so redundant =
//     958,314,577,920 (projections and FFN repeated on the 8 CP ranks);
//     kv adds the 7 received blocks on every PE, 80*64*7*67,108,864: executed
//     3,846,097,076,224, redundant 3,363,496,263,680.
TEST_CASE("golden (b): Llama-3.1-70B decode 128K / CP=8 across nodes / kv vs qoml vs tree",
          "[physics][golden]") {
  const ModelSpec m = llama31_70b();
  const MachineSpec mc = dgx_h100();
  ParallelConfig c = cfg(8, 8);
  c.cp_placement = 1;  // distinct nodes

  struct Case {
    CpRingVariant v;
    double cp_visible, latency;
  };
  for (const Case& k : {Case{CpRingVariant::kv, 1.23040512e-3, 0.11055192505},
                        Case{CpRingVariant::qoml, 5.65824e-5, 0.01664610745},
                        Case{CpRingVariant::tree, 2.42496e-5, 0.01405948345}}) {
    c.cp_ring_variant = k.v;
    INFO("variant " << cp_ring_variant_name(k.v));
    const Evaluation e = evaluate(m, mc, decode(131072), c);
    REQUIRE(e.valid);
    CHECK(e.layout.cp.level == 2);
    CHECK(e.layout.cp.bandwidth == Approx(50e9));
    check_stage(e, "attn.core", 67108864, 8392704, 2.505284776e-6);
    check_comm(e, "attn.cp", k.cp_visible);
    check_stage(e, "attn.qkv", 20971520, 20990464, 6.265810149e-6);
    check_stage(e, "ffn.up", 117440512, 117471232, 3.506603940e-5);
    check_comm(e, "attn.tp_reduce", 4.2063715556e-5);
    CHECK(e.totals.latency_s == Approx(k.latency).epsilon(kTol));
    const double model_flops = 482600812544.0;
    const double executed = k.v == CpRingVariant::kv ? 3846097076224.0 : 1440915390464.0;
    CHECK(e.totals.flops_all_pes == Approx(executed).epsilon(kTol));
    CHECK(e.totals.flops_all_pes - e.totals.redundant_flops == Approx(model_flops).epsilon(1e-9));
  }
  c.cp_ring_variant = CpRingVariant::kv;
  const Evaluation r = evaluate(m, mc, decode(131072), c, Latency::roofline);
  check_comm(r, "attn.cp", 1.2479335546e-3);
  CHECK(r.totals.latency_s == Approx(0.11195419982).epsilon(kTol));
}

// ---------------------------------------------------------------------------------------
// (c) GQA with tp > kv_heads: Llama-3.1-70B decode, S = 32,768, B = 1, TP=16 on the 16 PEs of
//   one cube (cube-sip machine: 128e12 FLOP/s, 1e12 B/s; cube links 400e9 B/s, 0.1e-6 s).
//   q_pe = 64/16 = 4, n_kv = max(1, 8/16) = 1, r = 16/8 = 2, g = 64/8 = 8.
//   attn.qkv : flops 2*8192*128*(4+2) = 12,582,912; bytes 12,582,912 + (8192+768)*2
//              = 12,600,832 -> 1.2600832e-5 s
//   attn.out : flops 2*4*128*8192 = 8,388,608; bytes 8,388,608 + (512+8192)*2 = 8,406,016
//              -> 8.406016e-6 s
//   tp_reduce/ffn.reduce: all-reduce 16,384 B over 16: 2*15/16*16384/400e9 + 30*0.1e-6
//              = 7.68e-8 + 3e-6 = 3.0768e-6 s
//   ffn.up   : 2*8192*57344/16 = 58,720,256; bytes 58,720,256 + (8192+3584)*2 = 58,743,808
//   ffn.down : 2*1792*8192 = 29,360,128; bytes 29,360,128 + (1792+8192)*2 = 29,380,096
//   lm_head  : 2*8192*128256/16 = 131,334,144; bytes 131,334,144 + (8192+8016)*2 = 131,366,560
//   split    : the 2 PEs sharing a KV head split its sequence: S_loc = 32768/2 = 16,384,
//              q_loc = g = 8.
//     attn.core flops 4*128*8*16384 = 67,108,864; bytes 2*16384*128*2 + 2*8*128*2
//              = 8,388,608 + 4,096 = 8,392,704 -> 8.392704e-6 s
//     attn.kv_split (the r-group = 2 PEs of the cube): all-gather of Q, M = T*g*d*a = 2,048:
//              1/2*2048/400e9 + 0.1e-6 = 1.0256e-7 s; reduce-scatter of O, m, l in fp32,
//              M = T*g*(d+2)*4 = 4,160: 1/2*4160/400e9 + 0.1e-6 = 1.052e-7 s; sum 2.0776e-7 s
//     latency = 80*(1.2600832e-5 + 2.0776e-7 + 8.392704e-6 + 8.406016e-6 + 3.0768e-6
//              + 5.8743808e-5 + 2.9380096e-5 + 3.0768e-6) + 1.3136656e-4 = 1.004215184e-2 s
//     KV memory: 80*B*S/r*2d*k*n_kv = 80*16384*256*2 = 671,088,640 B
//   replicate: each of the 2 PEs holds the whole head: S_loc = 32,768, q_loc = q_pe = 4.
//     attn.core flops 4*128*4*32768 = 67,108,864; bytes 2*32768*128*2 + 2*4*128*2
//              = 16,777,216 + 2,048 = 16,779,264 -> 1.6779264e-5 s; no attn.kv_split
//     latency = 80*(... same, with 1.6779264e-5 and no kv_split) + 1.3136656e-4 = 1.069645584e-2 s
//     KV memory: 80*32768*256*2 = 1,342,177,280 B
//   Accounting (both modes): the K,V projections of the shared head are computed on both
//   PEs of the r-group: redundant = 80 layers * 16 PEs * 2*8192*128*2 * (1 - 1/2)
//   = 2,684,354,560; the model's FLOPs 80*(2*(8192*128*80 + 64*128*8192) + 4*128*64*32768
//   + 2*3*8192*28672) + 2*8192*128256 = 224,902,774,784.
TEST_CASE("golden (c): GQA tp=16 > kv_heads=8 / split vs replicate", "[physics][golden]") {
  const ModelSpec m = llama31_70b();
  const MachineSpec mc = cube_sip();
  ParallelConfig c = cfg(1, 16);
  c.tp_placement = 0;

  c.kv_shard_mode = KvShardMode::split;
  const Evaluation s = evaluate(m, mc, decode(32768), c);
  REQUIRE(s.valid);
  check_stage(s, "attn.qkv", 12582912, 12600832, 1.2600832e-5);
  check_stage(s, "attn.core", 67108864, 8392704, 8.392704e-6);
  check_comm(s, "attn.kv_split", 2.0776e-7);
  check_stage(s, "attn.out", 8388608, 8406016, 8.406016e-6);
  check_comm(s, "attn.tp_reduce", 3.0768e-6);
  check_stage(s, "ffn.up", 58720256, 58743808, 5.8743808e-5);
  check_stage(s, "ffn.down", 29360128, 29380096, 2.9380096e-5);
  check_stage(s, "lm_head", 131334144, 131366560, 1.3136656e-4);
  CHECK(s.totals.latency_s == Approx(1.004215184e-2).epsilon(kTol));
  CHECK(s.memory.kv_bytes == Approx(671088640.0).epsilon(kTol));
  CHECK(s.totals.redundant_flops == Approx(2684354560.0).epsilon(kTol));
  CHECK(s.totals.flops_all_pes - s.totals.redundant_flops == Approx(224902774784.0).epsilon(1e-9));

  c.kv_shard_mode = KvShardMode::replicate;
  const Evaluation r = evaluate(m, mc, decode(32768), c);
  REQUIRE(r.valid);
  check_stage(r, "attn.core", 67108864, 16779264, 1.6779264e-5);
  CHECK(find_stage(r, "attn.kv_split") == nullptr);
  CHECK(r.totals.latency_s == Approx(1.069645584e-2).epsilon(kTol));
  CHECK(r.memory.kv_bytes == Approx(1342177280.0).epsilon(kTol));
  CHECK(r.totals.redundant_flops == Approx(2684354560.0).epsilon(kTol));
  CHECK(r.totals.flops_all_pes - r.totals.redundant_flops == Approx(224902774784.0).epsilon(1e-9));
}

// ---------------------------------------------------------------------------------------
// (d) Compute-bound prefill: Llama-3.1-8B (L32 H4096 h_q32 h_kv8 d128 I14336 V128256),
//   prompt S = 8,192 in one chunk (c = S, P_0 = 0), B = 1, TP=8 on one DGX node.
//   q_pe = 4, n_kv = 1, q_loc = 4, T = 8,192, cp = 1 so T_rank = 8,192.
//   attn.qkv : flops 2*8192*4096*128*(4+2) = 51,539,607,552 -> 5.2112849e-5 s (compute);
//              bytes 4096*768*2 + 8192*(4096+768)*2 = 6,291,456 + 79,691,776 = 85,983,232
//              (2.5667e-5 s, below compute)
//   attn.core: causal, 4*B*d*q_loc*c*(P + c/2)/cp = 4*1*128*4*8192*4096 = 68,719,476,736
//              -> 6.9483799e-5 s; bytes KV (P+c)/cp*2d*k*n_kv = 8192*256*2 = 4,194,304
//              + Q,O 2*8192*4*128*2 = 16,777,216 -> 20,971,520
//   attn.out : 2*8192*512*4096 = 34,359,738,368 -> 3.4741899e-5 s; bytes 512*4096*2
//              + 8192*(512+4096)*2 = 4,194,304 + 75,497,472 = 79,691,776
//   tp_reduce: all-reduce M = 8192*4096*2 = 67,108,864 over 8 at 450e9, 3e-6:
//              2*7/8*67108864/450e9 + 14*3e-6 = 2.6097892e-4 + 4.2e-5 = 3.0297892e-4 s
//   ffn.up   : 2*8192*4096*(2*14336)/8 = 2*8192*4096*3584 = 240,518,168,576 -> 2.4319329e-4 s;
//              bytes 4096*3584*2 + 8192*(4096+3584)*2 = 29,360,128 + 125,829,120 = 155,189,248
//   ffn.down : 2*8192*1792*4096 = 120,259,084,288 -> 1.2159665e-4 s; bytes 1792*4096*2
//              + 8192*(1792+4096)*2 = 14,680,064 + 96,468,992 = 111,149,056
//   ffn.reduce = tp_reduce = 3.0297892e-4 s (TP scope, T_f = T/cp = 8192)
//   lm_head  : once, the last position: 2*1*4096*128256/8 = 131,334,144 flops; bytes
//              131,334,144 + (4096+16032)*2 = 131,374,400 -> 3.9216239e-5 s
//   per layer: 5.2112849e-5 + 6.9483799e-5 + 3.4741899e-5 + 2.4319329e-4 + 1.2159665e-4
//              + 2*3.0297892e-4 = 1.12708632e-3 s
//   TTFT = 32*1.12708632e-3 + 3.9216239e-5 = 3.610597848e-2 s
//   Model FLOPs = 32*(2*8192*(4096*128*48 + 32*128*4096) + 4*128*32*8192*4096
//                 + 2*8192*3*4096*14336) + 2*4096*128256 = 131,942,446,006,272 = executed.
TEST_CASE("golden (d): compute-bound prefill / Llama-3.1-8B 8K prompt / TP=8", "[physics][golden]") {
  const ModelSpec m = llama31_8b();
  const MachineSpec mc = dgx_h100();
  const Evaluation e = evaluate(m, mc, prefill(8192), cfg(1, 8));
  REQUIRE(e.valid);
  check_stage(e, "attn.qkv", 51539607552.0, 85983232, 5.2112848890e-5);
  check_stage(e, "attn.core", 68719476736.0, 20971520, 6.9483798520e-5);
  check_stage(e, "attn.out", 34359738368.0, 79691776, 3.4741899260e-5);
  check_comm(e, "attn.tp_reduce", 3.0297891556e-4);
  check_stage(e, "ffn.up", 240518168576.0, 155189248, 2.4319329482e-4);
  check_stage(e, "ffn.down", 120259084288.0, 111149056, 1.2159664741e-4);
  check_comm(e, "ffn.reduce", 3.0297891556e-4);
  check_stage(e, "lm_head", 131334144, 131374400, 3.9216238806e-5);
  CHECK(stage(e, "attn.core").bound == Bound::compute);
  CHECK(stage(e, "ffn.up").bound == Bound::compute);
  CHECK(e.totals.latency_s == Approx(3.610597848e-2).epsilon(kTol));
  CHECK(e.totals.flops_all_pes == Approx(131942446006272.0).epsilon(1e-9));
  CHECK(e.totals.redundant_flops == 0);
  // throughput = dp*B*S/TTFT
  CHECK(e.totals.throughput_tok_s == Approx(8192 / 3.610597848e-2).epsilon(kTol));
}

// ---------------------------------------------------------------------------------------
// (e1) Mixtral-8x7B decode with EP: L32 H4096 h_q32 h_kv8 d128, E=8, K=2, I_e=14336, V32000.
//   DGX-H100, TP=8 on one node, ep=8, scope TP (f = 8), S = 4096, B = 1.
//   An expert: P_e = 3*4096*14336 = 176,160,768 parameters = 352,321,536 B. f/ep = 1: every
//   GPU holds one whole expert. T_f = 1 token picks K = 2 DISTINCT experts, so exactly 2
//   GPUs each touch exactly 1 expert and the most loaded GPU touches exactly 1 expert and
//   receives exactly 1 token slot (with probability 1, not in expectation).
//   moe.experts: flops 1 slot * 2*P_e/(f/ep) = 352,321,536; bytes 1*352,321,536
//     + 1*(2*4096 + 3*14336)*2 = 352,321,536 + 102,400 = 352,423,936 -> 1.0520117e-4 s
//     (activations as the dense FFN's: in H, intermediate 3*I_e/(f/ep), out H — docs do not
//     spell out the expert activation bytes; they are 3e-4 of the stage.)
//   moe.router: 2*T*H*E = 65,536 flops; bytes 4096*8*2 + (4096+8)*2 = 73,744 -> 2.2013e-8 s
//   moe.combine: decode, TP scope: all ranks hold the token -> all-reduce of T_f*H*a =
//     8,192 B over 8: 2*7/8*8192/450e9 + 14*3e-6 = 4.2031858e-5 s; no moe.dispatch.
//   attention (q_pe 4, n_kv 1): qkv 6,291,456 flops / 6,301,184 B -> 1.8809504e-6 s;
//     core 4*128*4*4096 = 8,388,608 / 2*4096*256 + 2*4*128*2 = 2,099,200 B -> 6.266269e-7 s;
//     out 4,194,304 / 4,203,520 B -> 1.2547821e-6 s; tp_reduce = 4.2031858e-5 s.
//   lm_head: 2*4096*32000/8 = 32,768,000 flops; 32,768,000 + (4096+4000)*2 = 32,784,192 B
//     -> 9.786326e-6 s
//   latency = 32*(1.8809504e-6 + 6.266269e-7 + 1.2547821e-6 + 4.2031858e-5 + 2.2013e-8
//     + 1.0520117e-4 + 4.2031858e-5) + 9.786326e-6 = 6.187362743e-3 s
//
//   (Found by this test and fixed: an earlier independent-ranks approximation gave 0.8999
//   expert and 0.9137 slots; moe_load.cpp is now exact for one token.)
TEST_CASE("golden (e1): Mixtral-8x7B decode / TP=8 / EP=8: distinct experts touched",
          "[physics][golden][moe]") {
  const ModelSpec m = mixtral_8x7b();
  const MachineSpec mc = dgx_h100();
  const Evaluation e = evaluate(m, mc, decode(4096), cfg(1, 8, 1, 1, 8));
  REQUIRE(e.valid);
  check_stage(e, "attn.qkv", 6291456, 6301184, 1.880950448e-6);
  check_stage(e, "attn.core", 8388608, 2099200, 6.266268657e-7);
  check_stage(e, "attn.out", 4194304, 4203520, 1.254782090e-6);
  check_stage(e, "moe.router", 65536, 73744, 2.201313433e-8);
  CHECK(find_stage(e, "moe.dispatch") == nullptr);
  check_comm(e, "moe.combine", 4.2031857778e-5);
  check_stage(e, "lm_head", 32768000, 32784192, 9.786325970e-6);
  // The exact expectation: one expert, one token slot.
  check_stage(e, "moe.experts", 352321536.0, 352423936.0, 1.0520117493e-4);
  CHECK(e.totals.latency_s == Approx(6.187362743e-3).epsilon(kTol));
}

// (e2) Mixtral-8x7B prefill with EP where the group's tokens differ: S = 4096 in one chunk,
//   B = 1, TP=2 and CP=4 both on the GPUs of one node (8 GPUs), scope TP+CP (f = 8), ep = 8,
//   ring kv. Every group lies in one node: 450e9 B/s, 3e-6 s.
//   T = 4096, T_rank = T/cp = 1024, T_f = T = 4096 (TP+CP). q_pe = 16, n_kv = 4, q_loc = 16.
//   attn.qkv: 2*1024*4096*128*(16+8) = 25,769,803,776 -> 2.6056424e-5 s;
//     bytes 4096*3072*2 + 1024*(4096+3072)*2 = 25,165,824 + 14,680,064 = 39,845,888
//   attn.core: the rank's causal work 4*1*128*16*(4096/4)*(0 + 2048) = 17,179,869,184, cut
//     into cp = 4 blocks: 4,294,967,296 -> 4.3427374e-6 s; KV block (0+4096)/4 = 1024 tokens
//     *256*2*4 = 2,097,152 B + Q,O 2*1024*16*128*2 = 8,388,608 -> 10,485,760 B
//   attn.cp (kv): 3 steps of max(t_i = 4.3427374e-6, 3e-6 + 2,097,152/450e9 = 7.6603378e-6)
//     = 2.2981013e-5 s
//   attn.out: 2*1024*2048*4096 = 17,179,869,184 -> 1.7370950e-5 s
//   tp_reduce: all-reduce over 2 of 1024*4096*2 = 8,388,608 B: 8388608/450e9 + 2*3e-6
//     = 2.4641351e-5 s
//   moe.router: 2*1024*4096*8 = 67,108,864 flops; bytes 65,536 + 1024*4104*2 = 8,470,528
//     -> 2.5285158e-6 s
//   moe.dispatch, moe.combine: all-to-all over ep = 8 of M = T_f*K*H*a/ep
//     = 4096*2*4096*2/8 = 8,388,608 B: 7/8*8388608/450e9 + 7*3e-6 = 3.7311182e-5 s each
//   moe.experts: f/ep = 1 (one whole expert per GPU). Distinct: p = 1 - 0.75^4096 = 1 -> 1
//     expert. Token slots on the most loaded rank, docs/physics.md §4 approximation:
//     mu = 4096*2/8 = 1024, sigma^2 = 4096*(2/8)*(7/8)*(6/7) = 768, z(8) by Blom:
//     Phi^-1((8-0.375)/8.25 = 0.924242) = 1.4342002; slots = 1024 + sqrt(768)*1.4342002
//     /sqrt(7/8) = 1066.48996 (the exact E[max of 8 normals] 1.42360 would give 1066.18:
//     0.03 % away). flops 1066.48996*2*176,160,768 = 375,747,381,793 -> 3.7992657e-4 s
//     (compute); bytes 352,321,536 + 1066.49*(8192 + 43008)*2 = 461,530,108
//   lm_head: 2*4096*32000/2 = 131,072,000 flops; 131,072,000 + (4096+16000)*2 = 131,112,192 B
//     -> 3.9137968e-5 s
//   TTFT = 32*(2.6056424e-5 + 4.3427374e-6 + 2.2981013e-5 + 1.7370950e-5 + 2.4641351e-5
//     + 2.5285158e-6 + 2*3.7311182e-5 + 3.7992657e-4) + 3.9137968e-5 = 1.771817574e-2 s
TEST_CASE("golden (e2): Mixtral-8x7B prefill / TP=2 CP=4 TP+CP / EP=8: all-to-all dispatch",
          "[physics][golden][moe]") {
  const ModelSpec m = mixtral_8x7b();
  const MachineSpec mc = dgx_h100();
  ParallelConfig c = cfg(4, 2, 1, 1, 8);
  c.cp_placement = 0;
  c.ffn_shard_scope = FfnShardScope::tp_cp;
  const Evaluation e = evaluate(m, mc, prefill(4096), c);
  REQUIRE(e.valid);
  check_stage(e, "attn.qkv", 25769803776.0, 39845888, 2.6056424445e-5);
  check_stage(e, "attn.core", 4294967296.0, 10485760, 4.3427374075e-6);
  check_comm(e, "attn.cp", 2.2981013333e-5);
  check_stage(e, "attn.out", 17179869184.0, 29360128, 1.7370949630e-5);
  check_comm(e, "attn.tp_reduce", 2.4641351111e-5);
  check_stage(e, "moe.router", 67108864, 8470528, 2.5285158209e-6);
  check_comm(e, "moe.dispatch", 3.7311182222e-5);
  check_comm(e, "moe.combine", 3.7311182222e-5);
  check_stage(e, "moe.experts", 375747381793.0, 461530108.0, 3.7992657411e-4);
  check_stage(e, "lm_head", 131072000, 131112192, 3.9137967761e-5);
  CHECK(e.totals.latency_s == Approx(1.771817574e-2).epsilon(kTol));
}

// ---------------------------------------------------------------------------------------
// (f) A TP group across the slow level: Llama-3.1-70B decode, S = 4096, B = 1, tp = 16
//   with tp_placement = node: the 16 members are 16 distinct nodes (the GPU placement can
//   not exceed the node's fanout of 8), so every TP collective crosses the cluster level:
//   alpha = 8e-6 s, beta = min(50e9, 400e9/g), g = the groups sharing a node's uplink.
//   q_pe = 4, n_kv = 1, r = 2 (split, default): q_loc = 8, S_loc = 2048; the r-group is two
//   TP members, i.e. two nodes: it crosses the cluster level too.
//   (f1) dp = 1: one GPU per node is active, g = 1, beta = min(50e9, 400e9) = 50e9.
//     tp_reduce = ffn.reduce: 2*15/16*16384/50e9 + 30*8e-6 = 6.144e-7 + 2.4e-4 = 2.406144e-4 s
//     kv_split: all-gather 1/2*2048/50e9 + 8e-6 = 8.02048e-6; reduce-scatter
//     1/2*4160/50e9 + 8e-6 = 8.0416e-6 -> 1.606208e-5 s
//     attn.core: 4*128*8*2048 = 8,388,608 flops; 2*2048*128*2 + 2*8*128*2 = 1,052,672 B
//       -> 3.1423045e-7 s.  qkv 1.2600832e7 B -> 3.7614424e-6 s; out 8,406,016 B ->
//       2.5092585e-6 s; up 58,743,808 B -> 1.7535465e-5 s; down 29,380,096 B -> 8.7701779e-6 s;
//       lm_head 131,366,560 B -> 3.9213899e-5 s.
//     latency = 80*(3.7614424e-6 + 1.606208e-5 + 3.1423045e-7 + 2.5092585e-6 + 2.406144e-4
//       + 1.7535465e-5 + 8.7701779e-6 + 2.406144e-4) + 3.9213899e-5 = 4.245373024e-2 s
//   (f2) the same with a thinner 200e9 B/s node uplink and dp = 8: dp fills the 8 GPUs of
//     every node, so g = 8 TP groups leave each node at once: beta = min(50e9, 200e9/8)
//     = 25e9. tp_reduce = 2*15/16*16384/25e9 + 2.4e-4 = 2.412288e-4 s; kv_split
//     1/2*2048/25e9 + 8e-6 + 1/2*4160/25e9 + 8e-6 = 1.612416e-5 s
//     latency = 80*(... with those) + 3.9213899e-5 = 4.255700064e-2 s
//     (f3) thin uplink, dp = 1: g = 1, beta = min(50e9, 200e9) = 50e9: as (f1).
TEST_CASE("golden (f): TP=16 across nodes crosses the cluster level / uplink contention",
          "[physics][golden]") {
  const ModelSpec m = llama31_70b();
  ParallelConfig c = cfg(1, 16);
  c.tp_placement = 1;  // distinct nodes
  {
    const MachineSpec mc = dgx_h100();
    const Evaluation e = evaluate(m, mc, decode(4096), c);
    REQUIRE(e.valid);
    CHECK(e.layout.tp.level == 2);
    CHECK(e.layout.tp.bandwidth == Approx(50e9));
    check_comm(e, "attn.tp_reduce", 2.406144e-4);
    check_comm(e, "ffn.reduce", 2.406144e-4);
    check_comm(e, "attn.kv_split", 1.606208e-5);
    check_stage(e, "attn.core", 8388608, 1052672, 3.142304478e-7);
    CHECK(e.totals.latency_s == Approx(4.245373024e-2).epsilon(kTol));
  }
  MachineSpec thin = dgx_h100();
  thin.levels[1].uplink_bw = 200e9;
  {
    ParallelConfig c8 = c;
    c8.dp = 8;
    const Evaluation e = evaluate(m, thin, decode(4096), c8);
    REQUIRE(e.valid);
    CHECK(e.layout.tp.sharing == 8);
    CHECK(e.layout.tp.bandwidth == Approx(25e9));
    check_comm(e, "attn.tp_reduce", 2.412288e-4);
    check_comm(e, "attn.kv_split", 1.612416e-5);
    CHECK(e.totals.latency_s == Approx(4.255700064e-2).epsilon(kTol));
  }
  {
    const Evaluation e = evaluate(m, thin, decode(4096), c);
    CHECK(e.layout.tp.bandwidth == Approx(50e9));
    CHECK(e.totals.latency_s == Approx(4.245373024e-2).epsilon(kTol));
  }
}

// ---------------------------------------------------------------------------------------
// (g) The cube machine, the default-scenario-like config of the issue: Llama-3.1-70B decode,
//   S = 128K = 131,072, B = 1, "cp=8,tp=4,pp=1,dp=1,ep=1,kv_shard_mode=split,
//   ffn_shard_scope=TP+CP,tp_placement=pe,cp_placement=cube,cp_ring_variant=qoml".
//   TP: 4 PEs of one cube (400e9, 0.1e-6). CP: 8 distinct cubes of one sip -> sip links
//   (200e9, 0.3e-6, no uplink). FFN group f = tp*cp = 32 spans the sip: 200e9, 0.3e-6.
//   q_pe = 16, n_kv = 2, r = 1, q_loc = 16, S_loc = 131072/8 = 16,384. 128e12 FLOP/s, 1e12 B/s.
//   attn.qkv : 2*8192*128*(16+4) = 41,943,040 flops; bytes 41,943,040 + (8192+2560)*2
//              = 41,964,544 -> 4.1964544e-5 s
//   attn.core: 4*128*16*16384 = 134,217,728 flops; bytes 16384*256*2*2 + 2*16*128*2
//              = 16,777,216 + 8,192 = 16,785,408 -> 1.6785408e-5 s
//   attn.cp  : qoml decode: msg 16*128*4 + 2*16*4 = 8,320 B; 7*(0.3e-6 + 8320/200e9)
//              = 2.3912e-6 s
//   attn.out : 2*16*128*8192 = 33,554,432; bytes 33,554,432 + (2048+8192)*2 = 33,574,912
//              -> 3.3574912e-5 s
//   tp_reduce: 2*3/4*16384/400e9 + 6*0.1e-6 = 6.6144e-7 s
//   ffn.up   : T_f = 1, f = 32: 2*8192*57344/32 = 29,360,128; bytes 29,360,128
//              + (8192+1792)*2 = 29,380,096 -> 2.9380096e-5 s
//   ffn.down : 2*896*8192 = 14,680,064; bytes 14,680,064 + (896+8192)*2 = 14,698,240
//              -> 1.469824e-5 s
//   ffn.reduce: all-reduce of 16,384 B over 32 on the sip: 2*31/32*16384/200e9 + 62*0.3e-6
//              = 1.5872e-7 + 1.86e-5 = 1.875872e-5 s
//   lm_head  : 2*8192*128256/4 = 525,336,576; bytes 525,336,576 + (8192+32064)*2
//              = 525,417,088 -> 5.25417088e-4 s
//   latency = 80*(4.1964544e-5 + 1.6785408e-5 + 2.3912e-6 + 3.3574912e-5 + 6.6144e-7
//             + 2.9380096e-5 + 1.469824e-5 + 1.875872e-5) + 5.25417088e-4 = 1.3182581888e-2 s
//   Memory (standard): weights 80*((41,943,040 + 33,554,432) + 3*8192*28672*2/32)
//     + 2*128256*8192*2/4 = 80*119,537,664 + 1,050,673,152 = 10,613,686,272 B;
//     KV 80*16384*256*2*2 = 1,342,177,280 B; transient max(attn 1*(2*8192 + 2*16*128)*2
//     = 40,960, FFN 1*(8192 + 1792)*2 = 19,968, logits 128256/4*4 = 128,256) + buffers
//     2*1*8192*2 = 32,768 -> 161,024 B; used 11,956,024,576 <= budget 16e9*0.9 = 1.44e10.
TEST_CASE("golden (g): cube machine / Llama-3.1-70B decode 128K / cp=8 cube / tp=4 pe / qoml",
          "[physics][golden]") {
  const ModelSpec m = llama31_70b();
  const MachineSpec mc = cube_sip();
  const ParallelConfig c = parse_config(
      "cp=8,tp=4,pp=1,dp=1,ep=1,kv_shard_mode=split,ffn_shard_scope=TP+CP,tp_placement=pe,"
      "cp_placement=cube,cp_ring_variant=qoml",
      mc);
  const Evaluation e = evaluate(m, mc, decode(131072), c);
  REQUIRE(e.valid);
  check_stage(e, "attn.qkv", 41943040, 41964544, 4.1964544e-5);
  check_stage(e, "attn.core", 134217728, 16785408, 1.6785408e-5);
  check_comm(e, "attn.cp", 2.3912e-6);
  check_stage(e, "attn.out", 33554432, 33574912, 3.3574912e-5);
  check_comm(e, "attn.tp_reduce", 6.6144e-7);
  check_stage(e, "ffn.up", 29360128, 29380096, 2.9380096e-5);
  check_stage(e, "ffn.down", 14680064, 14698240, 1.469824e-5);
  check_comm(e, "ffn.reduce", 1.875872e-5);
  check_stage(e, "lm_head", 525336576, 525417088, 5.25417088e-4);
  CHECK(e.totals.latency_s == Approx(1.3182581888e-2).epsilon(kTol));
  CHECK(e.memory.weights_bytes == Approx(10613686272.0).epsilon(kTol));
  CHECK(e.memory.kv_bytes == Approx(1342177280.0).epsilon(kTol));
  CHECK(e.memory.transient_bytes == Approx(161024.0).epsilon(kTol));
  CHECK(e.memory.budget_bytes == Approx(1.44e10).epsilon(kTol));
  CHECK(e.feasible);
}

// ---------------------------------------------------------------------------------------
// (h) Pipelined prefill: Llama-3.1-8B, S = 8192 in chunks of c = 2048 (4 chunks, P_j = 2048 j),
//   B = 1, TP=4 and PP=2 on the 8 GPUs of one DGX node (the hop crosses the node: 450e9, 3e-6).
//   One pipeline stage = ceil(32/2) = 16 layers. q_pe = 8, n_kv = 2, q_loc = 8, T = 2048.
//   Per layer, the same for every chunk:
//     attn.qkv: 2*2048*4096*128*12 = 25,769,803,776 flops -> 2.6056424e-5 s (compute)
//     attn.out: 2*2048*1024*4096 = 17,179,869,184 -> 1.7370950e-5 s
//     ffn.up  : 2*2048*4096*7168 = 120,259,084,288 -> 1.2159665e-4 s
//     ffn.down: 2*2048*3584*4096 = 60,129,542,144 -> 6.0798324e-5 s
//     tp_reduce = ffn.reduce: all-reduce of 2048*4096*2 = 16,777,216 B over 4:
//       2*3/4*16777216/450e9 + 6*3e-6 = 7.3924053e-5 s
//   attn.core of chunk j: 4*1*128*8*2048*(P_j + 1024) flops; bytes (P_j+2048)*256*2*2
//     + 2*2048*8*128*2:
//     j=0:  8,589,934,592 -> 8.6854748e-6 s   j=1: 25,769,803,776 -> 2.6056424e-5 s
//     j=2: 42,949,672,960 -> 4.3427374e-5 s   j=3: 60,129,542,144 -> 6.0798324e-5 s
//     (all compute-bound: bytes at most 16,777,216 -> 5.0e-6 s)
//   t_stage(j) = 16*(sum of the above): 6.1176948e-3, 6.3956300e-3, 6.6735652e-3,
//     6.9515004e-3 s; sum 2.61383905e-2 s.
//   hop: point-to-point of T*H*a = 2048*4096*2 = 16,777,216 B: 16777216/450e9 + 3e-6
//     = 4.0282702e-5 s
//   lm_head once: 2*4096*128256/4 = 262,668,288 flops; bytes 262,668,288 + (4096+32064)*2
//     = 262,740,608 -> 7.8430032e-5 s
//   TTFT = sum_j t_stage(j) + (pp-1)*(t_stage(3) + hop) + lm_head
//        = 2.61383905e-2 + 6.9515004e-3 + 4.0282702e-5 + 7.8430032e-5 = 3.320860361e-2 s
//   The stages listed are one pipeline stage's, chunk-averaged: attn.core count 4*16 = 64,
//   mean flops (8,589,934,592 + ... + 60,129,542,144)/4 = 34,359,738,368.
TEST_CASE("golden (h): pipelined chunked prefill / pp=2 / TTFT formula", "[physics][golden]") {
  const ModelSpec m = llama31_8b();
  const MachineSpec mc = dgx_h100();
  const Evaluation e = evaluate(m, mc, prefill(8192, 1, 2048), cfg(1, 4, 2));
  REQUIRE(e.valid);
  CHECK(e.totals.prefill_pipelined);
  CHECK(e.layout.pp_hop.level == 1);
  const Stage& core = stage(e, "attn.core");
  CHECK(core.count == 64);
  CHECK(core.flops == Approx(34359738368.0).epsilon(kTol));
  check_stage(e, "attn.qkv", 25769803776.0, 35651584, 2.6056424445e-5);
  check_stage(e, "ffn.up", 120259084288.0, 104857600, 1.2159664741e-4);
  check_comm(e, "attn.tp_reduce", 7.3924053333e-5);
  CHECK(e.totals.latency_s == Approx(3.320860361e-2).epsilon(kTol));
}

// ---------------------------------------------------------------------------------------
// (i) MLA (DeepSeek-V3) decode, attention only (scope: attention), S = 4096, B = 1, TP=8 on
//   one DGX node. H7168 h_q128, kv_lora 512, q_lora 1536, rope 64, nope 128, v 128, L61.
//   MLA caches one latent per token: n_kv = 1, r = tp = 8 (split, default): q_loc = g = 128,
//   S_loc = 4096/8 = 512. q_pe = 16.
//   attn.qkv (absorbed decode): replicated down-projections H*(1536 + 512 + 64) = 15,138,816;
//     q up 1536*16*192 = 4,718,592; W_UK absorbed 16*128*512 = 1,048,576. flops
//     2*(15,138,816 + 4,718,592 + 1,048,576) = 41,811,968; bytes 41,811,968 + activations
//     (7168 + 16*192 + 512 + 64)*2 = 21,632 -> 41,833,600 -> 1.2487642e-5 s
//   attn.kv_split: all-gather of the absorbed queries, M = T*q_loc*(kv_lora+rope)*a
//     = 128*576*2 = 147,456: 7/8*147456/450e9 + 7*3e-6 = 2.128672e-5 s; reduce-scatter of
//     the latent O (fp32) and m, l: M = 128*(512+2)*4 = 263,168: 7/8*263168/450e9 + 7*3e-6
//     = 2.1511716e-5 s.
//   attn.core: per query per key 2*(512+64) + 2*512 = 2,176 FLOPs: 2176*1*128*512
//     = 142,606,336 flops; bytes: the latent cache 512*576*2 = 589,824 + Q (absorbed,
//     kv_lora+rope wide) 128*576*2 = 147,456 + O (latent) 128*512*2 = 131,072 = 868,352
//     -> 2.5920955e-7 s (memory).
//     (Found by this test and fixed: the code once counted Q without its rope part.)
//   attn.out: W_UV 16*512*128 = 1,048,576 + W_O 16*128*7168 = 14,680,064 ->
//     flops 31,457,280; bytes 31,457,280 + (2048 + 7168)*2 = 31,475,712 -> 9.3957349e-6 s
//   tp_reduce: all-reduce 7168*2 = 14,336 B over 8: 2*7/8*14336/450e9 + 14*3e-6
//     = 4.2055751e-5 s
//   latency = 61*(1.2487642e-5 + 2.128672e-5 + 2.1511716e-5 + 2.5920955e-7 + 9.3957349e-6
//     + 4.2055751e-5) = 6.526803149e-3 s   (no FFN, no lm_head: scope attention)
//   Accounting: model attention FLOPs 61*(2*(15,138,816 + 128*1536*192 + 128*128*512
//     + 128*512*128 + 128*128*7168) + 2176*128*4096) = 92,418,736,128; the down-projections
//     are repeated on the 8 TP ranks: redundant 61*8*2*15,138,816*7/8 = 12,928,548,864.
TEST_CASE("golden (i): DeepSeek-V3 MLA absorbed decode / attention scope / TP=8", "[physics][golden][mla]") {
  const ModelSpec m = deepseek_v3();
  const MachineSpec mc = dgx_h100();
  Workload w = decode(4096);
  w.scope = Scope::attention;
  const Evaluation e = evaluate(m, mc, w, cfg(1, 8));
  REQUIRE(e.valid);
  check_stage(e, "attn.qkv", 41811968, 41833600, 1.2487641791e-5);
  check_comm(e, "attn.kv_split", 2.128672e-5 + 2.1511715556e-5);
  check_stage(e, "attn.out", 31457280, 31475712, 9.395734925e-6);
  check_comm(e, "attn.tp_reduce", 4.2055751111e-5);
  CHECK(find_stage(e, "lm_head") == nullptr);
  CHECK(find_stage(e, "moe.experts") == nullptr);
  CHECK(e.totals.redundant_flops == Approx(12928548864.0).epsilon(kTol));
  CHECK(e.totals.flops_all_pes - e.totals.redundant_flops == Approx(92418736128.0).epsilon(1e-9));
  CHECK(e.totals.latency_s == Approx(6.526803149e-3).epsilon(kTol));
  // Q carries its rope part (docs/physics.md §3, MLA).
  check_stage(e, "attn.core", 142606336, 868352, 2.592095522e-7);
}

// ---------------------------------------------------------------------------------------
// (j) FFN sharded over the DP replicas: Llama-3.1-70B decode, S = 4096, B = 1, TP=8 on the
//   GPUs of a node, dp = 4, ffn_shard_scope = TP+CP+DP. dp comes after the PE-placed tp: the
//   node's 8 GPUs are taken, so the 4 replicas are 4 nodes and the FFN group f = 32 spans the
//   cluster: alpha 8e-6, beta = min(50e9, 400e9/g), g = 8 active GPUs of a node / 8 of the
//   group's members in it = 1 -> 50e9.
//   T_f = dp*T = 4, tokens differ across the group.
//   ffn.up  : 2*4*8192*57344/32 = 117,440,512 flops; bytes 8192*57344*2/32 = 29,360,128
//             + 4*(8192 + 1792)*2 = 79,872 -> 29,440,000 -> 8.7880597e-6 s
//   ffn.down: 2*4*896*8192 = 58,720,256; bytes 14,680,064 + 4*(896 + 8192)*2 = 14,752,768
//             -> 4.4038113e-6 s
//   ffn.reduce: all-gather over 32 (output T_f*H*a = 65,536): 31/32*65536/50e9 + 31*8e-6
//             = 2.4926976e-4; reduce-scatter (input 65,536): 2.4926976e-4; all-gather of the
//             rank's own tokens (output T*H*a = 16,384): 31/32*16384/50e9 + 31*8e-6
//             = 2.4831744e-4; sum 7.4685696e-4 s
//   attention and lm_head as in (a).
//   latency = 80*(6.265810e-6 + 6.272382e-7 + 5.013626e-6 + 4.2063716e-5 + 8.7880597e-6
//             + 4.4038113e-6 + 7.4685696e-4) + 7.8422906e-5 = 6.519996060e-2 s
TEST_CASE("golden (j): Llama-3.1-70B decode / FFN sharded over TP+CP+DP", "[physics][golden]") {
  const ModelSpec m = llama31_70b();
  const MachineSpec mc = dgx_h100();
  ParallelConfig c = cfg(1, 8, 1, 4);
  c.ffn_shard_scope = FfnShardScope::tp_cp_dp;
  const Evaluation e = evaluate(m, mc, decode(4096), c);
  REQUIRE(e.valid);
  CHECK(e.layout.ffn_group == 32);
  CHECK(e.layout.ffn.level == 2);
  check_stage(e, "ffn.up", 117440512, 29440000, 8.788059701e-6);
  check_stage(e, "ffn.down", 58720256, 14752768, 4.403811343e-6);
  check_comm(e, "ffn.reduce", 7.4685696e-4);
  CHECK(e.totals.latency_s == Approx(6.519996060e-2).epsilon(kTol));
  CHECK(e.totals.throughput_tok_s == Approx(4 / 6.519996060e-2).epsilon(kTol));
}

// (k) Dense prefill with the FFN over TP+CP and the qoml ring: Llama-3.1-8B, S = 4096 in one
//   chunk, B = 1, TP=2 and CP=4 on the GPUs of one node (450e9, 3e-6), scope TP+CP (f = 8).
//   T = 4096, T_rank = 1024, q_pe = 16, n_kv = 4, q_loc = 16, T_f = T.
//   attn.qkv : 2*1024*4096*128*24 = 25,769,803,776 -> 2.6056424e-5 s; bytes 39,845,888
//   attn.core: block 4*128*16*1024*2048/4 = 4,294,967,296 -> 4.3427374e-6 s; bytes KV block
//              1024*256*2*4 = 2,097,152 + Q,O 2*1024*16*128*2 = 8,388,608 -> 10,485,760
//   attn.cp  : qoml prefill: per step Q 1024*16*128*2 = 4,194,304 + O 1024*16*128*4
//              = 8,388,608 + m,l 2*1024*16*4 = 131,072 -> 12,713,984 B: 3e-6 + 12713984/450e9
//              = 3.1253298e-5 s > t_i = 4.3427374e-6: 3*3.1253298e-5 = 9.3759893e-5 s
//   attn.out : 2*1024*2048*4096 = 17,179,869,184 -> 1.7370950e-5 s; bytes 29,360,128
//   tp_reduce: all-reduce over 2 of 1024*4096*2 = 8,388,608: 8388608/450e9 + 2*3e-6
//              = 2.4641351e-5 s
//   ffn.up   : 2*4096*4096*28672/8 = 120,259,084,288 -> 1.2159665e-4 s; bytes 4096*28672*2/8
//              + 4096*(4096 + 3584)*2 = 29,360,128 + 62,914,560 = 92,274,688
//   ffn.down : 2*4096*1792*4096 = 60,129,542,144 -> 6.0798324e-5 s; bytes 14,680,064
//              + 4096*(1792 + 4096)*2 = 62,914,560
//   ffn.reduce: all-gather over cp = 4 of the chunk (output T*H*a = 33,554,432):
//              3/4*33554432/450e9 + 3*3e-6 = 6.4924053e-5; reduce-scatter over f = 8 (input
//              33,554,432): 7/8*33554432/450e9 + 7*3e-6 = 8.6244729e-5; sum 1.5116878e-4 s
//   lm_head  : 2*4096*128256/2 = 525,336,576; bytes 525,336,576 + (4096 + 64128)*2
//              = 525,473,024 -> 1.5685762e-4 s
//   TTFT = 32*(2.6056424e-5 + 4.3427374e-6 + 9.3759893e-5 + 1.7370950e-5 + 2.4641351e-5
//          + 1.2159665e-4 + 6.0798324e-5 + 1.5116878e-4) + 1.5685762e-4 = 1.614838112e-2 s
TEST_CASE("golden (k): Llama-3.1-8B prefill / TP=2 CP=4 / FFN over TP+CP / qoml ring", "[physics][golden]") {
  const ModelSpec m = llama31_8b();
  const MachineSpec mc = dgx_h100();
  ParallelConfig c = cfg(4, 2);
  c.cp_placement = 0;
  c.ffn_shard_scope = FfnShardScope::tp_cp;
  c.cp_ring_variant = CpRingVariant::qoml;
  const Evaluation e = evaluate(m, mc, prefill(4096), c);
  REQUIRE(e.valid);
  check_stage(e, "attn.qkv", 25769803776.0, 39845888, 2.6056424445e-5);
  check_stage(e, "attn.core", 4294967296.0, 10485760, 4.3427374075e-6);
  check_comm(e, "attn.cp", 9.375989333e-5);
  check_stage(e, "attn.out", 17179869184.0, 29360128, 1.7370949630e-5);
  check_comm(e, "attn.tp_reduce", 2.4641351111e-5);
  check_stage(e, "ffn.up", 120259084288.0, 92274688, 1.2159664741e-4);
  check_stage(e, "ffn.down", 60129542144.0, 62914560, 6.0798323705e-5);
  check_comm(e, "ffn.reduce", 1.5116878222e-4);
  check_stage(e, "lm_head", 525336576, 525473024, 1.5685761910e-4);
  CHECK(e.totals.latency_s == Approx(1.614838112e-2).epsilon(kTol));
  CHECK(e.totals.redundant_flops == 0);
}

// T_rank and T_f (docs/physics.md §4), shared by the step work and memory/standard.
// T = 96 new tokens per replica, cp = 4, dp = 3: T_rank = 96 (decode) or 96/4 = 24 (prefill);
// T_f = T_rank (TP), 96 (TP+CP), 3*96 = 288 (TP+CP+DP).
TEST_CASE("tokens per PE: T_rank and T_f by hand", "[physics][golden]") {
  ParallelConfig c;
  c.cp = 4;
  c.dp = 3;
  CHECK(rank_tokens(c, Mode::decode, 96) == 96);
  CHECK(rank_tokens(c, Mode::prefill, 96) == 24);
  c.ffn_shard_scope = FfnShardScope::tp;
  CHECK(ffn_group_tokens(c, Mode::decode, 96) == 96);
  CHECK(ffn_group_tokens(c, Mode::prefill, 96) == 24);
  c.ffn_shard_scope = FfnShardScope::tp_cp;
  CHECK(ffn_group_tokens(c, Mode::prefill, 96) == 96);
  c.ffn_shard_scope = FfnShardScope::tp_cp_dp;
  CHECK(ffn_group_tokens(c, Mode::decode, 96) == 288);
  CHECK(ffn_group_tokens(c, Mode::prefill, 96) == 288);
}
