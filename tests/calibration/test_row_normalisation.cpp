// Rows mapped by what they are (docs/accuracy.md "How a row is mapped"): one
// case per normalisation rule — precision words inside qualifiers, unit synonyms, metric
// synonyms, key=value in the notes, shape-identical model variants — and the alias precedence
// that picks the serving framework over the runtime under it, over every compound software string
// of the shipped data files.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "analysis/accuracy/load_rows.hpp"
#include "analysis/accuracy/row_plan.hpp"
#include "analysis/measurements/alias_table.hpp"
#include "analysis/measurements/collective_rows.hpp"
#include "analysis/measurements/measurement_csv.hpp"
#include "analysis/measurements/row_precision.hpp"
#include "analysis/measurements/row_units.hpp"
#include "core/text/input_text.hpp"
#include "row_fixture.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_row_normalisation {

using namespace tessera;
using namespace tessera::accuracy;

namespace {

const std::string kRoot = TESSERA_SOURCE_DIR;

const Aliases& shipped() { return tessera::test::shipped_aliases(); }

// "weights/kv/activations" of a precision string, or "unmapped: why".
std::string dtypes(const std::string& precision) {
  std::string why;
  const auto d = dtypes_from_precision(precision, why);
  if (!d) return "unmapped: " + why;
  return std::string(dtype_name(d->weights)) + "/" + dtype_name(d->kv) + "/" + dtype_name(d->activations);
}

DataRow serving_row() {
  DataRow r = tessera::test::synthetic_decode_row("tpot", "12", "ms");
  r.id = "n";
  return r;
}

std::string serving_stack_of(const std::string& software) {
  const AliasRule* r = select_rule(shipped().frameworks, software);
  return r ? r->target : "(none)";
}

}  // namespace

TEST_CASE("row precision: qualifiers without a dtype word are read as nothing",
          "[validate-data][normalise]") {
  CHECK(dtypes("bf16 (default)") == "bf16/bf16/bf16");
  CHECK(dtypes("BF16 (model default dtype)") == "bf16/bf16/bf16");
  CHECK(dtypes("fp8 (use_fp8=True)") == "fp8/fp8/fp8");
  CHECK(dtypes("fp8 (e4m3)") == "fp8/fp8/fp8");
  CHECK(dtypes("float16") == "fp16/fp16/fp16");
  CHECK(dtypes("default") == "unmapped: precision 'default' has no dtype mapping");
}

TEST_CASE("row precision: two 16-bit float alternatives read as bf16", "[validate-data][normalise]") {
  CHECK(dtypes("16-bit (bf16/fp16)") == "bf16/bf16/bf16");
  CHECK(dtypes("fp16 or bf16") == "bf16/bf16/bf16");
  // Any other pair of alternatives is two different costs: refused.
  CHECK(dtypes("fp8 or bf16") ==
        "unmapped: precision 'fp8 or bf16' names several dtypes without saying which "
        "part each is");
}

TEST_CASE("row precision: dtypes with the roles that follow them", "[validate-data][normalise]") {
  CHECK(dtypes("fp8 (weights, activations, KV)") == "fp8/fp8/fp8");
  CHECK(dtypes("bf16 (fp8 KV cache)") == "bf16/fp8/bf16");
  CHECK(dtypes("FP8 weights and activations, FP8 KV cache") == "fp8/fp8/fp8");
  CHECK(dtypes("fp8 weights, bf16 activations and KV") == "fp8/bf16/bf16");
  // Weight-only schemes: activations and KV stay 16-bit.
  CHECK(dtypes("int8 (weights)") == "int8/fp16/fp16");
  CHECK(dtypes("int4 AWQ") == "int4/fp16/fp16");
  CHECK(dtypes("int8") == "int8/int8/int8");
  CHECK(dtypes("nvfp4") == "nvfp4/nvfp4/nvfp4");
  CHECK(dtypes("fp4 (format, e.g. NVFP4 vs MXFP4, not stated)") == "nvfp4/nvfp4/nvfp4");
}

