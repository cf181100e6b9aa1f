// data/aliases.yaml: rules matched most specific first (analysis/measurements/alias_table.hpp select_rule),
// no rule shadowed, no row of the shipped CSVs matched by two equally specific rules with different targets,
// the named precedence cases (GB200 before B200, TensorRT-LLM before PyTorch, H200 before H20), and the
// framework version a software column states.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/accuracy/row_plan.hpp"
#include "analysis/measurements/alias_table.hpp"
#include "analysis/measurements/measurement_csv.hpp"
#include "analysis/measurements/row_precision.hpp"
#include "row_fixture.hpp"
#include "tessera/error.hpp"

using namespace tessera;
using namespace tessera::accuracy;

namespace {

const std::string kRoot = TESSERA_SOURCE_DIR;

// An alias table holding one `section` entry is refused with a message containing `words`.
void check_refused(const std::string& section, const std::string& entry, const std::string& words) {
  const auto dir = std::filesystem::temp_directory_path() / ("tessera-alias-" + section + "-test");
  std::filesystem::create_directories(dir);
  const auto path = (dir / "aliases.yaml").string();
  std::ofstream(path) << "schema_version: 1\nkind: aliases\n" << section << ":\n  - " << entry << "\n";
  bool refused = false;
  try {
    load_aliases(path);
  } catch (const InputError& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find(words) != std::string::npos);
    refused = true;
  }
  std::filesystem::remove_all(dir);
  if (!refused) FAIL("expected an error for " << entry);
}

const Aliases& shipped() { return tessera::test::shipped_aliases(); }

std::string target(const std::vector<AliasRule>& rules, const std::string& value,
                   const std::string& loc = "") {
  const AliasRule* r = select_rule(rules, value, loc);
  if (!r) return "(none)";
  return r->unmapped.empty() ? r->target : "unmapped";
}

std::string describe(const AliasRule& r) {
  return "'" + r.match + "'" + (r.locator.empty() ? "" : " locator '" + r.locator + "'") + " (line " +
         std::to_string(r.line) + ")";
}

AliasRule rule(std::string match, std::string target, std::string locator = "") {
  AliasRule r;
  r.match = std::move(match);
  r.target = std::move(target);
  r.locator = std::move(locator);
  return r;
}

}  // namespace

TEST_CASE("alias rules: the longest matching rule wins wherever it stands", "[validate-data][aliases]") {
  // In file order the less specific rule comes first; it must not win.
  const std::vector<AliasRule> rules = {
      rule("B200", "dgx-b200"),         rule("GB200 NVL72", "gb200-nvl72"),
      rule("PyTorch", "pytorch-eager"), rule("TensorRT-LLM", "tensorrt-llm"),
      rule("H20", "hgx-h20"),           rule("H200", "dgx-h200")};
  CHECK(target(rules, "GB200 NVL72 (72 GPUs)") == "gb200-nvl72");
  CHECK(target(rules, "B200 SXM 180GB") == "dgx-b200");
  CHECK(target(rules, "TensorRT-LLM 1.0 (PyTorch backend)") == "tensorrt-llm");
  CHECK(target(rules, "PyTorch 2.11 eager") == "pytorch-eager");
  CHECK(target(rules, "H200 SXM 141GB") == "dgx-h200");
  CHECK(target(rules, "H20 (8 GPUs)") == "hgx-h20");
  CHECK(target(rules, "MI300X") == "(none)");
  // Equally long: the earlier rule.
  const std::vector<AliasRule> tie = {rule("A100", "a"), rule("H100", "h")};
  CHECK(target(tie, "A100 (H100vsA100 blog)") == "a");
  // The locator counts towards specificity.
  const std::vector<AliasRule> loc = {rule("PyTorch", "pytorch-eager"),
                                      rule("PyTorch", "none", "section gemm")};
  CHECK(target(loc, "PyTorch 2.11", "run 1; section gemm") == "none");
  CHECK(target(loc, "PyTorch 2.11", "run 1; section llama8b") == "pytorch-eager");
}

TEST_CASE("alias rules: a shadowed rule is found", "[validate-data][aliases]") {
  // Two rules with the same text: the second can never be selected.
  const std::vector<AliasRule> dup = {rule("H100", "dgx-h100"), rule("B200", "dgx-b200"),
                                      rule("H100", "other")};
  const auto s = shadowed_rules(dup);
  REQUIRE(s.size() == 1);
  CHECK(s[0].rule == &dup[2]);
  CHECK(s[0].by == &dup[0]);
  // Longer texts never shadow shorter ones (the shorter one's own text does not contain them).
  const std::vector<AliasRule> nested = {rule("GB200 NVL72", "rack"), rule("B200", "dgx")};
  CHECK(shadowed_rules(nested).empty());
}

