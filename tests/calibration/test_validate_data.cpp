// `validate-data`: CSV reading, the alias table, row mapping, the e2e sum, and the accuracy
// acceptance of latency/calibrated on data/measurements.csv (docs/accuracy.md).
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "analysis/accuracy/accuracy_study.hpp"
#include "host/plugin_registry.hpp"
#include "registry_fixture.hpp"
#include "report/study_text/accuracy_report.hpp"

using namespace tessera;
using tessera::test::registry;
using namespace tessera::accuracy;

namespace {

const std::string kRoot = TESSERA_SOURCE_DIR;
// The public measurements, shipped in data/ (data/README.md).
const std::string kPublic = kRoot + "/data/measurements.csv";
const std::string kH200 = kRoot + "/data/measurements-h200.csv";

std::string write_temp(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / name;
  std::ofstream(p) << text;
  return p.string();
}

const char* kHeader =
    "id,source,source_locator,software,model,precision,hardware,n_devices,tp,pp,ep,batch,input_len,output_"
    "len,"
    "metric,value,unit,notes\n";

}  // namespace

TEST_CASE("validate-data: CSV with quoted cells and commas and newlines inside quotes", "[validate-data]") {
  const std::string path =
      write_temp("tessera-vd-quoted.csv",
                 std::string(kHeader) +
                     "1,\"A, B\",loc,\"soft \"\"x\"\"\",Llama-2-7B,fp16,A100 SXM "
                     "80GB,1,1,1,,1,128,1,ttft,7,ms,\"multi\nline, note\"\n"
                     "2,S,loc,TensorRT-LLM,Llama-2-7B,fp16,A100 SXM 80GB,1,1,1,,1,128,1,ttft,8,ms,plain\n");
  const auto rows = read_measurements(path);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].source == "A, B");
  CHECK(rows[0].software == "soft \"x\"");
  CHECK(rows[0].notes == "multi\nline, note");
  CHECK(rows[1].line == 4);
  CHECK(rows[1].value == "8");
}

TEST_CASE("validate-data: a CSV without the expected columns is refused", "[validate-data]") {
  const std::string path = write_temp("tessera-vd-bad.csv", "id,value\n1,2\n");
  CHECK_THROWS_AS(read_measurements(path), InputError);
}

TEST_CASE("validate-data: row mapping rules", "[validate-data]") {
  const Aliases a = load_aliases(default_aliases_path(kRoot));
  DataRow r;
  r.id = "x";
  r.source = "S";
  r.software = "TensorRT-LLM v0.5";
  r.model = "Llama-2-70B";
  r.precision = "fp8";
  r.hardware = "H100 SXM 80GB";
  r.n_devices = "8";
  r.tp = "4";
  r.pp = "1";
  r.batch = "16";
  r.input_len = "128";
  r.output_len = "64";
  r.metric = "tpot";
  r.value = "20";
  r.unit = "ms";
  RowPlan p = plan_row(r, a, kRoot);
  REQUIRE(p.mapped);
  CHECK(p.config.tp == 4);
  CHECK(p.config.dp == 2);  // dp = n_devices / (tp*pp)
  CHECK(p.batch == 8);      // per replica
  CHECK(p.framework == "tensorrt-llm");
  CHECK(p.dtype.weights == DType::fp8);
  CHECK(p.dtype.kv == DType::fp8);
  CHECK(p.to_unit == 1e3);
  CHECK(p.measure == Measure::decode_step);

  r.precision = "int4 AWQ";
  p = plan_row(r, a, kRoot);
  CHECK(p.dtype.weights == DType::int4);
  CHECK(p.dtype.activations == DType::fp16);

  r.n_devices = "6";  // not a multiple of tp*pp
  CHECK_FALSE(plan_row(r, a, kRoot).mapped);
  r.n_devices = "4";
  r.tp = "";
  p = plan_row(r, a, kRoot);
  CHECK_FALSE(p.mapped);
  CHECK(p.reason.find("tp not stated") != std::string::npos);
  r.tp = "4";
  r.hardware = "A100 (40 or 80GB not stated)";
  p = plan_row(r, a, kRoot);
  CHECK_FALSE(p.mapped);
  CHECK(p.reason.find("memory variant") != std::string::npos);
  r.hardware = "H100 SXM 80GB";
  r.metric = "op_latency:Softmax";
  CHECK_FALSE(plan_row(r, a, kRoot).mapped);
  r.metric = "kernel_latency";
  r.model = "GEMM M=64 K=12288 N=12288";
  p = plan_row(r, a, kRoot);
  REQUIRE(p.mapped);
  CHECK(p.measure == Measure::gemm);
  CHECK(p.gemm_m == 64);
  CHECK(p.gemm_k == 12288);
}

