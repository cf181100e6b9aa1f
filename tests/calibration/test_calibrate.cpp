// `tessera calibrate`: the fold splitter, the percentiles, "—" over zero rows, the refusals, and
// a fit on synthetic rows generated from known constants that recovers them.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <map>

#include "../outputs/output_test_util.hpp"
#include "analysis/calibration/calibration_study.hpp"
#include "analysis/calibration/folds.hpp"
#include "analysis/calibration/percentiles.hpp"
#include "registry_fixture.hpp"
#include "report/study_text/calibration_report.hpp"
#include "studies/documents/calibration_document.hpp"
#include "tessera/error.hpp"
#include "tessera_build_paths.hpp"

using namespace tessera;
using namespace tessera::calibration;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

FitRow row(const char* id, const char* source, const char* family, const char* fw, const char* version) {
  FitRow r;
  r.id = id;
  r.source = source;
  r.family = family;
  r.framework = fw;
  r.version = version;
  return r;
}

std::vector<FitRow> four_rows() {
  return {row("1", "S1", "A100", "vllm", "0.6.3"), row("2", "S2", "A100", "tensorrt-llm", ""),
          row("3", "S1", "H100/H200", "vllm", "0.6.3"), row("4", "S3", "H100/H200", "vllm", "0.8")};
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string message_of(const CalibrateOptions& o) {
  try {
    calibrate(test::registry(), o);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("calibrate: leave one source out holds out each source's rows", "[calibrate]") {
  const auto folds = make_folds(four_rows(), FoldKind::leave_one_source_out);
  REQUIRE(folds.size() == 3);
  CHECK(folds[0].held_out == "S1");
  CHECK(folds[0].test == std::vector<std::size_t>{0, 2});
  CHECK(folds[0].train == std::vector<std::size_t>{1, 3});
  CHECK(folds[1].held_out == "S2");
  CHECK(folds[1].test == std::vector<std::size_t>{1});
  CHECK(folds[2].held_out == "S3");
  CHECK(folds[2].test == std::vector<std::size_t>{3});
  CHECK(folds[2].train == std::vector<std::size_t>{0, 1, 2});
}

TEST_CASE("calibrate: family and framework-version folds and in sample", "[calibrate]") {
  const auto fam = make_folds(four_rows(), FoldKind::leave_one_family_out);
  REQUIRE(fam.size() == 2);
  CHECK(fam[0].held_out == "A100");
  CHECK(fam[0].test == std::vector<std::size_t>{0, 1});
  CHECK(fam[1].test == std::vector<std::size_t>{2, 3});
  const auto ver = make_folds(four_rows(), FoldKind::leave_one_stack_version_out);
  REQUIRE(ver.size() == 3);
  CHECK(ver[0].held_out == "vllm@0.6.3");
  CHECK(ver[0].test == std::vector<std::size_t>{0, 2});
  CHECK(ver[1].held_out == "tensorrt-llm@unversioned");
  CHECK(ver[2].held_out == "vllm@0.8");
  CHECK(ver[2].train == std::vector<std::size_t>{0, 1, 2});
  const auto in = make_folds(four_rows(), FoldKind::in_sample);
  REQUIRE(in.size() == 1);
  CHECK(in[0].test == std::vector<std::size_t>{0, 1, 2, 3});
  CHECK(in[0].train == in[0].test);
  FoldKind k;
  CHECK(parse_fold("framework-version", k));
  CHECK(k == FoldKind::leave_one_stack_version_out);
  CHECK_FALSE(parse_fold("sources", k));
}

TEST_CASE("calibrate: a profile is keyed by the stated version unless told otherwise", "[calibrate]") {
  FitRow r = row("1", "S1", "A100", "vllm", "0.6.3");
  CHECK(r.profile_key() == "vllm@0.6.3");
  CHECK(r.framework_version() == "vllm@0.6.3");
  r.key_by_version = false;
  CHECK(r.profile_key() == "vllm");
  CHECK(r.framework_version() == "vllm@0.6.3");  // the fold still holds out one version
  CHECK(row("2", "S2", "A100", "tensorrt-llm", "").profile_key() == "tensorrt-llm");
}

TEST_CASE("calibrate: rows that built a measured table are never fitted or scored", "[calibrate]") {
  FitRowOptions ro;
  const std::string root = TESSERA_SOURCE_DIR;
  ro.target = {root + "/data/measurements-h200.csv"};
  ro.data_root = root;
  ro.table_rows = {{"1003", "h200-gemm"}};
  const FitData d = load_fit_rows(ro);
  for (const FitRow& r : d.rows) CHECK(r.id != "1003");
  bool listed = false;
  for (const SkippedRow& s : d.skipped)
    listed = listed || (s.id == "1003" && s.reason == "used to build table h200-gemm");
  CHECK(listed);
}

TEST_CASE("calibrate: percentiles interpolate between ranks", "[calibrate]") {
  const std::vector<double> v = {4, 1, 3, 2};  // sorted 1 2 3 4: rank h = 3q
  CHECK_THAT(*percentile(v, 0.10), WithinAbs(1.3, 1e-12));
  CHECK_THAT(*percentile(v, 0.50), WithinAbs(2.5, 1e-12));
  CHECK_THAT(*percentile(v, 0.90), WithinAbs(3.7, 1e-12));
  CHECK_THAT(*percentile({5}, 0.9), WithinAbs(5, 1e-12));
  CHECK_THAT(*median({0.1, 0.3, 0.2}), WithinAbs(0.2, 1e-12));
}

TEST_CASE("calibrate: a median over zero rows prints a dash", "[calibrate]") {
  CHECK_FALSE(median({}).has_value());
  CHECK(percent_or_dash(median({})) == "—");
  CHECK(percent_or_dash(0.1234) == "12.3 %");
  CHECK(percent_or_dash(0.0) == "0.0 %");
}

TEST_CASE("calibrate: bad input is refused with the reason", "[calibrate]") {
  test::TempDir dir;
  const std::string root = TESSERA_SOURCE_DIR;
  CalibrateOptions o;
  o.rows.data_root = root;
  o.fit.optimizer.rounds = 1;
  const std::string header =
      "id,source,source_locator,software,model,precision,hardware,n_devices,tp,pp,ep,batch,input_len,output_"
      "len,"
      "metric,value,unit,notes\n";
  {
    std::ofstream(dir / "unmapped.csv")
        << header
        << "7,src,loc,vLLM 0.6.3,NoSuchModel-9B,bf16,A100 80GB,1,1,1,,1,128,1,"
           "ttft,10,ms,\n";
    o.rows.target = {dir / "unmapped.csv"};
    const std::string m = message_of(o);
    CHECK_THAT(m, Contains("no row could be mapped"));
    CHECK_THAT(m, Contains("row 7: "));
  }
  // Two rows of our H200 file, one source: fewer rows than fitted values.
  std::ifstream in(root + "/data/measurements-h200.csv");
  std::string line, head;
  std::getline(in, head);
  std::vector<std::string> lines;
  while (std::getline(in, line) && lines.size() < 3)
    if (line.find("kernel_latency") != std::string::npos && line.find("M=") != std::string::npos)
      lines.push_back(line);
  {
    std::ofstream(dir / "two.csv") << head << "\n" << lines[0] << "\n" << lines[1] << "\n";
    o.rows.target = {dir / "two.csv"};
    o.rows.framework = "none";
    o.folds = {FoldKind::in_sample};
    CHECK_THAT(message_of(o), Contains("2 mapped rows for 5 fitted values"));
  }
  {
    o.fit.min_sources = 1;
    o.rows.target = {root + "/data/measurements-h200.csv"};
    o.rows.exclude_ids = {};
    o.folds = {FoldKind::in_sample, FoldKind::leave_one_source_out};
    const std::string m = message_of(o);
    CHECK_THAT(m, Contains("every row comes from one source"));
    CHECK_THAT(m, Contains("held-out error cannot be measured"));
  }
  {
    o.rows.target = {root + "/data/measurements.csv"};
    o.rows.extra = {root + "/data/../data/measurements.csv"};
    CHECK_THAT(message_of(o), Contains("is named twice (as a target and as --extra)"));
    o.rows.extra.clear();
  }
}

TEST_CASE("calibrate: recovers the constants synthetic rows were generated from", "[calibrate]") {
  const std::string root = TESSERA_SOURCE_DIR;
  test::TempDir dir;
  // The GEMM rows of our H200 file, predicted with known family values (framework none: no host
  // cost), written back as measurements of two sources.
  FitRowOptions ro;
  ro.target = {root + "/data/measurements-h200.csv"};
  ro.data_root = root;
  ro.framework = "none";
  ro.family = "TEST";
  FitData data = load_fit_rows(ro);
  std::vector<const FitRow*> gemm;
  for (const FitRow& r : data.rows)
    if (r.row->metric == "kernel_latency" && r.row->notes.rfind("M=", 0) == 0) gemm.push_back(&r);
  REQUIRE(gemm.size() >= 20);
  FitState truth;
  truth.family["TEST"] = {{"gemm_efficiency", 0.7},
                          {"gemm_m_half", 64},
                          {"hbm_efficiency", 0.8},
                          {"attention_efficiency", 0.5},
                          {"kernel_overhead", 3e-6}};
  const Predictor predictor(test::registry(), "calibrated");
  const std::vector<double> pred = predictor.predict(gemm, truth);
  std::ofstream csv(dir / "synthetic.csv");
  csv << "id,source,source_locator,software,model,precision,hardware,n_devices,tp,pp,ep,batch,input_len,"
         "output_len,metric,value,unit,notes\n";
  for (std::size_t i = 0; i < gemm.size(); ++i) {
    const accuracy::DataRow& r = *gemm[i]->row;
    REQUIRE(std::isfinite(pred[i]));
    csv << r.id << "," << (i % 2 ? "synthetic A" : "synthetic B") << ",loc," << quoted(r.software) << ","
        << quoted(r.model) << "," << r.precision << "," << quoted(r.hardware) << "," << r.n_devices << ","
        << r.tp << "," << r.pp << "," << r.ep << "," << r.batch << "," << r.input_len << "," << r.output_len
        << "," << r.metric << "," << pred[i] << "," << r.unit << "," << quoted(r.notes) << "\n";
  }
  csv.close();
  CalibrateOptions o;
  o.rows.target = {dir / "synthetic.csv"};
  o.rows.data_root = root;
  o.rows.framework = "none";
  o.rows.family = "TEST";
  o.folds = {FoldKind::in_sample, FoldKind::leave_one_source_out};
  o.fit.family_prior_weight = 0;  // no pull towards the defaults: the rows alone set the values
  const Calibration c = calibrate(test::registry(), o);
  REQUIRE(c.fit.parameters() == 5);  // bf16 rows: no 8-bit factor; framework none: no profile
  const auto& fam = c.fit.state.family.at("TEST");
  CHECK_THAT(fam.at("gemm_efficiency"), WithinRel(0.7, 0.03));
  CHECK_THAT(fam.at("hbm_efficiency"), WithinRel(0.8, 0.03));
  CHECK_THAT(fam.at("gemm_m_half"), WithinRel(64.0, 0.15));
  CHECK_THAT(fam.at("kernel_overhead"), WithinRel(3e-6, 0.15));
  const auto in_sample = c.protocol[0].pooled();
  std::vector<double> apes;
  for (const ScoredRow& s : in_sample) apes.push_back(s.ape);
  CHECK(*median(apes) < 0.01);
  std::vector<double> held;
  for (const ScoredRow& s : c.protocol[1].pooled()) held.push_back(s.ape);
  CHECK(*median(held) < 0.03);
  CHECK_THAT(family_block_yaml(c, "TEST"), Contains("efficiency:\n  family: TEST\n  gemm_efficiency: 0."));
  // The --json document (studies/documents/calibration_document.hpp): no provenance when none is given.
  const nlohmann::json doc = calibration_json(c, "tessera calibrate synthetic.csv");
  CHECK(doc.at("command") == "tessera calibrate synthetic.csv");
  CHECK_FALSE(doc.contains("provenance"));
  CHECK(doc.at("fitted_values") == 5);
  REQUIRE(doc.at("protocol").size() == 2);
  CHECK(doc.at("protocol")[0].at("fold") == fold_name(FoldKind::in_sample));
  CHECK(doc.at("protocol")[0].at("rows") == in_sample.size());
}

TEST_CASE("calibrate: single-stage rates of the 2024-2026 file are fitted and deployments are not",
          "[calibrate]") {
  FitRowOptions ro;
  const std::string root = TESSERA_SOURCE_DIR;
  ro.target = {root + "/data/measurements-2024-2026.csv"};
  ro.data_root = root;
  const FitData d = load_fit_rows(ro);
  std::map<std::string, std::size_t> by_metric;
  for (const FitRow& r : d.rows) ++by_metric[r.row->metric];
  CHECK(by_metric["kernel_tflops"] == 18);
  CHECK(by_metric["collective_busbw:all_reduce"] == 9);
  CHECK(by_metric["collective_latency:ep_dispatch"] + by_metric["collective_latency:ep_combine"] == 12);
  CHECK(by_metric.count("mlperf_offline_throughput") == 0);
  CHECK(d.rows.size() == 39);  // the 42 validate-data maps less the bound and the 2 rows apart
  auto reason_of = [&](const std::string& id) {
    for (const SkippedRow& s : d.skipped)
      if (s.id == id) return s.reason;
    return std::string("(not skipped)");
  };
  CHECK_THAT(reason_of("261"), Contains("is not a latency or single-stage metric"));  // MLPerf Offline
  CHECK_THAT(reason_of("232"), Contains("is not a latency or single-stage metric"));  // a deployment
  CHECK_THAT(reason_of("263"), Contains("under a load"));  // MLPerf Server TTFT: simulated, not fitted
  std::size_t apart = 0;
  for (const SkippedRow& s : d.skipped) apart += s.reason.find("reported apart") != std::string::npos;
  CHECK(apart == 2);  // the hardware-ambiguous MoE rows
}

TEST_CASE("calibrate: a band rests on whole steps and requests only", "[calibrate]") {
  Calibration c;
  c.latency = "calibrated";
  const accuracy::Measure measures[] = {accuracy::Measure::decode_step, accuracy::Measure::collective,
                                        accuracy::Measure::gemm, accuracy::Measure::prefill};
  ProtocolScore loso;
  loso.kind = FoldKind::leave_one_source_out;
  FoldScore f;
  for (std::size_t i = 0; i < 4; ++i) {
    FitRow r = row(std::to_string(i).c_str(), i % 2 ? "S1" : "S2", "H100/H200", "vllm", "0.8");
    auto prep = std::make_shared<accuracy::PreparedRow>();
    prep->plan.measure = measures[i];
    r.prep = prep;
    c.data.rows.push_back(r);
    ScoredRow s;
    s.row = i;
    s.ok = true;
    s.ln_ratio = 0.1 * static_cast<double>(i + 1);
    f.scored.push_back(s);
  }
  loso.folds.push_back(f);
  const std::vector<Band> bands = error_bands(c, loso);
  REQUIRE(bands.size() == 2);  // vllm and the family's pool
  CHECK(bands[0].framework == "vllm");
  CHECK(bands[0].rows == 2);  // the decode step (0.1) and the prefill (0.4); not the collective or GEMM
  CHECK_THAT(bands[0].p50, WithinAbs(0.25, 1e-12));
  CHECK(bands[0].sources == 2);  // row 0 from S2, row 3 from S1
}