TEST_CASE("row precision: per-layer mixes and unstated parts are refused with the reason",
          "[validate-data][normalise]") {
  const std::string mixed =
      "FP8 attention incl. FP8 KV cache; NVFP4 MoE experts and attention output projection; q_b_proj FP8";
  CHECK(dtypes(mixed) == "unmapped: precision '" + mixed + "' has no dtype mapping");
  // The same dtypes named by role, not by layer, are one set.
  CHECK(dtypes("fp8 weights; nvfp4 KV; fp8 activations") == "fp8/nvfp4/fp8");
  CHECK(dtypes("BF16 attention (KV not stated, presumably BF16); FP8 MoE GEMMs") ==
        "unmapped: precision 'BF16 attention (KV not stated, presumably BF16); FP8 MoE GEMMs': part of it is "
        "not stated");
  CHECK(dtypes("fp8 weights, int8 weights") ==
        "unmapped: precision 'fp8 weights, int8 weights' names two dtypes for the same part");
  CHECK(dtypes("fp8 weights, fp8 KV") ==
        "unmapped: precision 'fp8 weights, fp8 KV': the dtype of part of the "
        "model (weights, KV or activations) is not stated");
  CHECK(dtypes("") == "unmapped: precision not stated");
  // A KV cache whose flag was "not set" is not stated here (the engine's default applies: a
  // `precisions:` rule says which, with its source).
  CHECK(
      dtypes("weights FP8; KV cache dtype not set in launch script") ==
      "unmapped: precision 'weights FP8; KV cache dtype not set in launch script': part of it is not stated");
  // A float format named for the weights alone says nothing of the activations or the KV cache
  // (only integer weight-only schemes imply 16-bit for the rest).
  CHECK(
      dtypes("fp8 weights per measurements JSON (weight_data_types)") ==
      "unmapped: precision 'fp8 weights per measurements JSON (weight_data_types)': the dtype of part of the "
      "model (weights, KV or activations) is not stated");
}

TEST_CASE("row precision: roles named before their dtype in a clause", "[validate-data][normalise]") {
  CHECK(dtypes("weights FP8; activations FP8; KV cache bf16") == "fp8/bf16/fp8");
  CHECK(dtypes("FP8 (PR title 'MI300X FP8'); KV cache fp8_e4m3") == "fp8/fp8/fp8");
  CHECK(dtypes("bf16; KV cache fp8_e4m3") == "bf16/fp8/bf16");
  // The clause's own dtype repeated in a qualifier is one dtype.
  CHECK(dtypes("weights NVFP4 (checkpoint X-NVFP4); activations NVFP4; KV cache fp8_e4m3 (--kv-cache-dtype "
               "fp8_e4m3)") == "nvfp4/fp8/nvfp4");
  // Each comma-separated segment names its own roles, before or after its dtype.
  CHECK(dtypes("weights fp8, activations fp8, kv bf16") == "fp8/bf16/fp8");
  CHECK(dtypes("W8A8 fp8 (weights fp8, activations fp8), KV fp16") == "fp8/fp16/fp8");
  CHECK(dtypes("KV cache fp8, weights bf16").rfind("unmapped:", 0) == 0);  // activations not stated
  // A dtype that a flag repeats after a role: the first names the rest ("FP8 (... fp8 --kv ... fp8)").
  CHECK(dtypes("FP8 (quick-start uses --quantization fp8 --kv-cache-dtype fp8)") == "fp8/fp8/fp8");
  CHECK(dtypes("fp8 (--kv-cache-dtype fp8)") == "fp8/fp8/fp8");
  // A role before the dtype and a layer word: still a per-layer mix when dtypes differ.
  CHECK(dtypes("MoE weights MXFP4; attention weights bf16").rfind("unmapped:", 0) == 0);
}