TEST_CASE("validate-data: e2e sums the prefill and every decode step (trapezoid beyond 16)",
          "[validate-data]") {
  const Aliases a = load_aliases(default_aliases_path(kRoot));
  DataRow r;
  r.id = "e2e";
  r.source = "S";
  r.software = "FasterTransformer";
  r.model = "GPT-3-175B";
  r.precision = "fp16";
  r.hardware = "A100 SXM 80GB";
  r.n_devices = "8";
  r.tp = "8";
  r.batch = "4";
  r.input_len = "512";
  r.metric = "e2e_latency";
  r.value = "1";
  r.unit = "s";
  PluginChoice mem;
  mem.name = "standard";
  const auto memory = registry().create_memory(mem);
  PluginChoice lat;
  lat.name = "calibrated";
  const auto latency = registry().create_latency(lat);
  auto predict = [&](const std::string& out) {
    r.output_len = out;
    const RowPlan p = plan_row(r, a, kRoot);
    REQUIRE(p.mapped);
    const PreparedRow prep = prepare_row(r, p);
    const ParamSet eff = registry().machine_params("calibrated", prep.efficiency_raw, p.machine_file);
    return predict_row(prep, latency, eff, memory);
  };
  // Exact sums up to 16 decode steps: e2e(n+1) - e2e(n) is one decode step, and steps grow.
  const double e1 = predict("1"), e2 = predict("2"), e3 = predict("3"), e17 = predict("17");
  CHECK(e2 > e1);
  CHECK(e3 - e2 >= (e2 - e1) * (1 - 1e-9));
  // The trapezoid (18 outputs = 17 steps) continues the exact sum smoothly.
  const double e18 = predict("18");
  CHECK(e18 - e17 == Approx(e17 - predict("16")).epsilon(0.02));
}

TEST_CASE("validate-data: every row is either predicted or listed with a reason", "[validate-data]") {
  REQUIRE(std::filesystem::exists(kPublic));
  const auto rows = read_measurements(kPublic);
  ValidateOptions o;
  o.latency = {"overlap", "calibrated"};
  o.data_root = kRoot;
  const auto reports = validate_data(rows, registry(), o);
  REQUIRE(reports.size() == 2);
  for (const auto& rep : reports) {
    CHECK(rep.rows.size() + rep.unmapped.size() == rows.size());
    for (const auto& u : rep.unmapped) CHECK(!u.reason.empty());
  }
  const auto j = nlohmann::json::parse(reports_json({reports[1]}));
  CHECK(j["rows"].is_array());
  CHECK(j["unmapped"].is_array());
  CHECK(j["summary"]["overall"]["n"].get<std::size_t>() == reports[1].rows.size());
  CHECK(j["summary"]["overall"].contains("median_ape"));
  CHECK(j["summary"]["overall"].contains("mean_ape"));
  CHECK(j["summary"]["by_source"].is_object());
  for (const auto& row : j["rows"]) {
    for (const char* k : {"id", "metric", "unit", "measured", "predicted", "ape"}) CHECK(row.contains(k));
  }
}

TEST_CASE("validate-data: calibrated acceptance on the 50 latency rows", "[validate-data][acceptance]") {
  REQUIRE(std::filesystem::exists(kPublic));
  const auto rows = read_measurements(kPublic);
  std::size_t latency_rows = 0;
  for (const auto& r : rows) latency_rows += is_latency_metric(r.metric) ? 1 : 0;
  CHECK(latency_rows == 50);
  ValidateOptions o;
  o.latency = {"roofline", "overlap", "calibrated"};
  o.latency_only = true;
  o.data_root = kRoot;
  const auto reports = validate_data(rows, registry(), o);
  REQUIRE(reports.size() == 3);
  const ModelReport& cal = reports[2];
  const double mapped = static_cast<double>(cal.rows.size()) / static_cast<double>(latency_rows);
  INFO("calibrated: mapped " << cal.rows.size() << "/" << latency_rows << ", median APE "
                             << cal.overall.median_ape << ", mean APE " << cal.overall.mean_ape);
  CHECK(mapped >= 0.8);
  CHECK(cal.overall.median_ape <= 0.15);
  // The reference models are far less accurate: they assume peak rates and no overheads.
  CHECK(reports[1].overall.median_ape > cal.overall.median_ape);
  CHECK(reports[0].overall.median_ape >= reports[1].overall.median_ape * (1 - 1e-9));
}

TEST_CASE("validate-data: our H200 rows all map", "[validate-data]") {
  const auto rows = read_measurements(kH200);
  const Aliases a = load_aliases(default_aliases_path(kRoot));
  std::map<std::string, int> frameworks;
  for (const auto& r : rows) {
    const RowPlan p = plan_row(r, a, kRoot);
    INFO(r.id << ": " << p.reason);
    CHECK(p.mapped);
    frameworks[p.framework]++;
  }
  CHECK(frameworks["none"] == 128);  // GEMM, copy and attention kernels: GPU time alone
  CHECK(frameworks["pytorch-cudagraph"] == 12);
  CHECK(frameworks["transformers"] == 6);
}
