// Speculative decoding through the latency model (docs/physics.md §12.8): the verify step of q new
// tokens per sequence is priced as decode attention over the cache (q = 1 is the decode step; the
// KV is read once, so q tokens cost less than q decode steps and less than a prefill chunk of q);
// the drafter's step is one layer and the lm_head; the steady state's gain at batch 1 is the
// closed form E t_decode / (k t_draft + t_verify); and the published DeepSeek MTP speed-ups.
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "analysis/serving/serve_study.hpp"
#include "eval/host_step_timer.hpp"
#include "eval/serving_evaluator.hpp"
#include "scenario/serving_stacks/stack_restriction.hpp"
#include "scenario/sweeps/hardware_points.hpp"
#include "scenario/sweeps/sweep_size.hpp"
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

// Configuration `c` at `batch` (token budget 8K), with the scenario's k and acceptance as the serve
// study's points carry them; runnable.
ServingEvaluation evaluated_at(const Scenario& sc, const ParallelConfig& c, std::int64_t batch) {
  const Session session(sc, registry());
  const ServingEvaluator ev(session, sc.serving.slo);
  ServingEvaluation e;
  Sweep one;
  one.serving_batch = {batch};
  one.serving_token_budget = {8192};
  ev.evaluate(c, serving_points(one, sc.serving.speculative).front(), e);
  REQUIRE(e.runnable);
  return e;
}