TEST_CASE("row precision: a precisions rule of the alias table fills what the column leaves unstated",
          "[validate-data][normalise]") {
  // gpt-oss-120b under vLLM with no --kv-cache-dtype (InferenceX #828): experts MXFP4 through Marlin,
  // the rest bf16 (data/aliases.yaml, with the sources).
  const std::string gpt_oss =
      "MoE weights MXFP4 (openai/gpt-oss-120b native; VLLM_MXFP4_USE_MARLIN=1); KV cache dtype not set (no "
      "--kv-cache-dtype flag; vLLM default 'auto')";
  const PrecisionRule* r = select_precision(shipped().precisions, gpt_oss, "gpt-oss-120b", "github.com/x");
  REQUIRE(r != nullptr);
  CHECK(r->dtype.weights == DType::bf16);
  REQUIRE(r->dtype.expert_weights.has_value());
  CHECK(*r->dtype.expert_weights == DType::mxfp4);
  CHECK(r->dtype.kv == DType::bf16);
  // The same words for another model select nothing.
  CHECK(select_precision(shipped().precisions, gpt_oss, "Llama-3.1-8B", "x") == nullptr);
  // A blank precision column is covered only by a rule pinned to its source by a locator.
  const PrecisionRule* tpu = select_precision(shipped().precisions, "", "Llama-3.3-70B-Instruct",
                                              "AI-Hypercomputer/tpu-recipes@c8cfe2f6 inference/trillium");
  REQUIRE(tpu != nullptr);
  CHECK(tpu->dtype.kv == DType::bf16);
  CHECK(select_precision(shipped().precisions, "", "Llama-3.3-70B-Instruct", "another source") == nullptr);
}

TEST_CASE("row datasets: mean lengths of a dataset whose lengths vary per sample",
          "[validate-data][normalise]") {
  const std::string notes =
      "Dataset: MLPerf llama2-70b OpenOrca subset (24,576 samples), variable input/output lengths";
  const DatasetRule* d =
      select_dataset(shipped().datasets, notes, "Llama-2-70B (chat)", "mlcommons/inference_results_v4.1");
  REQUIRE(d != nullptr);
  CHECK(d->input_mean == 222);
  CHECK(d->output_mean == 294);
  // Another tokenizer (Llama 3.1 on the same prompts): no rule, the row is listed.
  CHECK(select_dataset(shipped().datasets, notes, "Llama-3.1-70B (Instruct)", "x") == nullptr);
  // Mixtral: only the v5.0-and-later set's lengths are published.
  const std::string mixtral = "Dataset: MLPerf mixtral-8x7b mix of OpenOrca, GSM8K and MBXP (15,000 samples)";
  CHECK(select_dataset(shipped().datasets, mixtral, "Mixtral-8x7B", "inference_results_v4.1 @198fc46") ==
        nullptr);
  const DatasetRule* m =
      select_dataset(shipped().datasets, mixtral, "Mixtral-8x7B", "inference_results_v5.1 @965182b");
  REQUIRE(m != nullptr);
  CHECK(m->input_mean == 427);
}

TEST_CASE("row units: time and rate synonyms", "[validate-data][normalise]") {
  CHECK(time_unit_scale("msec").value() == 1e3);
  CHECK(time_unit_scale(" milliseconds ").value() == 1e3);
  CHECK(time_unit_scale("\xce\xbcs").value() == 1e6);  // Greek mu
  CHECK(time_unit_scale("\xc2\xb5s").value() == 1e6);  // micro sign
  CHECK(time_unit_scale("usec").value() == 1e6);
  CHECK_FALSE(time_unit_scale("ms/token").has_value());  // only on a per-token metric, below
  const MetricUnit a = canonical_metric_unit("tpot", "ms/token");
  CHECK((a.metric == "tpot" && a.unit == "ms"));
  const MetricUnit b = canonical_metric_unit("throughput_out", "tokens/sec");
  CHECK((b.metric == "throughput_out" && b.unit == "tok/s"));
  const MetricUnit c = canonical_metric_unit("throughput_out", "requests/s");
  CHECK(c.unit == "req/s");
  // The files' own spellings stay as written.
  const MetricUnit d = canonical_metric_unit("throughput_out_per_gpu", "tok/s/GPU");
  CHECK((d.metric == "throughput_out_per_gpu" && d.unit == "tok/s/GPU"));
}

