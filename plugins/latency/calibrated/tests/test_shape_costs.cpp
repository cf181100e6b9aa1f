// latency/calibrated: the machine family name, the decode-attention efficiency of (B·S·h_kv, GQA
// ratio, KV page) and the per-framework layer recipes — hand-computed values (docs/physics.md
// §7.5-§7.6).
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <string>

#include "analysis/accuracy/accuracy_study.hpp"
#include "calibrated.hpp"
#include "host/plugin_registry.hpp"
#include "search_fixture.hpp"

using namespace tessera;
using tessera::test::registry;

namespace {

std::string family_of(const char* stem) {
  const std::string file = std::string(TESSERA_SOURCE_DIR) + "/machines/" + stem + ".yaml";
  accuracy::RowPlan plan;
  plan.machine_file = file;
  plan.measure = accuracy::Measure::gemm;
  accuracy::DataRow row;
  const accuracy::PreparedRow prep = accuracy::prepare_row(row, plan);
  return plugins::family_name(registry().machine_params("calibrated", prep.efficiency_raw, file));
}

StageWork stage(const char* name, int kernels) {
  StageWork w;
  w.name = name;
  w.kernels = kernels;
  return w;
}

}  // namespace

TEST_CASE("calibrated: the machine family name of each shipped efficiency block", "[calibrated]") {
  CHECK(family_of("dgx-a100-40gb") == "A100");
  CHECK(family_of("dgx-a100-80gb") == "A100");
  CHECK(family_of("dgx-h100") == "H100/H200");
  CHECK(family_of("dgx-h200") == "H100/H200");
  CHECK(family_of("hgx-h800") == "H100/H200");  // the H100 SXM's die and HBM3
  CHECK(family_of("mi300x") == "");             // no block: uncalibrated
  CHECK(family_of("dgx-b200") == "");
}

TEST_CASE("calibrated: decode-attention factors - hand-computed", "[calibrated][attention]") {
  const double wave = 132.0 * 176.0;  // 23232 KV token-heads fill one wave
  CHECK(plugins::decode_attention_occupancy(wave / 2) == Approx(0.5));
  CHECK(plugins::decode_attention_occupancy(2048) == Approx(2048 / 23232.0));  // B 1, S 2048, 1 KV head
  CHECK(plugins::decode_attention_occupancy(wave) == Approx(1.0));
  CHECK(plugins::decode_attention_occupancy(10 * wave) == Approx(1.0));
  CHECK(plugins::decode_attention_occupancy(0) == Approx(1.0));  // no KV: nothing to penalise
  // vLLM's block of 16: 16 / 19.7 = 0.8122 (the 23 % of arXiv 2309.06180 §7.1); 64: 0.9453.
  CHECK(plugins::decode_attention_page_factor(16) == Approx(16 / 19.7));
  CHECK(plugins::decode_attention_page_factor(16) == Approx(1 / 1.23125));
  CHECK(plugins::decode_attention_page_factor(64) == Approx(64 / 67.7));
  CHECK(plugins::decode_attention_page_factor(0) == Approx(1.0));    // contiguous
  CHECK(plugins::decode_attention_mma_fill(1) == Approx(1 / 16.0));  // MHA
  CHECK(plugins::decode_attention_mma_fill(8) == Approx(0.5));       // Llama-2/3-70B: 64 / 8
  CHECK(plugins::decode_attention_mma_fill(128) == Approx(1.0));     // MLA: every head on one latent
  const plugins::DecodeAttentionEfficiency e = plugins::decode_attention_efficiency(wave / 4, 8, 16);
  CHECK(e.bandwidth == Approx(0.25 * 16 / 19.7));
  CHECK(e.compute == Approx(0.5));
}

TEST_CASE("calibrated: decode-attention efficiency never falls as B·S GQA or the page grow",
          "[calibrated][attention]") {
  const double ws[] = {0, 1, 64, 512, 2048, 8192, 23232, 65536, 1e6};
  const double gs[] = {1, 2, 4, 8, 16, 32, 128};
  const double ps[] = {1, 2, 8, 16, 32, 64, 256};
  for (double g : gs)
    for (double p : ps) {
      double prev = 0;
      for (double w : ws) {
        const double b = plugins::decode_attention_efficiency(w, g, p).bandwidth;
        INFO(w << " " << g << " " << p);
        CHECK(b >= prev);
        CHECK(b > 0);
        CHECK(b <= 1);
        if (w > 0) prev = b;
      }
    }
  for (double w : ws) {
    double prev_p = 0, prev_g = 0;
    for (double p : ps) {
      const double b = plugins::decode_attention_efficiency(w, 8, p).bandwidth;
      CHECK(b >= prev_p);
      prev_p = b;
    }
    for (double g : gs) {
      const double c = plugins::decode_attention_efficiency(w, g, 16).compute;
      CHECK(c >= prev_g);
      CHECK(c <= 1);
      prev_g = c;
    }
  }
}

