// `validate-data`'s full-load rows (analysis/accuracy/serving_rows.hpp predict_full_load_row,
// docs/accuracy.md "Full-load rows"): a throughput measured at full load with no batch stated is predicted as
// `serve
// --max-throughput` answers it: the best over the batches the row's engine admits.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include "tessera_build_paths.hpp"

#include "analysis/accuracy/accuracy_study.hpp"
#include "analysis/accuracy/row_evaluation.hpp"
#include "analysis/accuracy/serving_rows.hpp"
#include "eval/engine_kv.hpp"
#include "eval/host_step_timer.hpp"
#include "host/plugin_registry.hpp"
#include "output_test_util.hpp"
#include "registry_fixture.hpp"
#include "row_fixture.hpp"
#include "scenario/serving_stacks/stack_profile.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_full_load_rows {

using namespace tessera;
using tessera::test::registry;
using tessera::test::shipped_aliases;
using namespace tessera::accuracy;

namespace {

const std::string kRoot = TESSERA_SOURCE_DIR;

// vLLM 0.19.0 serving Llama-3.1-8B bf16 on one H100 at full load, 1024 in / 256 out.
DataRow full_load_row() {
  DataRow r = test::synthetic_decode_row("throughput_out", "5000", "tok/s");
  r.software = "vLLM 0.19.0";
  r.batch = "";
  r.notes = "output throughput under maximum load (clients send with no delay)";
  return r;
}

}  // namespace

TEST_CASE("full-load rows: which rows and the engine of their framework", "[validate-data][full-load]") {
  const RowPlan p = plan_row(full_load_row(), shipped_aliases(), kRoot);
  REQUIRE(p.mapped);
  CHECK(p.measure == Measure::full_load);
  CHECK(p.group == kGroupFullLoad);
  CHECK(p.input == 1024);
  CHECK(p.output == 256);
  CHECK(p.engine_label == "vllm@0.19.0");
  CHECK(p.engine_kv.rule == KvRule::vllm);
  // The nearest listed version: 0.4.3 -> 0.11.2 (0.x nearest in its minor), a version of no
  // listed framework -> no rule (the memory model's budget decides).
  DataRow old = full_load_row();
  old.software = "vLLM 0.4.3+rocm614";
  CHECK(plan_row(old, shipped_aliases(), kRoot).engine_label == "vllm@0.11.2");
  DataRow nim = full_load_row();
  nim.software = "NVIDIA NIM 1.2";
  const RowPlan pn = plan_row(nim, shipped_aliases(), kRoot);
  REQUIRE(pn.mapped);
  CHECK(pn.engine_label.empty());
  CHECK_FALSE(pn.engine_kv.active());
  // Without the notes' full load a row with no batch stays unmapped; full load needs ISL and OSL.
  DataRow plain = full_load_row();
  plain.notes = "";
  CHECK(plan_row(plain, shipped_aliases(), kRoot).reason == "batch not stated");
  DataRow no_isl = full_load_row();
  no_isl.input_len = "";
  const RowPlan pi = plan_row(no_isl, shipped_aliases(), kRoot);
  CHECK_FALSE(pi.mapped);
  CHECK(pi.reason.find("ISL and OSL must be stated") != std::string::npos);
  // A latency at full load is not a throughput: it stays unmapped.
  DataRow ttft = full_load_row();
  ttft.metric = "ttft";
  ttft.unit = "ms";
  CHECK_FALSE(plan_row(ttft, shipped_aliases(), kRoot).mapped);
}

TEST_CASE("full-load rows: nearest listed framework version", "[validate-data][full-load]") {
  const ServingStackCatalog cat = load_serving_stack_catalog(default_serving_stacks_path(kRoot));
  const ServingStackProfile* vllm = nullptr;
  const ServingStackProfile* trt = nullptr;
  for (const ServingStackProfile& f : cat.frameworks) {
    if (f.name == "vllm") vllm = &f;
    if (f.name == "tensorrt-llm") trt = &f;
  }
  REQUIRE(vllm);
  REQUIRE(trt);
  CHECK(nearest_version(*vllm, "").version == "0.19.0");  // none stated: the newest
  CHECK(nearest_version(*vllm, "main").version == "0.19.0");
  CHECK(nearest_version(*vllm, "0.12.0").version == "0.12.0");
  CHECK(nearest_version(*vllm, "0.12").version == "0.12.0");
  CHECK(nearest_version(*vllm, "0.17.1").version == "0.19.0");
  CHECK(nearest_version(*vllm, "0.4.3+rocm614").version == "0.11.2");
  CHECK(nearest_version(*trt, "1.0.0rc4").version == "1.0");
  CHECK(nearest_version(*trt, "0.20.0").version == "1.0");  // none below: the first above
  CHECK(nearest_version(*trt, "10.2").version == "1.1");    // none above: the last below
  CHECK(nearest_version(*trt, "1.2.1").version == "1.1");
}