TEST_CASE("row metrics: itl and ttft names and per user or per GPU against total",
          "[validate-data][normalise]") {
  for (const char* itl : {"ITL", "mean_itl", "itl_mean", "inter_token_latency"})
    CHECK(canonical_metric_unit(itl, "ms").metric == "itl");
  CHECK(canonical_metric_unit("Mean_TPOT", "ms").metric == "tpot");
  CHECK(canonical_metric_unit("time_to_first_token", "s").metric == "ttft");
  CHECK(canonical_metric_unit("output_throughput", "tok/s").metric == "throughput_out");
  const MetricUnit per_user = canonical_metric_unit("throughput_out", "tok/s/user");
  CHECK((per_user.metric == "decode_tok_s_per_user" && per_user.unit == "tok/s"));
  CHECK(canonical_metric_unit("throughput_out", "tokens/s per user").metric == "decode_tok_s_per_user");
  CHECK(canonical_metric_unit("throughput_out", "tok/s per GPU").metric == "throughput_out_per_gpu");
  CHECK(canonical_metric_unit("throughput_out", "tok/s").metric == "throughput_out");  // a total stays one
  CHECK(canonical_metric_unit("ttft_p99", "ms").metric == "ttft_p99");                 // not a mean

  // Through plan_row: the synonyms plan as the files' own names.
  DataRow tpot = serving_row();
  const RowPlan base = plan_row(tpot, shipped(), kRoot);
  REQUIRE(base.mapped);
  DataRow itl = tpot;
  itl.metric = "ITL";
  itl.unit = "ms/token";
  const RowPlan pi = plan_row(itl, shipped(), kRoot);
  REQUIRE(pi.mapped);
  CHECK(pi.measure == Measure::decode_step);
  CHECK(pi.to_unit == base.to_unit);
  DataRow user = tpot;
  user.metric = "throughput_out";
  user.unit = "tok/s/user";
  user.value = "80";
  const RowPlan pu = plan_row(user, shipped(), kRoot);
  REQUIRE(pu.mapped);
  CHECK(pu.derived == Derived::per_user_rate);
  DataRow gpu = tpot;
  gpu.metric = "throughput_out";
  gpu.unit = "tok/s/GPU";
  const RowPlan pg = plan_row(gpu, shipped(), kRoot);
  REQUIRE(pg.mapped);
  CHECK(pg.derived == Derived::tokens_per_s_per_pe);
}

TEST_CASE("row notes: key=value read with blanks and a sentence's period", "[validate-data][normalise]") {
  CHECK(notes_msg_bytes("msg_bytes=1048576. NCCL 2.18.5, in-place").value() == 1048576);
  CHECK(notes_msg_bytes("msg_bytes=1024.").value() == 1024);
  CHECK(notes_msg_bytes("msg_bytes = 4096 (4K)").value() == 4096);
  CHECK(notes_msg_bytes("msg_bytes=8192, out-of-place").value() == 8192);
  CHECK_FALSE(notes_msg_bytes("msg_bytes=12.5").has_value());
  CHECK_FALSE(notes_msg_bytes("msg_bytes=4K").has_value());
  CHECK_FALSE(notes_msg_bytes("msg_bytes: 1024").has_value());
}

