// Speculative decoding through the latency model (docs/physics.md §12.8): the verify step of q new
// tokens per sequence is priced as decode attention over the cache (q = 1 is the decode step; the
// KV is read once, so q tokens cost less than q decode steps and less than a prefill chunk of q);
// the drafter's step is one layer and the lm_head; the steady state's gain at batch 1 is the
// closed form E t_decode / (k t_draft + t_verify); and the published DeepSeek MTP speed-ups.
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "eval/host_step_timer.hpp"
#include "eval/serving_evaluator.hpp"
#include "serve_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

// A serve scenario on one configuration and one serving point, speculation as `speculative`.
Scenario spec_serve_scenario(const std::string& body, const std::string& speculative) {
  const std::string text = "schema_version: 1\nkind: scenario\nname: spec-serve\n" + body +
                           (speculative.empty() ? "" : "serving:\n  speculative: " + speculative + "\n");
  return load_scenario_text(text, "<spec-serve>", std::string(TESSERA_SOURCE_DIR) + "/scenarios",
                            LoadOptions{});
}

// TPOT of configuration `c` at `batch` (token budget 8K).
double tpot_at_batch1(const Scenario& sc, const ParallelConfig& c, std::int64_t batch = 1) {
  const Session session(sc, registry());
  const ServingEvaluator ev(session, sc.serving.slo);
  ServingEvaluation e;
  ev.evaluate(c, ServingPoint{.batch = batch, .token_budget = 8192}, e);
  REQUIRE(e.runnable);
  return e.metrics.tpot_s;
}

constexpr double kSpecTol = 1e-9;

}  // namespace

TEST_CASE("speculative: a verify step of q tokens is the decode step at q 1 and priced as decode attention") {
  long checked = 0;
  for_each_one_pe_timer([&](HostStepTimer& t, const std::string& latency, const std::string& where) {
    INFO(where);
    for (const std::int64_t batch : {1, 8})
      for (const double context : {512.0, 4096.0}) {
        const double decode = t.decode_step(batch, context);
        CHECK(t.verify_step(batch, context, 1) == Approx(decode).epsilon(kSpecTol));
        double prev = decode;
        for (const std::int64_t q : {2, 3, 5, 8}) {
          const double v = t.verify_step(batch, context, q);
          INFO("batch " << batch << ", context " << context << ", q " << q << ": " << v
                        << " s against decode " << decode << " s");
          // More tokens never cost less (measured tables decode attention at q = 1 only: its
          // verify steps straddle the table's seam, as its prefill chunks do).
          if (latency != "measured") CHECK(v >= prev * (1 - kSpecTol));
          CHECK(v < static_cast<double>(q) * decode);  // the weights and the KV read once, not q times
          prev = v;
          ++checked;
        }
        // One layer and the lm_head: less than the whole model's step.
        t.set_draft_head(3, false);
        CHECK(t.draft_step(batch, context) < decode);
      }
    // Not a prefill chunk: q tokens after S cached read the cache as decode does. calibrated
    // prices a chunk's attention at its prefill efficiency and a scheduler iteration on it: the
    // verify step is cheaper; the roofline models price both alike, but for the verify step's
    // q rows of logits (at most 0.1 %). measured's chunks straddle its table seam.
    for (const std::int64_t q : {2, 4}) {
      const double v = t.verify_step(1, 4096, q), chunk = t.prefill_chunk(q, 4096, true);
      if (latency == "calibrated") CHECK(v < chunk);
      if (latency != "measured") CHECK(v <= chunk * 1.001);
    }
  });
  CHECK(checked > 1000);
}

TEST_CASE("speculative: tokens per verify step by the geometric model and by position") {
  SpeculativeSpec s;
  s.given = true;
  s.steps = 3;
  s.acceptance = 0;
  CHECK(s.tokens_per_verify() == 1.0);
  s.acceptance = 1;
  CHECK(s.tokens_per_verify() == 4.0);
  s.acceptance = 0.5;
  CHECK(s.tokens_per_verify() == Approx((1 - 0.0625) / 0.5));  // (1 - a^(k+1)) / (1 - a)
  s.acceptance = -1;
  s.acceptance_by_position = {0.92, 0.717, 0.364};  // TensorRT-LLM's depth 1..3 acceptance lengths
  CHECK(s.tokens_per_verify() == Approx(1 + 0.92 + 0.92 * 0.717 + 0.92 * 0.717 * 0.364));
}

namespace {

const std::string kDeepSeekH200 =
    "model: ../models/deepseek-v3.yaml\nmachine: ../machines/dgx-h200.yaml\nframework: sglang@0.5.9\n"
    "dtype: {weights: fp8, kv: bf16, activations: bf16}\nworkload: {mode: serve, input: 1K, output: 1K}\n";

}  // namespace