TEST_CASE("full-load rows: the best over the batches the engine admits", "[validate-data][full-load]") {
  // vLLM 0.19.0 at its defaults: max_num_seqs 1024 caps the batch and sizes the sampler's term.
  {
    const test::RowPlugins m =
        test::row_plugins("aggregated", {{"framework", "vllm"}, {"framework_version", "0.19.0"}});
    const DataRow r = full_load_row();
    const RowPlan p = plan_row(r, shipped_aliases(), kRoot);
    REQUIRE(p.mapped);
    CHECK(p.engine_max_batch == 1024);
    const PreparedRow prep = prepare_row(r, p);
    const ParamSet eff = registry().machine_params("calibrated", prep.efficiency_raw, p.machine_file);
    const FullLoadAnswer a = predict_full_load_row(prep, m.latency, eff, m.memory, *m.serving);
    CHECK(a.engine == "vllm@0.19.0");
    REQUIRE(a.batch > 0);
    CHECK(a.batch <= 1024);
    // The pool is the one the default engine allocates: sized at 1024 sampled sequences.
    const RowEvaluation re(prep, m.latency, eff, m.memory);
    const EngineKvCapacity pool =
        engine_kv_capacity(re.evaluator(), p.engine_kv, p.config, re.layout(), 8192, 1024);
    CHECK(pool.sampled_sequences == 1024);
    CHECK(a.kv_tokens == pool.tokens);
    CHECK(engine_worst_tokens(a.batch, 1024, 256, p.engine_kv.block, true) <= a.kv_tokens);
  }
  // TensorRT-LLM 1.0, whose pool does not depend on the sequences: another path to the same answer,
  // `tessera serve` on the row as a scenario (the row's model, machine, framework and lengths; tp 1;
  // no SLO; the grid and the answer's batch at the engines' 8192-token budget). Its best tokens/s
  // is the row's prediction and its best batch the row's.
  const test::RowPlugins m =
      test::row_plugins("aggregated", {{"framework", "tensorrt-llm"}, {"framework_version", "1.0"}});
  DataRow r = full_load_row();
  r.software = "TensorRT-LLM 1.0";
  const RowPlan p = plan_row(r, shipped_aliases(), kRoot);
  REQUIRE(p.mapped);
  CHECK(p.engine_label == "tensorrt-llm@1.0");
  CHECK(p.engine_max_batch == 2048);  // --max_batch_size's default
  const PreparedRow prep = prepare_row(r, p);
  const ParamSet eff = registry().machine_params("calibrated", prep.efficiency_raw, p.machine_file);
  const FullLoadAnswer a = predict_full_load_row(prep, m.latency, eff, m.memory, *m.serving);
  REQUIRE(a.batch > 0);
  CHECK(a.batch <= 2048);
  test::TempDir dir;
  std::string batches;
  for (const std::int64_t b : kMaxThroughputBatches) batches += std::to_string(b) + ", ";
  batches += std::to_string(a.batch);
  std::ofstream(dir / "row.yaml")
      << "schema_version: 1\nkind: scenario\nmodel: llama3.1-8b\nmachine: dgx-h100\n"
         "framework: tensorrt-llm@1.0\nworkload: {mode: serve, input: 1024, output: 256}\n"
         "sweep:\n  parallelism: {tp: [1], pp: [1], dp: [1]}\n"
         "  serving: {batch: ["
      << batches << "], token_budget: [8192]}\nserving: {max_pes: 1}\n";
  const std::string cmd = "TESSERA_PLUGIN_PATH= TESSERA_DATA_DIR=" + kRoot + " " +
                          std::string(TESSERA_BINARY_DIR) + "/bin/tessera serve " + (dir / "row.yaml") +
                          " --json " + (dir / "out.json") + " -q >/dev/null 2>" + (dir / "err.txt");
  REQUIRE(std::system(cmd.c_str()) == 0);
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(dir / "out.json"));
  INFO(j["best"].dump());
  CHECK(j["best"]["batch"].get<std::int64_t>() == a.batch);
  CHECK(j["best"]["tokens_per_s"].get<double>() == Approx(a.value).epsilon(1e-9));
  CHECK(j["framework"]["kv_capacity"]["tokens"].get<std::int64_t>() == a.kv_tokens);
  CHECK(j["framework"]["kv_capacity"]["max_batch"].get<std::int64_t>() >= a.batch);
}

TEST_CASE("full-load rows: a precision the row leaves unstated read from another source",
          "[validate-data][full-load]") {
  // data/aliases.yaml `precisions:`: TensorRT-LLM's Llama-3.3-70B NVFP4 checkpoint.
  DataRow r = full_load_row();
  r.software = "TensorRT-LLM, PyTorch backend (trtllm-bench throughput; release not stated on the page)";
  r.model = "Llama 3.3 70B";
  r.hardware = "B200 180GB (DGX B200)";
  r.precision =
      "FP4 weights (column 'FP4'; ModelOpt-quantized weights, the page lists the checkpoint "
      "nvidia/Llama-3.3-70B-Instruct-FP4); activation and KV-cache dtype not stated";
  const RowPlan p = plan_row(r, shipped_aliases(), kRoot);
  REQUIRE(p.mapped);
  CHECK(p.dtype.weights == DType::nvfp4);
  CHECK(p.dtype.activations == DType::nvfp4);
  CHECK(p.dtype.kv == DType::fp8);
  REQUIRE(p.dtype.lm_head_weights);
  CHECK(*p.dtype.lm_head_weights == DType::bf16);
  CHECK(p.engine_label == "tensorrt-llm@1.1");
  // Another checkpoint of the same page is not selected: its precision stays unstated.
  r.precision =
      "FP8 weights (column 'FP8'; ModelOpt-quantized weights, the page lists the checkpoint "
      "nvidia/Qwen3-235B-A22B-FP8); activation and KV-cache dtype not stated";
  r.model = "Qwen3-235B-A22B";
  CHECK(plan_row(r, shipped_aliases(), kRoot).reason.find("part of it is not stated") != std::string::npos);
}

}  // namespace test_full_load_rows
