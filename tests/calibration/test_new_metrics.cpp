// validate-data's metrics of the 2024-2026 file and of other published benchmarks
// (docs/accuracy.md "How a row is mapped"), on synthetic rows: kernel_tflops (plain and grouped
// GEMM) against the roofline by hand, itl and decode_tok_s_per_user against tpot, mfu only with
// the source's FLOP count stated as Tessera's, the MLPerf Offline ceiling, and the precision
// strings of the 2024-2026 file.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "analysis/accuracy/accuracy_study.hpp"
#include "host/plugin_registry.hpp"
#include "registry_fixture.hpp"
#include "row_fixture.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_new_metrics {

using namespace tessera;
using tessera::test::registry;
using namespace tessera::accuracy;

namespace {

const std::string kRoot = TESSERA_SOURCE_DIR;

const Aliases& aliases() { return tessera::test::shipped_aliases(); }

DataRow decode_row(const std::string& metric, const std::string& value, const std::string& unit) {
  return tessera::test::synthetic_decode_row(metric, value, unit);
}

DataRow gemm_row(const std::string& hardware, const std::string& precision, const std::string& notes) {
  DataRow r;
  r.id = "g";
  r.source = "synthetic";
  r.software = "cuBLASLt via superbench cublaslt_gemm";
  r.model = "(GEMM microbenchmark)";
  r.precision = precision;
  r.hardware = hardware;
  r.n_devices = "1";
  r.metric = "kernel_tflops";
  r.value = "1000";
  r.unit = "TFLOPS";
  r.notes = notes;
  return r;
}

// Predicts every row with one latency model; the results by id (unmapped: absent).
std::map<std::string, RowResult> predict(const std::vector<DataRow>& rows, const std::string& latency) {
  ValidateOptions o;
  o.latency = {latency};
  o.data_root = kRoot;
  const std::vector<ModelReport> reports = validate_data(rows, registry(), o);
  std::map<std::string, RowResult> out;
  for (const RowResult& r : reports.at(0).rows) out[r.id] = r;
  return out;
}

}  // namespace

TEST_CASE("new metrics: kernel_tflops shapes and precision strings", "[validate-data][new-metrics]") {
  RowPlan p = plan_row(gemm_row("H100 SXM 80GB HBM3", "fp8 (e4m3)", "M=1024,N=2048,K=4096. cuBLASLt"),
                       aliases(), kRoot);
  REQUIRE(p.mapped);
  CHECK(p.measure == Measure::gemm);
  CHECK(p.derived == Derived::flop_rate);
  CHECK(p.gemm_m == 1024);
  CHECK(p.gemm_n == 2048);
  CHECK(p.gemm_k == 4096);
  CHECK(p.gemm_groups == 1);
  CHECK(p.dtype.activations == DType::fp8);
  CHECK(p.framework == "none");
  p = plan_row(gemm_row("H800 SXM5", "fp8 e4m3 inputs with fine-grained (block) scaling",
                        "groups=4,M_per_group=256,N=4096,K=7168. Achieved"),
               aliases(), kRoot);
  REQUIRE(p.mapped);
  CHECK(p.gemm_groups == 4);
  CHECK(p.gemm_m == 256);
  CHECK(p.machine_file.find("hgx-h800") != std::string::npos);
  p = plan_row(gemm_row("GB200 185GB (Azure ND GB200 v6, Blackwell)",
                        "fp4 (format, e.g. NVFP4 vs MXFP4, not stated)", "M=4096,N=4096,K=4096."),
               aliases(), kRoot);
  REQUIRE(p.mapped);
  CHECK(p.dtype.weights == DType::nvfp4);
  CHECK(p.machine_file.find("gb200-nvl72") != std::string::npos);
  // No shape at the start of the notes, half a grouped shape, a wrong unit: unmapped with the reason.
  p = plan_row(gemm_row("H100 SXM 80GB", "fp8", "a GEMM of M=1,N=2,K=3"), aliases(), kRoot);
  CHECK_FALSE(p.mapped);
  CHECK(p.reason.find("GEMM shape") != std::string::npos);
  CHECK_FALSE(plan_row(gemm_row("H100 SXM 80GB", "fp8", "groups=4,N=4096,K=7168"), aliases(), kRoot).mapped);
  DataRow bad = gemm_row("H100 SXM 80GB", "fp8", "M=1,N=2,K=3");
  bad.unit = "ms";
  CHECK(plan_row(bad, aliases(), kRoot).reason.find("TFLOPS") != std::string::npos);
  // A precision with a part not stated stays unmapped.
  p = plan_row(gemm_row("H100 SXM 80GB", "not stated", "M=1,N=2,K=3"), aliases(), kRoot);
  CHECK_FALSE(p.mapped);
  CHECK(p.reason.find("not stated") != std::string::npos);
}