// TPOT of configuration `c` at `batch`.
double tpot_at_batch1(const Scenario& sc, const ParallelConfig& c, std::int64_t batch = 1) {
  return evaluated_at(sc, c, batch).metrics.tpot_s;
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

TEST_CASE("speculative: published EAGLE-3 speed-ups from batch 1 to 128 within 20 %") {
  // SpecDecode-Bench (arXiv 2601.11580; specdecode-bench.github.io @fb0e242 Fig. 1 a-d, read from
  // the figure's vector coordinates, +-0.01): Llama-3.1-8B-Instruct, EAGLE-3 head
  // yuhuili/EAGLE3-LLaMA3.1-Instruct-8B, k = 3, vLLM v0.10.1 on one H100 80GB, greedy; a batch is
  // one prompt copied B times (a static batch); speed-up = output tokens/s with over without. The
  // acceptance by position is the authors' released per-token acceptance (SpecDecode-Bench/simulator
  // @2fdccbd data/llama3.1-8B, replayed with k = 3, as its main.py does for eagle3); ISL and OSL
  // are the datasets' mean prompt and output lengths there. Nothing was fitted to these rows.
  struct Row {
    const char* dataset;
    int isl, osl;
    const char* acceptance;
    double published[4];  // batch 1, 16, 64, 128
  };
  const Row rows[] = {
      {"ShareGPT", 355, 728, "[0.622, 0.613, 0.660]", {1.71, 1.68, 1.55, 1.30}},
      {"GSM8K", 94, 166, "[0.675, 0.647, 0.640]", {1.75, 1.70, 1.49, 1.22}},
      {"CNN/DailyMail", 838, 323, "[0.648, 0.637, 0.651]", {1.69, 1.58, 1.40, 1.23}},
      {"InstructCoder", 171, 262, "[0.630, 0.667, 0.710]", {2.02, 1.92, 1.57, 1.31}},
  };
  const std::int64_t batches[] = {1, 16, 64, 128};
  const ParallelConfig one_gpu;
  for (const Row& r : rows) {
    const std::string body =
        "model: ../models/llama3.1-8b.yaml\nmachine: ../machines/dgx-h100.yaml\nframework: vllm@0.11.2\n"
        "plugins: {serving: static}\nworkload: {mode: serve, input: " +
        std::to_string(r.isl) + ", output: " + std::to_string(r.osl) + "}\n";
    const Scenario plain = spec_serve_scenario(body, "");
    const Scenario eagle =
        spec_serve_scenario(body, std::string("{method: eagle, steps: 3, acceptance_by_position: ") +
                                      r.acceptance + ", head: yuhuili/EAGLE3-LLaMA3.1-Instruct-8B}");
    double previous = 1e9;
    for (std::size_t i = 0; i < 4; ++i) {
      const double s = evaluated_at(eagle, one_gpu, batches[i]).tokens_per_s /
                       evaluated_at(plain, one_gpu, batches[i]).tokens_per_s;
      INFO(r.dataset << " batch " << batches[i] << ": " << s << "x (published " << r.published[i] << "x)");
      CHECK(s == Approx(r.published[i]).epsilon(0.20));
      // The gain shrinks with the batch, out of the step times (the verify step's B(k + 1) tokens).
      CHECK(s < previous);
      previous = s;
    }
  }
}

TEST_CASE("speculative: a swept k = 0 is the engine without its drafter and each point states its k and E") {
  const std::string body =
      "model: ../models/llama3.1-8b.yaml\nmachine: ../machines/dgx-h100.yaml\nframework: vllm@0.11.2\n"
      "workload: {mode: serve, input: 1K, output: 256}\n"
      "sweep: {parallelism: {tp: [1], tp_placement: [gpu]}, serving: {batch: [1, 64], token_budget: [8K], "
      "speculative_steps: [0, 2], acceptance: [0.5, 0.8]}}\n";
  const Scenario swept = spec_serve_scenario(body, "{method: eagle, head: some/head}");
  std::vector<double> rates;
  const std::vector<ServingPoint> points = serving_points(swept.sweep, swept.serving.speculative, &rates);
  // batch major, then the budget, k, the acceptance (fastest); k = 0 once whatever the rates
  REQUIRE(points.size() == 6);
  CHECK(sweep_serving_points(swept.sweep) == 6);
  CHECK(points[0].speculative_tokens == 0);
  CHECK(points[0].tokens_per_verify == 1.0);
  CHECK(points[1].speculative_tokens == 2);
  CHECK(points[1].tokens_per_verify == Approx(1 + 0.5 + 0.25));
  CHECK(points[2].tokens_per_verify == Approx(1 + 0.8 + 0.64));
  CHECK(points[3].batch == 64);
  REQUIRE(rates.size() == 6);
  CHECK(rates[0] < 0);  // no drafts, no rate
  CHECK(rates[2] == 0.8);
  const ParallelConfig one_gpu;
  const Session with(swept, registry());
  const ServingEvaluator ev(with, swept.serving.slo);
  const std::string plain_body =
      "model: ../models/llama3.1-8b.yaml\nmachine: ../machines/dgx-h100.yaml\nframework: vllm@0.11.2\n"
      "workload: {mode: serve, input: 1K, output: 256}\n";
  const Scenario plain = spec_serve_scenario(plain_body, "");
  const Session without(plain, registry());
  const ServingEvaluator ev0(without, plain.serving.slo);
  for (std::size_t i : {std::size_t{3}}) {  // batch 64, k = 0
    ServingEvaluation a, b;
    ev.evaluate(one_gpu, points[i], a);
    ev0.evaluate(one_gpu, ServingPoint{.batch = 64, .token_budget = 8192}, b);
    REQUIRE(a.runnable);
    CHECK(a.metrics.tpot_s == b.metrics.tpot_s);
    CHECK(a.metrics.ttft_s == b.metrics.ttft_s);
    CHECK(a.metrics.max_batch == b.metrics.max_batch);
  }
  // k = 2: the engine holds the drafter, so its KV pool is smaller (the same rule and budget).
  Evaluation holder, scratch;
  with.evaluator().layout_for(one_gpu, holder);
  HostStepTimer t(with.evaluator(), one_gpu, holder.layout, scratch);
  t.set_max_sequences(64);
  t.set_token_budget(8192);
  const std::int64_t without_drafter = t.engine_capacity().tokens;
  t.set_draft_tokens(2);
  CHECK(t.engine_capacity().tokens < without_drafter);
}

TEST_CASE("speculative: explore's acceptance axis drafts as the scenario with that acceptance written") {
  const std::string body =
      "model: ../models/llama3.1-8b.yaml\nmachine: ../machines/dgx-h100.yaml\nframework: vllm@0.11.2\n"
      "workload: {mode: serve, input: 1K, output: 256}\n";
  const Scenario axis =
      spec_serve_scenario(body + "sweep: {hardware: {serving.speculative.acceptance: [0.6, 0.9]}}\n",
                          "{method: eagle, steps: 3, head: some/head}");
  REQUIRE(axis.sweep.hardware.size() == 1);
  const Session base(axis, registry());
  const HardwarePoint hp = hardware_point(axis.sweep, base.machine(), 1, base.machine_block_owner());
  CHECK(hp.speculative_acceptance == 0.9);
  CHECK(hp.speculative_steps == -1);
  const auto at = base.with_speculative(hp.speculative_steps, hp.speculative_acceptance);
  const Scenario written =
      spec_serve_scenario(body, "{method: eagle, steps: 3, acceptance: 0.9, head: some/head}");
  ParallelConfig one_gpu;
  // The point's own session (its evaluator and engine rule), as explore runs it.
  const ServingEvaluator ev(*at, at->scenario().serving.slo);
  Sweep one;
  one.serving_batch = {16};
  one.serving_token_budget = {8192};
  ServingEvaluation e;
  ev.evaluate(one_gpu, serving_points(one, at->scenario().serving.speculative).front(), e);
  REQUIRE(e.runnable);
  CHECK(e.metrics.tpot_s == tpot_at_batch1(written, one_gpu, 16));
  CHECK(at->scenario().serving.speculative.tokens_per_verify() == Approx(1 + 0.9 + 0.81 + 0.729));
}

TEST_CASE("speculative: a draft model drafts with its own decode step and holds its own weights and KV") {
  const std::string body =
      "model: ../models/llama3.1-70b.yaml\nmachine: ../machines/dgx-h100.yaml\nframework: vllm@0.19.0\n"
      "workload: {mode: serve, input: 1K, output: 512}\n";
  const Scenario sc = spec_serve_scenario(body,
                                          "{method: draft, model: llama3.2-1b, steps: 3, acceptance: 0.7, "
                                          "head: meta-llama/Llama-3.2-1B-Instruct}");
  REQUIRE(sc.serving.speculative.draft_model);
  CHECK(sc.serving.speculative.draft_model->name == "Llama-3.2-1B");
  ParallelConfig tp4;
  tp4.tp = 4;
  const Session session(sc, registry());
  const Evaluator& ev = session.evaluator();
  REQUIRE(session.draft_evaluator() != nullptr);
  const Evaluator& draft = *session.draft_evaluator();
  // The draft step is the draft model's own decode step (its work, without the iteration's host
  // costs), far below the target's.
  Evaluation holder, scratch, draft_scratch;
  ev.layout_for(tp4, holder);
  HostStepTimer t(ev, tp4, holder.layout, scratch);
  const ParallelConfig dc = Evaluator::draft_model_config(tp4, *draft.context().model);
  draft.layout_for(dc, draft_scratch);
  REQUIRE(draft_scratch.layout.valid);
  t.set_draft_model(draft, dc, draft_scratch);
  const double context = 1024 + 512.0 / 2;
  const double d1 = t.draft_step(1, context), d64 = t.draft_step(64, context);
  CHECK(d1 > 0);
  CHECK(d1 < 0.25 * t.decode_step(1, context));
  CHECK(d64 >= d1);
  Evaluation whole;
  draft.layout_for(dc, whole);
  Workload w = draft.workload();
  w.mode = Mode::decode;
  w.batch = 1;
  w.context = std::llround(context);
  w.chunk = 0;
  draft.time_workload(w, dc, whole);
  CHECK(d1 <= whole.totals.latency_s);
  // At batch 1 the steady state is the closed form from these step times.
  const double iteration = 3 * d1 + t.verify_step(1, context, 4);
  const double E = 1 + 0.7 + 0.49 + 0.343;
  CHECK(tpot_at_batch1(sc, tp4) == Approx(iteration / E).epsilon(1e-12));
  // The engine loads the draft model: its weights and KV shrink the pool, more than an EAGLE head's
  // one layer would.
  t.set_max_sequences(64);
  t.set_token_budget(8192);
  const std::int64_t with_draft = t.engine_capacity().tokens;
  t.set_draft_tokens(3);
  const std::int64_t loaded = t.engine_capacity().tokens;
  CHECK(loaded < with_draft);
  const Scenario eagle =
      spec_serve_scenario(body, "{method: eagle, steps: 3, acceptance: 0.7, head: some/head}");
  const Session es(eagle, registry());
  HostStepTimer te(es.evaluator(), tp4, holder.layout, scratch);
  te.set_max_sequences(64);
  te.set_token_budget(8192);
  te.set_draft_tokens(3);
  CHECK(loaded < te.engine_capacity().tokens);
}

TEST_CASE(
    "speculative: a draft model that does not shard at the configuration is unsupported with the reason") {
  // A draft of 12 query heads (3 KV heads) cannot be split 8 ways; the 70B target (64, 8) can.
  const std::string body =
      "model: ../models/llama3.1-70b.yaml\nmachine: ../machines/dgx-h100.yaml\n"
      "workload: {mode: serve, input: 1K, output: 512}\n";
  const Scenario sc = spec_serve_scenario(
      body,
      "{method: draft, model: {name: odd-draft, layers: 4, hidden: 1536, heads: 12, kv_heads: 3, ffn: 4096, "
      "ffn_kind: gated, vocab: 128256, dtype: {weights: bf16, kv: bf16, activations: bf16}}, steps: 3, "
      "acceptance: 0.7, head: some/draft}");
  const Session session(sc, registry());
  const ServingEvaluator ev(session, sc.serving.slo);
  ParallelConfig c;
  c.tp = 8;
  Sweep one;
  one.serving_batch = {4};
  one.serving_token_budget = {8192};
  ServingEvaluation e;
  ev.evaluate(c, serving_points(one, sc.serving.speculative).front(), e);
  INFO(serving_reason(session, e));
  CHECK(e.verdict == ServingVerdict::unsupported);
  CHECK(serving_reason(session, e).find("draft model") != std::string::npos);
}

namespace {

struct TwoPoints {
  ServingEvaluation k0, k3;
  std::string k3_reason;  // serving_reason of the drafting point
};

// Configuration `c` at the scenario's two serving points (its sweep's k = 0 and k = 3).
TwoPoints k0_and_k3(const Scenario& sc, const ParallelConfig& c) {
  const Session session(sc, registry());
  const ServingEvaluator ev(session, sc.serving.slo);
  const std::vector<ServingPoint> points = serving_points(sc.sweep, sc.serving.speculative);
  REQUIRE(points.size() == 2);
  TwoPoints out;
  ev.evaluate(c, points[0], out.k0);
  ev.evaluate(c, points[1], out.k3);
  out.k3_reason = serving_reason(session, out.k3);
  return out;
}

}  // namespace

TEST_CASE(
    "speculative: a draft model's memory counts without a framework and SGLang refuses it beside attention "
    "DP") {
  // Without a framework's KV rule the memory model's budget holds the draft model too: a 70B draft
  // beside an 8B target on one H100 cannot fit, whatever the plain engine would.
  const std::string body =
      "model: ../models/llama3.1-8b.yaml\nmachine: ../machines/dgx-h100.yaml\n"
      "workload: {mode: serve, input: 1K, output: 256}\n"
      "sweep: {serving: {batch: [4], token_budget: [8K], speculative_steps: [0, 3]}}\n";
  const Scenario sc =
      spec_serve_scenario(body, "{method: draft, model: llama3.1-70b, acceptance: 0.7, head: x/draft}");
  const auto [plain, drafted, reason] = k0_and_k3(sc, ParallelConfig{});
  CHECK(plain.runnable);
  CHECK(drafted.verdict == ServingVerdict::kv_overflow);
  CHECK(drafted.step.memory.weights_bytes > plain.step.memory.weights_bytes + 100e9);
  // SGLang 0.5.9 raises "standalone speculative decoding does not support dp attention": the
  // drafting points of an attention-DP configuration are unsupported, its k = 0 point runs.
  const std::string moe =
      "model: ../models/qwen3-235b-a22b.yaml\nmachine: ../machines/dgx-h100.yaml\nframework: sglang@0.5.9\n"
      "dtype: {weights: fp8}\nworkload: {mode: serve, input: 1K, output: 256}\n"
      "sweep: {serving: {batch: [8], token_budget: [8K], speculative_steps: [0, 3]}}\n";
  const Scenario sg =
      spec_serve_scenario(moe, "{method: draft, model: qwen3-0.6b, acceptance: 0.7, head: Qwen/Qwen3-0.6B}");
  ParallelConfig adp;
  adp.dp = 8;
  adp.ep = 8;
  adp.ffn_shard_scope = FfnShardScope::tp_cp_dp;
  REQUIRE(attention_dp(adp));
  const auto [a0, a3, why] = k0_and_k3(sg, adp);
  INFO(why);
  CHECK(a0.verdict != ServingVerdict::unsupported);
  CHECK(a3.verdict == ServingVerdict::unsupported);
  CHECK(why.find("attention data parallelism") != std::string::npos);
}
