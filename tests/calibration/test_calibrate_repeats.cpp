// `tessera calibrate` on a CSV that repeats rows (docs/limits.md "Work"): rows whose cells differ
// only in id, source and value share one prepared prediction, the fit's data term over them equals
// the row-by-row sum (values spread across the Huber loss's quadratic and linear parts, after the
// state moves and when it moves back), and the files the rows were read through are handed to
// the caller before any fit.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <map>

#include "../outputs/output_test_util.hpp"
#include "analysis/calibration/calibration_study.hpp"
#include "analysis/calibration/data_term.hpp"
#include "registry_fixture.hpp"
#include "tessera/error.hpp"
#include "tessera_build_paths.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_calibrate_repeats {

using namespace tessera;
using namespace tessera::calibration;

namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// `copies` copies of each of the H200 file's first `n` GEMM rows, ids 1.., two sources, each
// copy's value the row's times a factor from 0.7 to 1.4.
std::string repeated_gemm_csv(std::size_t n, std::size_t copies) {
  const std::string root = TESSERA_SOURCE_DIR;
  std::string csv =
      "id,source,source_locator,software,model,precision,hardware,n_devices,tp,pp,ep,batch,input_len,"
      "output_len,metric,value,unit,notes\n";
  std::size_t id = 0, taken = 0;
  for (const accuracy::DataRow& r : accuracy::read_measurements(root + "/data/measurements-h200.csv")) {
    if (r.metric != "kernel_latency" || r.notes.rfind("M=", 0) != 0 || taken == n) continue;
    ++taken;
    for (std::size_t k = 0; k < copies; ++k) {
      const double factor = 0.7 + 0.7 * static_cast<double>(k) / static_cast<double>(copies);
      csv += std::to_string(++id) + "," + (k % 2 ? "source A" : "source B") + "," + quoted(r.source_locator) +
             "," + quoted(r.software) + "," + quoted(r.model) + "," + r.precision + "," + quoted(r.hardware) +
             "," + r.n_devices + "," + r.tp + "," + r.pp + "," + r.ep + "," + r.batch + "," + r.input_len +
             "," + r.output_len + "," + r.metric + "," + std::to_string(std::stod(r.value) * factor) + "," +
             r.unit + "," + quoted(r.notes) + "\n";
    }
  }
  REQUIRE(taken == n);
  return csv;
}

double huber(double x) {
  const double a = std::abs(x);
  return a <= 0.1 ? 0.5 * a * a : 0.1 * (a - 0.05);
}

// The data term row by row: each (source, profile) group's mean Huber loss, weighted.
double row_by_row(const std::vector<const FitRow*>& rows, const FitState& s, const Predictor& p,
                  double extra) {
  const std::vector<double> pred = p.predict(rows, s);
  std::map<std::string, std::pair<double, double>> by;
  std::map<std::string, double> weight;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string key = rows[i]->source + "/" + rows[i]->profile_key();
    by[key].first +=
        std::isfinite(pred[i]) && pred[i] > 0 ? huber(std::log(pred[i] / rows[i]->measured)) : huber(5);
    by[key].second += 1;
    weight[key] = rows[i]->extra ? extra : 1.0;
  }
  double total = 0;
  for (const auto& [key, b] : by) total += weight[key] * b.first / b.second;
  return total;
}

FitRowOptions options(const std::string& csv) {
  FitRowOptions ro;
  ro.target = {csv};
  ro.data_root = TESSERA_SOURCE_DIR;
  ro.framework = "none";
  ro.family = "TEST";
  return ro;
}

}  // namespace

TEST_CASE("calibrate: repeated rows share one prepared prediction", "[calibrate]") {
  test::TempDir dir;
  std::ofstream(dir / "repeated.csv") << repeated_gemm_csv(3, 40);
  const FitData d = load_fit_rows(options(dir / "repeated.csv"));
  REQUIRE(d.rows.size() == 120);
  CHECK(d.distinct == 3);
  std::vector<const FitRow*> all;
  for (const FitRow& r : d.rows) all.push_back(&r);
  const DistinctRows distinct = distinct_predictions(all);
  CHECK(distinct.rows.size() == 3);
  CHECK(d.rows[0].prep == d.rows[39].prep);
  CHECK(d.rows[0].prep != d.rows[40].prep);
  CHECK(d.rows[0].measured != d.rows[1].measured);  // each row keeps its own value
  CHECK(d.rows[1].row->id == "2");
}

TEST_CASE("calibrate: the data term over repeated rows is their row-by-row sum", "[calibrate]") {
  test::TempDir dir;
  std::ofstream(dir / "repeated.csv") << repeated_gemm_csv(3, 40);
  FitData d = load_fit_rows(options(dir / "repeated.csv"));
  d.rows[5].extra = true;  // the last row of a group sets its weight
  std::vector<const FitRow*> all;
  for (const FitRow& r : d.rows) all.push_back(&r);
  const Predictor predictor(test::registry(), "calibrated");
  FitState a, b;
  a.family["TEST"] = {{"gemm_efficiency", 0.7}, {"hbm_efficiency", 0.8}, {"kernel_overhead", 3e-6}};
  b.family["TEST"] = {{"gemm_efficiency", 0.4}, {"hbm_efficiency", 0.5}, {"kernel_overhead", 9e-6}};
  DataTerm term(all, 0.5);
  CHECK(term.predictions() == 3);
  for (const FitState* s : {&a, &b, &a, &a}) {
    const double expected = row_by_row(all, *s, predictor, 0.5);
    CHECK_THAT(term(*s, predictor), Catch::Matchers::WithinRel(expected, 1e-12));
    CHECK_THAT(data_loss(all, *s, predictor, 0.5), Catch::Matchers::WithinRel(expected, 1e-12));
  }
}

TEST_CASE("calibrate: the files the rows were read through are known before any fit", "[calibrate]") {
  const std::string root = TESSERA_SOURCE_DIR;
  CalibrateOptions o;
  o.rows.target = {root + "/data/measurements.csv"};
  o.rows.data_root = root;
  std::vector<std::string> files;
  o.on_inputs = [&](const std::vector<std::string>& f) {
    files = f;
    throw InputError("stop before the fit");
  };
  CHECK_THROWS_AS(calibrate(test::registry(), o), InputError);
  auto has = [&](const std::string& part) {
    for (const std::string& f : files)
      if (f.find(part) != std::string::npos) return true;
    return false;
  };
  CHECK(has("data/measurements.csv"));
  CHECK(has("aliases.yaml"));
  CHECK(has("machines/dgx-a100-80gb.yaml"));
  CHECK(has("models/"));
}

}  // namespace test_calibrate_repeats