TEST_CASE("alias rules: no rule of data/aliases.yaml is shadowed", "[validate-data][aliases]") {
  const Aliases& a = shipped();
  for (const auto* section : {&a.models, &a.hardware, &a.frameworks}) {
    for (const ShadowedRule& s : shadowed_rules(*section)) {
      INFO("rule " << describe(*s.rule) << " is shadowed by " << describe(*s.by));
      CHECK(false);
    }
  }
  // The precedence cases docs/accuracy.md "How a row is mapped" names, on the shipped table.
  CHECK(target(a.hardware, "GB200 NVL72") == "gb200-nvl72");
  CHECK(target(a.hardware, "GB200 185GB (Azure ND GB200 v6, Blackwell)") == "gb200-nvl72");
  CHECK(target(a.hardware, "B200 SXM 180GB (1000W TGP, single GPU, 'preview' availability)") == "dgx-b200");
  CHECK(target(a.hardware, "H20 (8 GPUs)") == "hgx-h20");
  CHECK(target(a.hardware, "H200 SXM 141GB") == "dgx-h200");
  CHECK(target(a.hardware, "H800 SXM5") == "hgx-h800");
  CHECK(target(a.frameworks, "TensorRT-LLM 1.0 (PyTorch backend)") == "tensorrt-llm");
  CHECK(target(a.frameworks, "DeepSpeed-Inference (>=0.7.3) + Transformers") == "deepspeed");
  CHECK(target(a.frameworks, "PyTorch 2.11 + CUDA graphs (2.11.0, CUDA 13.0)") == "pytorch-cudagraph");
  CHECK(target(a.frameworks, "SGLang (PD disaggregation + DeepEP + DeepGEMM + two-batch overlap)") ==
        "sglang");
  CHECK(target(a.frameworks, "DeepGEMM (JIT CUDA FP8 GEMM with fine-grained scaling)") == "none");
}

TEST_CASE("alias rules: no shipped row is matched by two equally specific rules with different targets",
          "[validate-data][aliases]") {
  const Aliases& a = shipped();
  int rows = 0;
  for (const char* f : {"measurements.csv", "measurements-2024-2026.csv", "measurements-h200.csv",
                        "measurements-serving.csv"}) {
    const std::string path = kRoot + "/data/" + f;
    REQUIRE(std::filesystem::exists(path));
    for (const DataRow& r : read_measurements(path)) {
      ++rows;
      const std::pair<const std::vector<AliasRule>*, const std::string*> cols[] = {
          {&a.models, &r.model}, {&a.hardware, &r.hardware}, {&a.frameworks, &r.software}};
      for (const auto& [rules, value] : cols) {
        const std::string loc = rules == &a.frameworks ? r.source_locator : "";
        const AliasRule* best = select_rule(*rules, *value, loc);
        if (!best) continue;
        for (const AliasRule& other : *rules) {
          if (&other == best) continue;
          const bool matches = lower(*value).find(lower(other.match)) != std::string::npos &&
                               lower(loc).find(lower(other.locator)) != std::string::npos;
          const bool same_length =
              other.match.size() + other.locator.size() == best->match.size() + best->locator.size();
          if (matches && same_length && (other.target != best->target || other.unmapped != best->unmapped)) {
            INFO(f << " row " << r.id << ": '" << *value << "' matches " << describe(*best) << " and "
                   << describe(other) << " equally");
            CHECK(false);
          }
        }
      }
    }
  }
  CHECK(rows == 69 + 69 + 164 + 476);
}

TEST_CASE("alias rules: the framework version a software column states", "[validate-data][aliases]") {
  const AliasRule vllm = rule("vLLM", "vllm"), trt = rule("TensorRT-LLM", "tensorrt-llm");
  CHECK(framework_version("vLLM 0.6.3", vllm) == "0.6.3");
  CHECK(framework_version("vLLM v0.10.1.1 (V1 engine)", vllm) == "0.10.1.1");
  CHECK(framework_version("vLLM main, default attention and MoE backends", vllm) == "main");
  CHECK(framework_version("vLLM mainline", vllm).empty());
  CHECK(framework_version("TensorRT-LLM v0.5 (low-latency tables)", trt) == "0.5");
  CHECK(framework_version("TensorRT-LLM 1.0.0rc4", trt) == "1.0.0rc4");
  CHECK(framework_version("TensorRT-LLM v0.7a", trt) == "0.7a");
  CHECK(framework_version("TensorRT-LLM (PyTorch backend)", trt).empty());
  CHECK(framework_version("NVIDIA MLPerf harness on TensorRT-LLM (TensorRT 10.2.0)", trt).empty());
  CHECK(framework_version("Triton fused-MoE backend (vLLM)", vllm).empty());
}

TEST_CASE("alias rules: an empty match is refused", "[validate-data][aliases]") {
  const auto dir = std::filesystem::temp_directory_path() / "tessera-alias-rules-test";
  std::filesystem::create_directories(dir);
  const auto path = (dir / "aliases.yaml").string();
  std::ofstream(path)
      << "schema_version: 1\nkind: aliases\nhardware:\n  - {match: \"\", machine: dgx-h100}\n";
  CHECK_THROWS_AS(load_aliases(path), InputError);
  std::filesystem::remove_all(dir);
}

