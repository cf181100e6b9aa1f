// Chunked GEMM + all-reduce overlap (`tp_overlap: chunked`, docs/physics.md §7). Expected numbers
// derived by hand from the formulas of docs/physics.md (python3 as a calculator only):
//   exposed = Δg + max(r, n·r − (n−1)·g) + n·c,  g = t_gemm/n,  r = all-reduce of M/n,
// chunking only when m/n >= max(128, w·peak/(2·hbm_bw)) = max(128, 2·989e12/(2·3.35e12) = 295.2)
// on DGX-H100 (989e12 FLOP/s bf16, 3.35e12 B/s, node 450e9 B/s, α = 3e-6 s); stage_overhead = 0, so
// c = 0 in `overlap`. Ring all-reduce over 2 ranks: 2·(1/2)·M/β + 2·α = M/β + 6e-6 s.
#include <catch2/catch.hpp>

#include <cstring>

#include "fixtures.hpp"
#include "tessera/physics/tp_overlap.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

Evaluation run(const ModelSpec& m, const MachineSpec& mc, const Workload& wl, const ParallelConfig& c,
               TpOverlap mode, int chunks = 4) {
  const EvalContext ctx = make_eval_context(m, mc);
  TpOverlapPolicy p;
  p.mode = mode;
  p.chunks = chunks;
  const Evaluator ev(ctx, wl, std::make_shared<tessera::plugins::OverlapLatency>(p),
                     std::make_shared<tessera::plugins::StandardMemory>(0.0), {});
  Evaluation out;
  ev.evaluate(c, out);
  return out;
}

ParallelConfig tp_cfg(int tp, int cp = 1) {
  ParallelConfig c;
  c.tp = tp;
  c.cp = cp;
  return c;
}

const Stage& at(const Evaluation& e, const char* name) {
  const Stage* s = find_stage(e, name);
  INFO("stage " << name);
  REQUIRE(s != nullptr);
  return *s;
}

bool is_tp_reduce(const Stage& s) {
  return std::strcmp(s.name, "attn.tp_reduce") == 0 || std::strcmp(s.name, "ffn.reduce") == 0 ||
         std::strcmp(s.name, "moe.combine") == 0;
}

}  // namespace

// Llama-3.1-8B (H4096, q_pe 16 at tp 2, I 14336) prefill of 8192 tokens, TP=2, one chunk.
//   All-reduce M = 8192·4096·2 = 67,108,864 B: M/450e9 + 6e-6 = 1.551308e-4 s (both reductions).
//   n = 4: r = M/4/450e9 + 6e-6 = 4.328270e-5 s. Chunk rows 2048 >= 295.2: chunked.
//   attn.out: 2·8192·2048·4096 = 137,438,953,472 FLOP -> 1.389676e-4 s (compute-bound; memory
//     with the 3 weight re-reads 3.506e-5 + 1.502e-5 s stays below), g = 3.474190e-5 s < r:
//     exposed = 4r − 3g = 1.731308e-4 − 1.042257e-4 = 6.890511e-5 s.
//   ffn.down: 2·8192·7168·4096 FLOP -> 4.863866e-4 s, g = 1.215966e-4 s > r: exposed = r = 4.328270e-5.
//   TTFT gain: 32 layers · ((1.551308e-4 − 6.890511e-5) + (1.551308e-4 − 4.328270e-5)) = 6.338370e-3 s.
TEST_CASE("tp_overlap: prefill above the threshold - exposed is the larger of r and n*r - (n-1)*g",
          "[physics][tp_overlap]") {
  const ModelSpec m = llama31_8b();
  const MachineSpec mc = dgx_h100();
  const Evaluation none = run(m, mc, prefill(8192), tp_cfg(2), TpOverlap::none);
  const Evaluation chunked = run(m, mc, prefill(8192), tp_cfg(2), TpOverlap::chunked);
  REQUIRE(none.valid);
  REQUIRE(chunked.valid);
  CHECK(at(none, "attn.tp_reduce").visible_s == Approx(1.551308e-4).epsilon(1e-6));
  CHECK(at(chunked, "attn.tp_reduce").comm_s == Approx(1.551308e-4).epsilon(1e-6));  // comm_s as given
  CHECK(at(chunked, "attn.tp_reduce").visible_s == Approx(6.890511e-5).epsilon(1e-6));
  CHECK(at(chunked, "ffn.reduce").comm_s == Approx(1.551308e-4).epsilon(1e-6));
  CHECK(at(chunked, "ffn.reduce").visible_s == Approx(4.328270e-5).epsilon(1e-6));
  CHECK(at(chunked, "attn.tp_reduce").bound == Bound::comm);
  // Nothing else moves: the GEMMs keep their time (peak rates do not depend on M).
  REQUIRE(none.stages.size == chunked.stages.size);
  for (std::size_t i = 0; i < static_cast<std::size_t>(none.stages.size); ++i) {
    INFO(none.stages.items[i].name);
    if (!is_tp_reduce(none.stages.items[i]))
      CHECK(chunked.stages.items[i].visible_s == none.stages.items[i].visible_s);
  }
  CHECK(none.totals.latency_s - chunked.totals.latency_s == Approx(6.338370e-3).epsilon(1e-5));
}