TEST_CASE(
    "speculative: at batch 1 the gain is E t_decode / (k t_draft + t_verify) and acceptance 0 is slower") {
  ParallelConfig c;
  c.tp = 8;
  const double plain = tpot_at_batch1(spec_serve_scenario(kDeepSeekH200, ""), c);
  const Scenario with = spec_serve_scenario(kDeepSeekH200, "{method: mtp, steps: 2, acceptance: 0.8}");
  const double spec = tpot_at_batch1(with, c);
  // The closed form from the host's own step times at the steady state's mean context.
  const Session session(with, registry());
  const Evaluator& ev = session.evaluator();
  Evaluation holder, scratch;
  ev.layout_for(c, holder);
  HostStepTimer t(ev, c, holder.layout, scratch);
  t.set_draft_head(2, true);
  const double context = 1024 + 1024.0 / 2;
  const double iteration = 2 * t.draft_step(1, context) + t.verify_step(1, context, 3);
  const double E = 1 + 0.8 + 0.64;
  CHECK(spec == Approx(iteration / E).epsilon(1e-12));
  CHECK(plain / spec == Approx(E * t.decode_iteration(1, context) / iteration).epsilon(1e-12));
  CHECK(plain / spec > 1.2);
  // Nothing accepted: the drafts and the wider verify are paid for one token.
  const double none =
      tpot_at_batch1(spec_serve_scenario(kDeepSeekH200, "{method: mtp, steps: 2, acceptance: 0}"), c);
  CHECK(none > plain);
}

TEST_CASE("speculative: published DeepSeek MTP speed-ups within 20 %") {
  // SGLang's DeepSeek guide (docs/basic_usage/deepseek.md @0a9fc02): 1.8x at batch 1 on H200 TP8
  // with one draft token (steps 1, topk 1); SGLang PR #3582: acceptance length ~1.9 (so a = 0.9).
  ParallelConfig tp8;
  tp8.tp = 8;
  {
    const double plain = tpot_at_batch1(spec_serve_scenario(kDeepSeekH200, ""), tp8);
    const double spec =
        tpot_at_batch1(spec_serve_scenario(kDeepSeekH200, "{method: mtp, steps: 1, acceptance: 0.9}"), tp8);
    INFO("SGLang H200 TP8 MTP k=1: " << plain / spec << "x (published 1.8x)");
    CHECK(plain / spec == Approx(1.8).epsilon(0.20));
    // The same guide: 1.5x at batch 32 (the gain falls as the verify step's 2 x 32 tokens grow).
    const double plain32 = tpot_at_batch1(spec_serve_scenario(kDeepSeekH200, ""), tp8, 32);
    const double spec32 = tpot_at_batch1(
        spec_serve_scenario(kDeepSeekH200, "{method: mtp, steps: 1, acceptance: 0.9}"), tp8, 32);
    INFO("batch 32: " << plain32 / spec32 << "x (published 1.5x)");
    CHECK(plain32 / spec32 == Approx(1.5).epsilon(0.20));
    CHECK(plain32 / spec32 < plain / spec);
  }
  // TensorRT-LLM tech blog 1 (docs/source/blogs/tech_blog/blog1_Pushing_Latency_Boundaries_...
  // DeepSeek-R1 on 8x B200, FP4 experts, 1K/2K): MTP depth 1 1.78x at acceptance length 1.92;
  // depth 3 2.28x at 2.82 (per position 0.92, 0.717, 0.364 from the depths' lengths).
  const std::string b200 =
      "model: ../models/deepseek-v3.yaml\nmachine: ../machines/dgx-b200.yaml\nframework: tensorrt-llm@1.1\n"
      "dtype: {weights: fp8, expert_weights: nvfp4, kv: fp8, activations: bf16}\nworkload: {mode: serve, "
      "input: 1K, output: 2K}\n";
  {
    const double plain = tpot_at_batch1(spec_serve_scenario(b200, ""), tp8);
    const double d1 =
        tpot_at_batch1(spec_serve_scenario(b200, "{method: mtp, steps: 1, acceptance: 0.92}"), tp8);
    const double d3 = tpot_at_batch1(
        spec_serve_scenario(b200, "{method: mtp, steps: 3, acceptance_by_position: [0.92, 0.717, 0.364]}"),
        tp8);
    INFO("TensorRT-LLM B200 MTP depth 1: " << plain / d1 << "x (published 1.78x), depth 3: " << plain / d3
                                           << "x (published 2.28x)");
    CHECK(plain / d1 == Approx(1.78).epsilon(0.20));
    CHECK(plain / d3 == Approx(2.28).epsilon(0.20));
  }
}