TEST_CASE("alias rules: precisions - every rule selects a shipped row and a bad one is refused",
          "[validate-data][aliases]") {
  const Aliases& a = shipped();
  REQUIRE(!a.precisions.empty());
  for (const PrecisionRule& pr : a.precisions) {
    INFO("precisions rule at line " << pr.line << ": " << pr.match);
    int selected = 0;
    for (const char* f : {"measurements.csv", "measurements-2024-2026.csv", "measurements-h200.csv",
                          "measurements-serving.csv", "measurements-serving-2026.csv"})
      for (const DataRow& r : read_measurements(kRoot + "/data/" + f)) {
        if (select_precision(a.precisions, r.precision, r.model, r.source_locator) != &pr) continue;
        ++selected;
        // A rule applies only where the column leaves part of the precision unstated (or all of it:
        // a blank column, which only a rule pinned to a locator covers).
        std::string why;
        CHECK_FALSE(dtypes_from_precision(r.precision, why));
        CHECK((why.find("part of it is not stated") != std::string::npos ||
               (why == "precision not stated" && !pr.locator.empty())));
      }
    CHECK(selected > 0);
    CHECK(!pr.source.empty());
  }
  auto refused = [](const std::string& entry, const std::string& words) {
    check_refused("precisions", entry, words);
  };
  refused("{match: x, dtype: {weights: fp8, kv: fp8, activations: fp8}}",
          "needs `match:`, `dtype:` and `source:`");
  refused("{match: x, source: s, dtype: {weights: fp9, kv: fp8, activations: fp8}}",
          "`fp9` is not a number format");
  refused("{match: x, source: s, dtype: {weights: fp8, kv: fp8, actvations: fp8}}",
          "`actvations` is not a role");
  refused("{match: x, source: s, dtype: {weights: fp8, kv: fp8}}", "`dtype:` needs `activations:`");
  refused("{match: \"\", source: s, dtype: {weights: fp8, kv: fp8, activations: fp8}}",
          "`match:` may be empty only with a `locator:`");
}

TEST_CASE("alias rules: datasets - every rule gives a shipped row its lengths and a bad one is refused",
          "[validate-data][aliases]") {
  const Aliases& a = shipped();
  REQUIRE(!a.datasets.empty());
  for (const DatasetRule& d : a.datasets) {
    INFO("datasets rule at line " << d.line << ": " << d.match);
    int selected = 0;
    for (const char* f : {"measurements-serving.csv", "measurements-serving-2026.csv"})
      for (const DataRow& r : read_measurements(kRoot + "/data/" + f))
        if (r.input_len.empty() && select_dataset(a.datasets, r.notes, r.model, r.source_locator) == &d)
          ++selected;
    CHECK(selected > 0);
    CHECK(d.input_mean > 0);
    CHECK(d.output_mean > 0);
    CHECK(!d.source.empty());
  }
  auto refused = [](const std::string& entry, const std::string& words) {
    check_refused("datasets", entry, words);
  };
  refused("{match: x, input_mean: 10, source: s}",
          "needs `match:`, `input_mean:`, `output_mean:` and `source:`");
  refused("{match: x, input_mean: 0, output_mean: 5, source: s}", "`input_mean:` must be a whole number");
  refused("{match: x, input_mean: 10, output_mean: 2.5, source: s}", "`output_mean:` must be a whole number");
  refused("{match: x, input_mean: 10, output_mean: -3, source: s}", "`output_mean:` must be a whole number");
  refused("{match: \"\", input_mean: 10, output_mean: 5, source: s}", "must not be empty");
}

TEST_CASE("alias rules: a rule's version applies only when the software column states none",
          "[validate-data][aliases]") {
  // The Databricks blog (Oct 2023) states no TensorRT-LLM version: its rule states 0.5.
  int databricks = 0;
  DataRow ttft_row;
  for (const DataRow& r : read_measurements(kRoot + "/data/measurements.csv")) {
    const RowPlan p = plan_row(r, shipped(), kRoot);
    if (r.source_locator.find("databricks.com") != std::string::npos && p.framework == "tensorrt-llm") {
      ++databricks;
      CHECK(p.framework_version == "0.5");
      if (r.id == "65") ttft_row = r;
    }
    if (r.software.find("TensorRT-LLM v0.5") != std::string::npos)
      CHECK(p.framework_version.rfind("0.5", 0) == 0);
    if (r.software.find("TensorRT-LLM v0.7a") != std::string::npos) CHECK(p.framework_version == "0.7a");
  }
  CHECK(databricks >= 5);  // the TTFT rows 65-69 at least
  // A stated version wins over the rule's.
  REQUIRE(!ttft_row.id.empty());
  ttft_row.software = "TensorRT-LLM 1.0.0 Databricks server";
  const RowPlan p = plan_row(ttft_row, shipped(), kRoot);
  CHECK(p.framework == "tensorrt-llm");
  CHECK(p.framework_version == "1.0.0");
}
