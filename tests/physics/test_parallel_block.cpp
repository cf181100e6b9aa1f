// Parallel block (ModelSpec::parallel_block; docs/physics.md §4 "Parallel block"): attention
// and FFN read the same input, so the attention output projection's partial sums join the
// FFN's reduction and `attn.tp_reduce` disappears from the layers where that reduction sums
// over a group containing the TP group. Hand-computed numbers (python3 as a calculator only)
// for GPT-J-6B, then properties over random configurations against the same model built
// sequentially: the difference is exactly the attention all-reduces removed, nothing else.
//
// Conventions as in test_golden.cpp: a = w = k = 2 B, memory = bytes / 3.35e12 on DGX-H100,
// all-reduce over n of M: 2(n-1)/n*M/beta + 2(n-1)*alpha with the node's 450e9 B/s, 3e-6 s.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "physics_checks.hpp"
#include "tessera/physics/layout.hpp"
#include "tessera/physics/step_work.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

// GPT-J-6B (models/gpt-j-6b.yaml): L28 H4096 h_q = h_kv = 16 d256 I16384 plain V50400.
ModelSpec gptj(bool parallel) {
  ModelSpec m;
  m.name = "GPT-J-6B";
  m.layers = 28;
  m.hidden = 4096;
  m.heads = 16;
  m.kv_heads = 16;
  m.head_dim = 256;
  m.ffn = 16384;
  m.ffn_kind = FfnKind::plain;
  m.vocab = 50400;
  m.mlp_bias = true;
  m.parallel_block = parallel;
  return m;
}

// Falcon-180B (models/falcon-180b.yaml): L80 H14848 h_q232 h_kv8 d64 I59392 plain V65024.
ModelSpec falcon180b(bool parallel) {
  ModelSpec m;
  m.name = "Falcon-180B";
  m.layers = 80;
  m.hidden = 14848;
  m.heads = 232;
  m.kv_heads = 8;
  m.head_dim = 64;
  m.ffn = 59392;
  m.ffn_kind = FfnKind::plain;
  m.vocab = 65024;
  m.parallel_block = parallel;
  return m;
}

ModelSpec with_flag(ModelSpec m, bool parallel) {
  m.parallel_block = parallel;
  return m;
}

ParallelConfig block_cfg(int cp, int tp, FfnShardScope scope = FfnShardScope::tp, int dp = 1, int ep = 1) {
  ParallelConfig c;
  c.cp = cp;
  c.tp = tp;
  c.dp = dp;
  c.ep = ep;
  c.ffn_shard_scope = scope;
  return c;
}

const Stage* find(const Evaluation& e, const char* name) { return find_stage(e, name); }