// The threshold: 1024 tokens in 4 chunks are 256 rows < 295.2 (nothing hidden); 2048 tokens are
// 512 rows. At 2048: M = 16,777,216 B, r = M/4/450e9 + 6e-6 = 1.532070e-5 s, attn.out
// 2·2048·2048·4096 FLOP -> 3.474190e-5 s, g = 8.685475e-6 s: exposed 4r − 3g = 3.522628e-5 s
// of the unchunked M/450e9 + 6e-6 = 4.328270e-5 s.
TEST_CASE("tp_overlap: below the token threshold nothing is chunked", "[physics][tp_overlap]") {
  const ModelSpec m = llama31_8b();
  const MachineSpec mc = dgx_h100();
  const Evaluation small = run(m, mc, prefill(1024), tp_cfg(2), TpOverlap::chunked);
  const Evaluation small_none = run(m, mc, prefill(1024), tp_cfg(2), TpOverlap::none);
  CHECK(small.totals.latency_s == small_none.totals.latency_s);
  const Evaluation big = run(m, mc, prefill(2048), tp_cfg(2), TpOverlap::chunked);
  CHECK(at(big, "attn.tp_reduce").comm_s == Approx(4.328270e-5).epsilon(1e-6));
  CHECK(at(big, "attn.tp_reduce").visible_s == Approx(3.522628e-5).epsilon(1e-6));
}

TEST_CASE("tp_overlap: decode hides nothing - one to 256 tokens are below the threshold",
          "[physics][tp_overlap]") {
  const MachineSpec mc = dgx_h100();
  for (const ModelSpec& m : {llama31_70b(), llama31_8b(), mixtral_8x7b()}) {
    for (std::int64_t batch : {1, 16, 256}) {
      const Evaluation a = run(m, mc, decode(4096, batch), tp_cfg(8), TpOverlap::none);
      const Evaluation b = run(m, mc, decode(4096, batch), tp_cfg(8), TpOverlap::chunked);
      INFO(m.name << " batch " << batch);
      REQUIRE(a.stages.size == b.stages.size);
      for (std::size_t i = 0; i < static_cast<std::size_t>(a.stages.size); ++i)
        CHECK(a.stages.items[i].visible_s == b.stages.items[i].visible_s);
      CHECK(a.totals.latency_s == b.totals.latency_s);
    }
  }
}

TEST_CASE("tp_overlap: roofline never overlaps - the all-reduce stays whole", "[physics][tp_overlap]") {
  const Evaluation e = evaluate(llama31_8b(), dgx_h100(), prefill(8192), tp_cfg(2), Latency::roofline);
  CHECK(at(e, "attn.tp_reduce").visible_s == Approx(1.551308e-4).epsilon(1e-6));
  CHECK(at(e, "ffn.reduce").visible_s == at(e, "ffn.reduce").comm_s);
}

// Properties: chunked is never slower than none, stage by stage, and comm_s is untouched.
TEST_CASE("tp_overlap: more overlap never slower over models modes and groups", "[physics][tp_overlap]") {
  const MachineSpec mc = dgx_h100();
  int hidden = 0;
  for (const ModelSpec& m : {llama31_70b(), llama31_8b(), mixtral_8x7b()}) {
    for (int tp : {2, 4, 8, 16}) {
      for (int cp : {1, 2}) {
        for (const Workload& wl :
             {prefill(512), prefill(4096), prefill(32768, 1, 8192), prefill(8192, 4), decode(8192, 64)}) {
          const Evaluation a = run(m, mc, wl, tp_cfg(tp, cp), TpOverlap::none);
          if (!a.valid) continue;
          for (int n : {2, 4, 8}) {
            const Evaluation b = run(m, mc, wl, tp_cfg(tp, cp), TpOverlap::chunked, n);
            INFO(m.name << " tp " << tp << " cp " << cp << " context " << wl.context << " n " << n);
            REQUIRE(a.stages.size == b.stages.size);
            for (std::size_t i = 0; i < static_cast<std::size_t>(a.stages.size); ++i) {
              CHECK(b.stages.items[i].comm_s == a.stages.items[i].comm_s);
              CHECK(b.stages.items[i].visible_s <= a.stages.items[i].visible_s);
              if (b.stages.items[i].visible_s < a.stages.items[i].visible_s) {
                ++hidden;
                CHECK(is_tp_reduce(b.stages.items[i]));
                CHECK(b.stages.items[i].visible_s >=
                      b.stages.items[i].comm_s / 8 / 2);  // the last chunk shows
              }
            }
            CHECK(b.totals.latency_s <= a.totals.latency_s);
          }
        }
      }
    }
  }
  CHECK(hidden > 0);  // the grid does exercise the overlap
}

// The pipeline formula itself: limits and monotonicity in the GEMM time.
//   n = 4, r = 1: no GEMM -> all n·r = 4 exposed; a long GEMM -> only the last chunk's r = 1;
//   g = t/4 = 0.5 -> 4 − 1.5 = 2.5; per-chunk cost 0.1 adds 0.4; a slower chunked GEMM adds Δg.
TEST_CASE("tp_overlap: chunked_exposed_s limits and monotonicity", "[physics][tp_overlap]") {
  CHECK(chunked_exposed_s(0, 0, 1.0, 4, 0) == Approx(4.0));
  CHECK(chunked_exposed_s(100, 100, 1.0, 4, 0) == Approx(1.0));
  CHECK(chunked_exposed_s(2, 2, 1.0, 4, 0) == Approx(2.5));
  CHECK(chunked_exposed_s(2, 2, 1.0, 4, 0.1) == Approx(2.9));
  CHECK(chunked_exposed_s(2, 2.4, 1.0, 4, 0) == Approx(0.4 + 4.0 - 3 * 0.6));
  double last = 1e300;
  for (double t = 0; t < 10; t += 0.25) {
    const double x = chunked_exposed_s(t, t, 1.0, 4, 0.05);
    CHECK(x <= last);
    CHECK(x >= 1.0);
    last = x;
  }
}