TEST_CASE("new metrics: kernel_tflops through roofline by hand", "[validate-data][new-metrics]") {
  // H100 fp8 dense peak 1979 TFLOP/s, HBM 3.35 TB/s (machines/dgx-h100.yaml); fp8: 1 B per element.
  // 4096^3: 1.374e11 FLOP / 1979e12 = 69.4 us against 3 x 4096^2 B / 3.35e12 = 15.0 us: compute
  // bound, the peak itself.
  // H800 grouped 4 x (256 x 4096 x 7168): 6.013e10 FLOP -> 30.4 us; bytes 4 x (256*7168 + 7168*4096 +
  // 256*4096) = 128974848 B -> 38.5 us: memory bound, 6.013e10 / 38.5e-6 = 1562 TFLOP/s.
  DataRow a = gemm_row("H100 SXM 80GB", "fp8 (e4m3)", "M=4096,N=4096,K=4096.");
  a.id = "a";
  DataRow b = gemm_row("H800 SXM5", "fp8 e4m3 inputs with fine-grained (block) scaling",
                       "groups=4,M_per_group=256,N=4096,K=7168.");
  b.id = "b";
  const auto got = predict({a, b}, "roofline");
  REQUIRE(got.count("a") == 1);
  REQUIRE(got.count("b") == 1);
  CHECK(got.at("a").predicted == Approx(1979).epsilon(1e-9));
  const double flops = 2.0 * 4 * 256 * 4096 * 7168;
  const double bytes = 4.0 * (256.0 * 7168 + 7168.0 * 4096 + 256.0 * 4096);
  CHECK(got.at("b").predicted == Approx(flops / (bytes / 3.35e12) * 1e-12).epsilon(1e-9));
  CHECK(got.at("b").predicted == Approx(1562).epsilon(1e-3));
}

TEST_CASE("new metrics: itl and decode_tok_s_per_user from the decode step", "[validate-data][new-metrics]") {
  DataRow tpot = decode_row("tpot", "10", "ms");
  DataRow itl = decode_row("itl", "10", "ms");
  DataRow per_user = decode_row("decode_tok_s_per_user", "100", "tok/s");
  for (const std::string latency : {"overlap", "calibrated"}) {
    const auto got = predict({tpot, itl, per_user}, latency);
    REQUIRE(got.size() == 3);
    // Fixed OSL, one token per step: the token-weighted mean gap is the mean decode step.
    CHECK(got.at("itl").predicted == got.at("tpot").predicted);
    CHECK(got.at("decode_tok_s_per_user").predicted == Approx(1e3 / got.at("tpot").predicted).epsilon(1e-12));
  }
  // Speculative decoding: several tokens per step, uneven gaps.
  itl.notes = "EAGLE speculative decoding, 3 draft tokens";
  RowPlan p = plan_row(itl, aliases(), kRoot);
  CHECK_FALSE(p.mapped);
  CHECK(p.reason.find("speculative") != std::string::npos);
  per_user.unit = "ms";
  CHECK_FALSE(plan_row(per_user, aliases(), kRoot).mapped);
}

TEST_CASE("new metrics: mfu only with the source's FLOPs counted as Tessera's",
          "[validate-data][new-metrics]") {
  DataRow m = decode_row("mfu", "5", "%");
  RowPlan p = plan_row(m, aliases(), kRoot);
  CHECK_FALSE(p.mapped);
  CHECK(p.reason.find("dense peak") != std::string::npos);
  m.notes = "mfu_flops=model, peak=dense";
  p = plan_row(m, aliases(), kRoot);
  REQUIRE(p.mapped);
  CHECK(p.derived == Derived::mfu);
  // The FLOPs of the step do not depend on the latency model: mfu x TPOT is the same for all.
  DataRow tpot = decode_row("tpot", "10", "ms");
  double product = 0;
  for (const std::string latency : {"roofline", "overlap", "calibrated"}) {
    const auto got = predict({m, tpot}, latency);
    REQUIRE(got.size() == 2);
    const double x = got.at("mfu").predicted / 100 * got.at("tpot").predicted * 1e-3;  // FLOP / peak / PEs
    if (product == 0) product = x;
    CHECK(x == Approx(product).epsilon(1e-9));
  }
  // Llama-3.1-8B, B = 8, one PE: at least 2 x 8 x 7.5e9 FLOP (the non-embedding weights) per step,
  // over the H100's 989 TFLOP/s bf16 peak: >= 121 us of peak time.
  CHECK(product >= 2.0 * 8 * 7.5e9 / 989e12);
  CHECK(product <= 2.0 * 8 * 8.1e9 / 989e12 * 1.2);  // attention at 1152 tokens adds < 20 %
}

TEST_CASE("new metrics: the MLPerf Offline row is a ceiling", "[validate-data][new-metrics]") {
  const std::string file = kRoot + "/data/measurements-2024-2026.csv";
  std::vector<DataRow> rows;
  for (const DataRow& r : read_measurements(file))
    if (r.metric == "mlperf_offline_throughput") rows.push_back(r);
  REQUIRE(rows.size() == 2);
  RowPlan p = plan_row(rows[0], aliases(), kRoot);  // 261: 8 x H200, tp 1, fp8
  REQUIRE(p.mapped);
  CHECK(p.bound);
  CHECK(p.measure == Measure::offline_bound);
  CHECK(p.output == 291);  // 31302.7 tok/s / 107.477 samples/s
  CHECK(p.config.dp == 8);
  p = plan_row(rows[1], aliases(), kRoot);  // 267: B200, precision not stated
  CHECK_FALSE(p.mapped);
  CHECK(p.reason.find("not stated") != std::string::npos);
  for (const std::string latency : {"roofline", "overlap", "calibrated"}) {
    ValidateOptions o;
    o.latency = {latency};
    o.data_root = kRoot;
    const auto rep = validate_data(rows, registry(), o).at(0);
    REQUIRE(rep.rows.size() == 1);
    CHECK(rep.rows[0].bound);
    CHECK(rep.rows[0].predicted > rep.rows[0].measured);  // a ceiling
    CHECK(rep.overall.n == 0);                            // in no median
    REQUIRE(rep.by_group.size() == 1);
    CHECK(rep.by_group[0].first == kGroupOfflineBound);
  }
}

}  // namespace test_new_metrics