// All-reduces per layer on the critical path: sum of count over the all-reduce collectives of
// the layer stages, divided by L.
double all_reduces_per_layer(const Evaluation& e, double layers) {
  double n = 0;
  for (int i = 0; i < e.work.size; ++i) {
    const StageWork& w = e.work.stages[static_cast<std::size_t>(i)];
    if (w.block == StageBlock::head || w.block == StageBlock::pipeline) continue;
    for (int k = 0; k < w.comm_count; ++k)
      if (w.comms[static_cast<std::size_t>(k)].kind == CommKind::all_reduce) n += w.count;
  }
  return n / layers;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// GPT-J-6B decode, S = 2048, B = 1, TP = 4 on one DGX-H100 node. tp = 4: q_pe = n_kv = 4, r = 1.
//   attn.qkv  bytes 4096*3072*2 + (4096+3072)*2 = 25,180,160   -> 7.5164657e-6 s
//   attn.core bytes 2*2048*256*2*4 + 2*4*256*2  =  8,392,704   -> 2.5052848e-6 s
//   attn.out  bytes 1024*4096*2 + (1024+4096)*2 =  8,398,848   -> 2.5071188e-6 s
//   attn.tp_reduce (sequential only): all-reduce of T*H*a = 8,192 B over 4:
//             2*3/4*8192/450e9 + 6*3e-6 = 2.7307e-8 + 1.8e-5 = 1.80273067e-5 s
//   ffn.up, ffn.down (I/f = 4096): bytes 4096*4096*2 + (4096+4096)*2 = 33,570,816 -> 1.0021139e-5 s
//   ffn.reduce: all-reduce of T_f*H*a = 8,192 B over f = 4 = 1.80273067e-5 s (both; in the
//             parallel block it also sums the attention's partial outputs: same bytes)
//   lm_head   bytes 50400*4096*2/4 + (4096+12600)*2 = 103,252,592 -> 3.0821669e-5 s
//   sequential: 28*(7.5164657e-6 + 2.5052848e-6 + 2.5071188e-6 + 2*1.0021139e-5
//               + 2*1.80273067e-5) + 3.0821669e-5 = 1.95234297e-3 s
//   parallel:   the same less 28*1.80273067e-5 = 5.0476459e-4 s -> 1.44757838e-3 s
//   flops_all_pes (both): 28*4*(25,165,824 + 8,388,608 + 8,388,608 + 2*33,554,432)
//                         + 4*103,219,200 = 12,626,690,048
//   link bytes all PEs: an all-reduce puts 2(n-1)/n*M = 12,288 B per PE on the wire;
//     sequential 28*4*2*12,288 = 2,752,512; parallel 28*4*12,288 = 1,376,256.
TEST_CASE("parallel block: GPT-J-6B decode TP=4 - one all-reduce per layer instead of two",
          "[physics][parallel_block]") {
  const MachineSpec mc = dgx_h100();
  const Evaluation seq = evaluate(gptj(false), mc, decode(2048), block_cfg(1, 4));
  const Evaluation par = evaluate(gptj(true), mc, decode(2048), block_cfg(1, 4));
  REQUIRE(seq.valid);
  REQUIRE(par.valid);

  REQUIRE(find(seq, "attn.tp_reduce") != nullptr);
  CHECK(find(seq, "attn.tp_reduce")->count == 28);
  CHECK(find(seq, "attn.tp_reduce")->visible_s == Approx(1.80273067e-5).epsilon(kTol));
  CHECK(find(par, "attn.tp_reduce") == nullptr);
  for (const Evaluation* e : {&seq, &par}) {
    const Stage* r = find(*e, "ffn.reduce");
    REQUIRE(r != nullptr);
    CHECK(r->count == 28);
    CHECK(r->visible_s == Approx(1.80273067e-5).epsilon(kTol));
    CHECK(find(*e, "attn.qkv")->visible_s == Approx(7.5164657e-6).epsilon(kTol));
    CHECK(find(*e, "ffn.up")->visible_s == Approx(1.0021139e-5).epsilon(kTol));
    CHECK(e->totals.flops_all_pes == Approx(12626690048.0).epsilon(kTol));
  }
  CHECK(seq.stages.size == par.stages.size + 1);
  CHECK(all_reduces_per_layer(seq, 28) == 2);
  CHECK(all_reduces_per_layer(par, 28) == 1);

  CHECK(seq.totals.latency_s == Approx(1.95234297e-3).epsilon(kTol));
  CHECK(par.totals.latency_s == Approx(1.44757838e-3).epsilon(kTol));
  CHECK(seq.totals.latency_s - par.totals.latency_s == Approx(5.0476459e-4).epsilon(1e-6));
  CHECK(seq.totals.link_bytes_all_pes == Approx(2752512.0).epsilon(1e-12));
  CHECK(par.totals.link_bytes_all_pes == Approx(1376256.0).epsilon(1e-12));
  CHECK(par.totals.flops_all_pes == seq.totals.flops_all_pes);
  CHECK(par.totals.hbm_bytes_all_pes == seq.totals.hbm_bytes_all_pes);
  CHECK(par.memory.used_bytes == seq.memory.used_bytes);
}

// TP = 1: there is no tensor-parallel reduction to merge; the flag changes nothing.
TEST_CASE("parallel block: tp = 1 changes nothing", "[physics][parallel_block]") {
  const MachineSpec mc = dgx_h100();
  for (const Workload& w : {decode(2048, 8), prefill(2048)}) {
    const Evaluation seq = evaluate(gptj(false), mc, w, block_cfg(2, 1, FfnShardScope::tp_cp));
    const Evaluation par = evaluate(gptj(true), mc, w, block_cfg(2, 1, FfnShardScope::tp_cp));
    REQUIRE(seq.valid);
    CHECK(par.totals.latency_s == seq.totals.latency_s);
    CHECK(par.totals.link_bytes_all_pes == seq.totals.link_bytes_all_pes);
    CHECK(par.stages.size == seq.stages.size);
  }
}

// GPT-J-6B prefill, S = 1024 in one chunk, B = 1, cp = 2, tp = 4, TP+CP scope: each CP rank
// holds T/cp = 512 tokens; the FFN all-gathers the chunk over cp and reduce-scatters over
// f = 8 — that reduce-scatter now carries the attention's partial sums too (zero-padded at the
// other CP rank's tokens), and attn.tp_reduce goes.
//   attn.tp_reduce (sequential): all-reduce over tp = 4 (one node) of T_rank*H*a =
//     512*4096*2 = 4,194,304 B: 2*3/4*4194304/450e9 + 6*3e-6 = 1.3981013e-5 + 1.8e-5
//     = 3.1981013e-5 s; x 28 layers = 8.9546837e-4 s removed; ffn.reduce identical.
TEST_CASE("parallel block: prefill TP+CP - the FFN reduce-scatter carries the attention's sums",
          "[physics][parallel_block]") {
  const MachineSpec mc = dgx_h100();
  const ParallelConfig c = block_cfg(2, 4, FfnShardScope::tp_cp);
  const Evaluation seq = evaluate(gptj(false), mc, prefill(1024), c);
  const Evaluation par = evaluate(gptj(true), mc, prefill(1024), c);
  REQUIRE(seq.valid);
  REQUIRE(par.valid);
  REQUIRE(find(seq, "attn.tp_reduce") != nullptr);
  CHECK(find(seq, "attn.tp_reduce")->visible_s == Approx(3.1981013e-5).epsilon(kTol));
  CHECK(find(par, "attn.tp_reduce") == nullptr);
  REQUIRE(find(par, "ffn.reduce") != nullptr);
  CHECK(find(par, "ffn.reduce")->visible_s == find(seq, "ffn.reduce")->visible_s);
  CHECK(seq.totals.latency_s - par.totals.latency_s == Approx(8.9546837e-4).epsilon(kTol));
  CHECK(par.totals.flops_all_pes == seq.totals.flops_all_pes);
}

// MoE: moe.combine is an all-reduce over f where the group's tokens agree (decode, TP scope):
// merged. Where it is the all-to-all returning routed tokens (TP+CP+DP with dp > 1, ep > 1) it
// sums nothing across the TP group: attn.tp_reduce stays for the MoE layers — DeepSeek-V3's 58
// of 61 — and goes for its 3 dense layers, whose ffn.reduce carries it.
TEST_CASE("parallel block: MoE - merged into an all-reduce combine / kept beside an all-to-all",
          "[physics][parallel_block]") {
  const MachineSpec mc = dgx_h100();
  {
    const Evaluation par = evaluate(with_flag(mixtral_8x7b(), true), mc, decode(4096), block_cfg(1, 4));
    REQUIRE(par.valid);
    CHECK(find(par, "attn.tp_reduce") == nullptr);
    CHECK(all_reduces_per_layer(par, 32) == 1);
  }
  {
    const ParallelConfig c = block_cfg(2, 2, FfnShardScope::tp_cp_dp, 2, 8);
    const Evaluation seq = evaluate(deepseek_v3(), mc, decode(4096), c);
    const Evaluation par = evaluate(with_flag(deepseek_v3(), true), mc, decode(4096), c);
    REQUIRE(seq.valid);
    REQUIRE(par.valid);
    REQUIRE(find(par, "attn.tp_reduce") != nullptr);
    CHECK(find(seq, "attn.tp_reduce")->count == 61);
    CHECK(find(par, "attn.tp_reduce")->count == 58);
    CHECK(find(par, "attn.tp_reduce")->visible_s == find(seq, "attn.tp_reduce")->visible_s);
    const ReduceMerge r = parallel_block_merge(with_flag(deepseek_v3(), true), c, Mode::decode, Scope::full);
    CHECK(r.dense);
    CHECK_FALSE(r.moe);
  }
}

// scope: attention builds no FFN: the attention keeps its own all-reduce.
TEST_CASE("parallel block: scope attention keeps attn.tp_reduce", "[physics][parallel_block]") {
  Workload w = decode(2048);
  w.scope = Scope::attention;
  const Evaluation seq = evaluate(gptj(false), dgx_h100(), w, block_cfg(1, 4));
  const Evaluation par = evaluate(gptj(true), dgx_h100(), w, block_cfg(1, 4));
  REQUIRE(find(par, "attn.tp_reduce") != nullptr);
  CHECK(par.totals.latency_s == seq.totals.latency_s);
}

// Properties over random valid configurations of parallel-block models (GPT-J, Falcon-180B,
// Mixtral and DeepSeek-V3 with the flag), decode and prefill (pp = 1), each against the same
// model built sequentially:
//   FLOPs, redundant FLOPs, HBM bytes and memory identical; latency (overlap and roofline)
//   never higher; the latency saved equals sum(count * visible) of the attn.tp_reduce stages
//   removed; the link bytes saved equal sum(count * ranks * dp * comm_bytes) of them; the
//   attention all-reduces left are exactly the layers parallel_block_merge() does not merge.
TEST_CASE("property: parallel block = sequential less the merged attention all-reduces",
          "[physics][parallel_block][property]") {
  std::mt19937 rng(4242);
  const std::vector<ModelSpec> models{gptj(false), falcon180b(false), mixtral_8x7b(), deepseek_v3()};
  const std::vector<MachineSpec> machines{dgx_h100(), cube_sip()};
  const auto pick = [&](std::initializer_list<int> v) {
    return *(v.begin() + std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng));
  };
  int checked = 0, merged_seen = 0, kept_seen = 0, failures = 0;
  for (int tries = 0; checked < 600 && tries < 20000; ++tries) {
    const ModelSpec& base = models[static_cast<std::size_t>(tries) % models.size()];
    const MachineSpec& mc = machines[static_cast<std::size_t>(tries / 4) % machines.size()];
    const Mode mode = (tries / 8) % 2 == 0 ? Mode::decode : Mode::prefill;
    const Workload w = mode == Mode::decode ? decode(pick({1024, 4096, 32768}), pick({1, 4, 16}))
                                            : prefill(pick({1024, 4096}), pick({1, 2}), pick({0, 1024}));
    ParallelConfig c;
    c.cp = pick({1, 2, 4});
    c.tp = pick({1, 2, 4, 8});
    c.dp = pick({1, 2});
    c.ep = base.has_moe ? pick({1, 2, 4, 8}) : 1;
    const int scope = pick({0, 1, 2});
    c.ffn_shard_scope = scope == 0   ? FfnShardScope::tp
                        : scope == 1 ? FfnShardScope::tp_cp
                                     : FfnShardScope::tp_cp_dp;
    c.cp_ring_variant = mode == Mode::decode && pick({0, 1}) ? CpRingVariant::qoml : CpRingVariant::kv;
    c = canonicalize(base, c);
    const ModelSpec par_model = with_flag(base, true);
    Layout lay;
    compute_layout(base, mc, w, c, lay);
    if (!lay.valid) continue;
    const Evaluation seq = evaluate(base, mc, w, c);
    const Evaluation par = evaluate(par_model, mc, w, c);
    REQUIRE(seq.valid);
    REQUIRE(par.valid);
    ++checked;

    double saved_s = 0, saved_bytes = 0, seq_ar = 0, par_ar = 0;
    const Stage* s_ar = find(seq, "attn.tp_reduce");
    const Stage* p_ar = find(par, "attn.tp_reduce");
    const double ranks = static_cast<double>(c.cp) * c.tp * c.dp;
    if (s_ar) {
      seq_ar = s_ar->count;
      saved_s += s_ar->count * s_ar->visible_s;
      saved_bytes += s_ar->count * ranks * s_ar->comm_bytes;
    }
    if (p_ar) {
      par_ar = p_ar->count;
      saved_s -= p_ar->count * p_ar->visible_s;
      saved_bytes -= p_ar->count * ranks * p_ar->comm_bytes;
    }
    const ReduceMerge r = parallel_block_merge(par_model, c, mode, Scope::full);
    const double L = static_cast<double>(base.layers);
    const double chunks = find(seq, "attn.qkv")->count / L;  // prefill: occurrences over all chunks
    const double merged = (r.dense ? static_cast<double>(base.dense_ffn_layers()) : 0.0) +
                          (r.moe ? static_cast<double>(base.moe_layers()) : 0.0);
    (merged > 0 ? merged_seen : kept_seen)++;
    const Evaluation seq_roof = evaluate(base, mc, w, c, Latency::roofline);
    const Evaluation par_roof = evaluate(par_model, mc, w, c, Latency::roofline);

    const double rel = 1e-9;
    const auto close = [&](double a, double b) {
      return std::abs(a - b) <= rel * std::max({std::abs(a), std::abs(b), 1e-30});
    };
    const bool ok = par.totals.flops_all_pes == seq.totals.flops_all_pes &&
                    par.totals.redundant_flops == seq.totals.redundant_flops &&
                    par.totals.hbm_bytes_all_pes == seq.totals.hbm_bytes_all_pes &&
                    par.memory.used_bytes == seq.memory.used_bytes &&
                    par.totals.latency_s <= seq.totals.latency_s * (1 + 1e-12) &&
                    par_roof.totals.latency_s <= seq_roof.totals.latency_s * (1 + 1e-12) &&
                    close(seq.totals.latency_s, par.totals.latency_s + saved_s) &&
                    close(seq.totals.link_bytes_all_pes, par.totals.link_bytes_all_pes + saved_bytes) &&
                    close(seq_ar, c.tp > 1 ? L * chunks : 0.0) &&
                    close(par_ar, c.tp > 1 ? (L - merged) * chunks : 0.0);
    if (!ok && ++failures <= 5) {
      std::ostringstream os;
      os << base.name << " on " << mc.name << (mode == Mode::decode ? " decode" : " prefill") << " S"
         << w.context << " B" << w.batch << ": " << format_config(c, mc) << "; latency seq "
         << seq.totals.latency_s << " par " << par.totals.latency_s << " saved " << saved_s << "; link seq "
         << seq.totals.link_bytes_all_pes << " par " << par.totals.link_bytes_all_pes << " saved "
         << saved_bytes << "; attn.tp_reduce count seq " << seq_ar << " par " << par_ar << " merged layers "
         << merged;
      INFO(os.str());
      CHECK(ok);
    }
  }
  CHECK(failures == 0);
  CHECK(checked >= 600);
  CHECK(merged_seen > 0);
  CHECK(kept_seen > 0);
}