TEST_CASE("row models: names compare with blanks and dashes alike and shape-identical variants share a file",
          "[validate-data][normalise]") {
  const auto file = [](const std::string& model) {
    const AliasRule* r = select_rule(shipped().models, model, "", true);
    return r ? r->target : "(none)";
  };
  CHECK(file("Llama 3.1 70B Instruct") == "llama3.1-70b");
  CHECK(file("meta-llama/Llama-3.1-8B-Instruct") == "llama3.1-8b");
  CHECK(file("Llama-3.3-70B-Instruct") == "llama3.1-70b");
  CHECK(file("Meta-Llama-3-70B-Instruct") == "llama3.1-70b");
  CHECK(file("Meta Llama 3 8B") == "llama3.1-8b");
  CHECK(file("DeepSeek-R1 (671B)") == "deepseek-v3");
  CHECK(file("Qwen2-72B-Instruct") == "qwen2.5-72b");
  CHECK(file("Llama-2-70b-chat-hf") == "llama2-70b");
  CHECK(file("Llama 2 7B") == "llama2-7b");
  CHECK(file("Llama-3.2-3B") == "(none)");  // another shape: no file
  // No model rule is shadowed under folding either.
  CHECK(shadowed_rules(shipped().models, true).empty());
  // Through plan_row.
  DataRow r = serving_row();
  r.model = "Llama 3.3 70B Instruct";
  r.n_devices = "8";
  r.tp = "8";
  const RowPlan p = plan_row(r, shipped(), kRoot);
  REQUIRE(p.mapped);
  CHECK(std::filesystem::path(p.model_file).filename() == "llama3.1-70b.yaml");
}

TEST_CASE("row hardware: a GH200 is not an H200", "[validate-data][normalise]") {
  const AliasRule* r = select_rule(shipped().hardware, "NVIDIA GH200 Grace Hopper Superchip (144 GB)");
  REQUIRE(r != nullptr);
  CHECK(r->target.empty());
  CHECK(r->unmapped.rfind("GH200 Grace Hopper", 0) == 0);
  CHECK(select_rule(shipped().hardware, "NVIDIA H200-SXM-141GB")->target == "dgx-h200");
}

TEST_CASE("alias precedence: the serving framework over the runtime under it", "[validate-data][normalise]") {
  CHECK(serving_stack_of("vLLM 0.5.0 (PyTorch 2.3)") == "vllm");
  CHECK(serving_stack_of("PyTorch 2.3 + vLLM 0.5.0") == "vllm");
  CHECK(serving_stack_of("SGLang 0.4.1 (PyTorch 2.5, CUDA graphs)") == "sglang");
  CHECK(serving_stack_of("vLLM 0.6.3 + transformers 4.45") == "vllm");
  CHECK(serving_stack_of("NVIDIA NIM 1.2 (TensorRT-LLM engine)") == "nim");
  CHECK(serving_stack_of("vLLM (minimum latency settings)") == "vllm");  // "NIM" only as a word
  CHECK(serving_stack_of("PyTorch 2.11 + CUDA graphs") == "pytorch-cudagraph");
  CHECK(serving_stack_of("PyTorch 2.11 eager") == "pytorch-eager");
  DataRow r = serving_row();
  r.software = "vLLM 0.5.0 (PyTorch 2.3, CUDA 12.1)";
  const RowPlan p = plan_row(r, shipped(), kRoot);
  CHECK(p.framework == "vllm");
  CHECK(p.framework_version == "0.5.0");
}