TEST_CASE("calibrated: a decode attention stage streams KV at the shape's achievable rate",
          "[calibrated][attention]") {
  ModelSpec m;
  m.name = "k";
  m.layers = m.hidden = m.ffn = m.vocab = 1;
  m.heads = 8;
  m.kv_heads = 1;
  m.head_dim = 128;
  MachineSpec mach;
  mach.pe.flops[static_cast<std::size_t>(DType::bf16)] = 1e15;
  mach.pe.hbm_bandwidth = 4e12;
  const EvalContext ctx = make_eval_context(m, mach);                  // steps timed as decode (the default)
  REQUIRE(ctx.kv_elems_per_token_head * ctx.kv_bytes == Approx(512));  // K and V, 128 x bf16 each
  StepWork work;
  StageWork& s = work.push();
  s.name = "attn.core";
  s.count = 1;
  s.kernels = 2;
  s.attention_kernel = true;
  s.attn_queries = 1;
  s.hbm_bytes = 512.0 * 11616;  // half a wave of KV token-heads
  s.flops = 1;
  plugins::FamilyEfficiency fam;
  fam.hbm_efficiency = 0.8;
  plugins::ServingStackProfile prof;
  prof.kv_block_tokens = 16;
  StageList out;
  plugins::CalibratedLatency(prof).time_step_with(ctx, fam, work, out);
  // 5.947 MB at 4 TB/s x 0.8 x 0.5 (occupancy) x 16/19.7 (page) = 4.577 us.
  CHECK(out.items[0].memory_s == Approx(512.0 * 11616 / (4e12 * 0.8 * 0.5 * (16 / 19.7))));
  // The same bytes in prefill (8 queries per sequence) run at the full achievable rate.
  s.attn_queries = 8;
  plugins::CalibratedLatency(prof).time_step_with(ctx, fam, work, out, 1, 1, Mode::prefill);
  CHECK(out.items[0].memory_s == Approx(512.0 * 11616 / (4e12 * 0.8)));
  // A decode step of 8 queries per sequence (a speculative verify step, docs/physics.md §12.8)
  // streams the KV as decode attention does: the same occupancy and page factors.
  plugins::CalibratedLatency(prof).time_step_with(ctx, fam, work, out);
  CHECK(out.items[0].memory_s == Approx(512.0 * 11616 / (4e12 * 0.8 * 0.5 * (16 / 19.7))));
}

TEST_CASE("calibrated: layer recipes - kernels per stage of dense MoE and MLA layers",
          "[calibrated][recipe]") {
  const plugins::LayerRecipe* v = plugins::vllm_layer_recipe();
  const plugins::LayerRecipe* t = plugins::tensorrt_llm_layer_recipe();
  const char* dense[] = {"attn.qkv", "attn.core", "attn.out", "ffn.up", "ffn.down"};
  const char* moe[] = {"moe.router", "moe.experts", "moe.shared"};
  auto sum = [](const plugins::LayerRecipe* r, const char* const* names, int n, bool mla) {
    int k = 0;
    for (int i = 0; i < n; ++i) k += plugins::recipe_kernels(r, stage(names[i], 1), mla);
    return k;
  };
  CHECK(sum(v, dense, 5, false) == 10);  // 3 + 2 + 1 + 3 + 1
  CHECK(sum(t, dense, 5, false) == 9);   // 2 + 2 + 1 + 3 + 1
  CHECK(plugins::recipe_kernels(v, stage("moe.experts", 3), false) == 5);
  CHECK(plugins::recipe_kernels(t, stage("moe.experts", 3), false) == 5);
  // A DeepSeek-style MLA + MoE layer under vLLM: 7 + 3 + 2 attention, 3 + 5 + 3 MoE = 23.
  CHECK(sum(v, dense, 3, true) + sum(v, moe, 3, true) == 23);
  CHECK(sum(t, dense, 3, true) + sum(t, moe, 3, true) == 21);
  // No recipe, or a stage the recipe does not name: the work model's count.
  CHECK(plugins::recipe_kernels(nullptr, stage("attn.qkv", 3), false) == 3);
  CHECK(plugins::recipe_kernels(v, stage("lm_head", 2), false) == 2);
  CHECK(plugins::recipe_kernels(v, stage("attn.cp", 7), false) == 7);
  // The shipped profiles carry them: vLLM/SGLang/modern-stack vLLM's, TensorRT-LLM/NIM its own,
  // the 2023 stacks none.
  CHECK(plugins::select_serving_stack_profile("vllm", "0.8.5").profile->recipe == v);
  CHECK(plugins::select_serving_stack_profile("vllm", "0.8.5").profile->kv_block_tokens == 16);
  CHECK(plugins::select_serving_stack_profile("sglang", "").profile->recipe == v);
  CHECK(plugins::select_serving_stack_profile("modern-stack", "").profile->recipe == v);
  CHECK(plugins::select_serving_stack_profile("tensorrt-llm", "0.7").profile->recipe == t);
  CHECK(plugins::select_serving_stack_profile("nim", "").profile->recipe == t);
  CHECK(plugins::select_serving_stack_profile("fastertransformer", "").profile->recipe == nullptr);
  CHECK(plugins::select_serving_stack_profile("generic", "").profile->recipe == nullptr);
}
