// A valid configuration whose host physics gives a non-finite quantity is infeasible, with
// the quantity named (docs/limits.md "Non-finite results"); finite ones are untouched.
#include <catch2/catch.hpp>

#include <cmath>

#include "fixtures.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("non-finite: a zero bf16 peak makes the utilisation infinite -> infeasible",
          "[physics][non-finite]") {
  // Llama-3.1-8B (bf16) on a DGX-H100 whose GPU declares only an int8 peak: bf16 falls back
  // to fp16 and fp32, both absent, so the GEMM peak is 0 and compute_util = useful / 0 = inf.
  MachineSpec m = dgx_h100();
  set_peak(m, DType::bf16, 0);
  set_peak(m, DType::fp8, 0);
  set_peak(m, DType::int8, 1979e12);
  ParallelConfig c;
  c.tp = 8;
  const Evaluation e = evaluate(llama31_8b(), m, decode(4096), c);
  REQUIRE(e.valid);
  CHECK(e.memory.fits);
  CHECK(std::isinf(e.totals.compute_util));
  CHECK(e.non_finite == NonFinite::utilization);
  CHECK_FALSE(e.feasible);
  CHECK(std::string(non_finite_name(e.non_finite)) == "utilization");
}

TEST_CASE("non-finite: the shipped physics on a sane machine stays finite and feasible",
          "[physics][non-finite]") {
  ParallelConfig c;
  c.tp = 8;
  const Evaluation e = evaluate(llama31_70b(), dgx_h100(), decode(4096), c);
  REQUIRE(e.valid);
  CHECK(e.non_finite == NonFinite::none);
  CHECK(e.feasible);
  // Reused buffer: a later finite evaluation clears the mark of an earlier non-finite one.
  MachineSpec m = dgx_h100();
  set_peak(m, DType::bf16, 0);
  set_peak(m, DType::fp8, 0);
  set_peak(m, DType::int8, 1979e12);
  const ModelSpec model = llama31_70b();
  const MachineSpec sane = dgx_h100();
  const EvalContext bad_ctx = make_eval_context(model, m);  // holds pointers to both
  const EvalContext good_ctx = make_eval_context(model, sane);
  const auto lat = std::make_shared<tessera::plugins::OverlapLatency>();
  const auto mem = std::make_shared<tessera::plugins::StandardMemory>(0.0);
  const Evaluator bad(bad_ctx, decode(4096), lat, mem, {});
  const Evaluator good(good_ctx, decode(4096), lat, mem, {});
  Evaluation buf;
  bad.evaluate(c, buf);
  CHECK(buf.non_finite != NonFinite::none);
  good.evaluate(c, buf);
  CHECK(buf.non_finite == NonFinite::none);
  CHECK(buf.feasible);
}

TEST_CASE("non-finite: an MoE model with expert_ffn 0 built in code does not crash",
          "[physics][non-finite]") {
  // The loaders refuse expert_ffn 0 (a YAML key, an HF moe_intermediate_size); a spec built
  // in code reaches the physics, which must neither trap nor rank a non-finite result.
  ModelSpec model = mixtral_8x7b();
  model.moe.expert_ffn = 0;
  model.moe.shared_experts = 1;
  ParallelConfig c;
  c.tp = 2;
  c.ep = 2;
  const Evaluation e = evaluate(model, dgx_h100(), decode(4096), c);
  REQUIRE(e.valid);
  if (e.non_finite == NonFinite::none) {
    CHECK(std::isfinite(e.totals.latency_s));
  } else {
    CHECK_FALSE(e.feasible);
  }
}