TEST_CASE("alias precedence: every compound software string of the shipped data files",
          "[validate-data][normalise]") {
  // A compound string names two or more frameworks; the rule selected must be of the outermost
  // layer named (never a runtime under a serving framework) and, within it, the longest.
  std::set<std::string> compound;
  int files = 0, vllm_on_pytorch = 0;
  for (const auto& e : std::filesystem::directory_iterator(kRoot + "/data")) {
    if (e.path().extension() != ".csv" || e.path().filename().string().rfind("measurements", 0) != 0)
      continue;
    ++files;
    for (const DataRow& row : read_measurements(e.path().string())) {
      std::set<std::string> targets;
      int top = -1;
      for (const AliasRule& rule : shipped().frameworks)
        if (lower(row.software).find(lower(rule.match)) != std::string::npos &&
            lower(row.source_locator).find(lower(rule.locator)) != std::string::npos) {
          targets.insert(rule.target);
          top = std::max(top, rule.layer);
        }
      if (targets.size() < 2) continue;
      compound.insert(row.software);
      const AliasRule* got = select_rule(shipped().frameworks, row.software, row.source_locator);
      REQUIRE(got != nullptr);
      INFO(e.path().filename().string()
           << " row " << row.id << ": '" << row.software << "' -> " << got->target);
      CHECK(got->layer == top);
      if (top > AliasRule::runtime) CHECK(got->layer != AliasRule::runtime);
      if (row.software.rfind("TensorRT-LLM, PyTorch backend", 0) == 0) CHECK(got->target == "tensorrt-llm");
      // The case: MLPerf v4.1 AMD rows, "vLLM 0.4.3+rocm614, PyTorch 2.3.0, ROCm 6.1.2".
      if (row.software.find("vLLM") != std::string::npos &&
          row.software.find("PyTorch 2.3") != std::string::npos) {
        ++vllm_on_pytorch;
        CHECK(got->target == "vllm");
        CHECK(framework_version(row.software, *got) == "0.4.3");
      }
    }
  }
  CHECK(files == 6);
  INFO("compound strings: " << compound.size());
  CHECK(compound.size() == 16);
  CHECK(vllm_on_pytorch == 32);
}

TEST_CASE("measurements-serving.csv: every row maps or is listed with one reason",
          "[validate-data][normalise]") {
  const auto rows = read_measurements(kRoot + "/data/measurements-serving.csv");
  REQUIRE(rows.size() == 476);
  int mapped = 0;
  std::map<std::string, int> reasons;
  for (const DataRow& r : rows) {
    const RowPlan p = plan_row(r, shipped(), kRoot);
    if (p.mapped) {
      ++mapped;
      continue;
    }
    REQUIRE_FALSE(p.reason.empty());
    reasons[p.reason.substr(0, p.reason.find(' '))]++;
  }
  // 63 MLPerf Offline ceilings, 24 NIM rows (Llama-3.3-70B through its alias), 20 TensorRT-LLM
  // full-load rows of Llama-3.3-70B NVFP4 (data/aliases.yaml `precisions:` states their KV dtype),
  // and 150 MLPerf Server rows under a load (TTFT, TPOT and the throughput within the P99 limits,
  // Llama-2-70B through the `datasets:` rule's mean lengths; analysis/accuracy/load_rows.hpp)
  CHECK(mapped == 257);
  CHECK(reasons["measured"] ==
        39);  // MLPerf v4.1 Mixtral Server rows: no public mean lengths of that round's set
  // not stated in the files read (MLPerf: 32); only the weights' dtype stated (OCI: 18, TensorRT-LLM: 130)
  CHECK(reasons["precision"] == 180);
}

TEST_CASE("measurements-serving-2026.csv: every row maps or is listed with one reason",
          "[validate-data][normalise]") {
  const auto rows = read_measurements(kRoot + "/data/measurements-serving-2026.csv");
  REQUIRE(rows.size() == 417);
  int mapped = 0, under_load = 0;
  std::map<std::string, int> reasons;
  for (const DataRow& r : rows) {
    const RowPlan p = plan_row(r, shipped(), kRoot);
    if (p.mapped) {
      ++mapped;
      if (p.measure == Measure::under_load) ++under_load;
      continue;
    }
    REQUIRE_FALSE(p.reason.empty());
    reasons[p.reason.substr(0, p.reason.find(' '))]++;
  }
  // docs/accuracy.md "Mapped share": the counts by reason, kept in step with the file.
  // 206 mapped, 84 of them through the request simulator (MLPerf v5.1 Server and Interactive rows
  // under their target_qps, their throughput within the P99 limits, and percentiles at a concurrency).
  CHECK(mapped == 206);
  CHECK(under_load == 84);
  // the KV or activation dtype not stated (TensorRT-LLM #5929, LLMBoost runs, a vLLM blog, ...)
  CHECK(reasons["precision"] == 118);
  CHECK(reasons["a"] == 57);  // "a throughput its source does not say is of output tokens or of all tokens"
}

}  // namespace test_row_normalisation
