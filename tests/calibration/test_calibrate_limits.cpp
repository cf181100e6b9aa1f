// The limits that bound a calibration's work (docs/limits.md "Work"). A fit over more distinct
// predictions than calibrate.fit_predictions runs on a sample: every (source, profile) group keeps
// an equal share of the limit, a group smaller than its share keeps all its predictions, the picks
// are spread over the group and the same rows give the same sample; the calibration says so and
// still scores every row. More held-out folds than calibrate.folds are refused before any fit.
#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <set>

#include "analysis/calibration/calibration_study.hpp"
#include "analysis/calibration/fit_sample.hpp"
#include "registry_fixture.hpp"
#include "tessera/limits.hpp"
#include "tessera_build_paths.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_calibrate_limits {

using namespace tessera;
using namespace tessera::calibration;

namespace {

// Rows of one source: `distinct` predictions (each its own prepared row), each `copies` times.
struct Rows {
  std::vector<FitRow> rows;
  void add(const std::string& source, std::size_t distinct, std::size_t copies,
           const std::string& family = "TEST", const std::string& framework = "none") {
    for (std::size_t i = 0; i < distinct; ++i) {
      auto prep = std::make_shared<const accuracy::PreparedRow>();
      for (std::size_t k = 0; k < copies; ++k) {
        FitRow r;
        r.source = source;
        r.family = family;
        r.framework = framework;
        r.id = source + "-" + std::to_string(i) + "-" + std::to_string(k);
        r.prep = prep;
        rows.push_back(r);
      }
    }
  }
  std::vector<const FitRow*> pointers() const {
    std::vector<const FitRow*> out;
    for (const FitRow& r : rows) out.push_back(&r);
    return out;
  }
};

std::map<std::string, std::set<const accuracy::PreparedRow*>> predictions_by_source(const FitSample& s) {
  std::map<std::string, std::set<const accuracy::PreparedRow*>> by;
  for (const FitRow* r : s.rows) by[r->source].insert(r->prep.get());
  return by;
}

// The limits in force, restored when the case ends however it ends.
struct LimitsGuard {
  Limits before = current_limits();
  ~LimitsGuard() { set_limits(before); }
};

// A calibration of one shipped CSV of data/ (in sample only unless `folds` says otherwise).
CalibrateOptions shipped(const std::string& csv, std::vector<FoldKind> folds = {FoldKind::in_sample}) {
  CalibrateOptions o;
  o.rows.target = {std::string(TESSERA_SOURCE_DIR) + "/data/" + csv};
  o.rows.data_root = TESSERA_SOURCE_DIR;
  o.folds = std::move(folds);
  return o;
}

}  // namespace

TEST_CASE("fit sample: within the limit every row is fitted", "[calibrate]") {
  Rows r;
  r.add("a", 40, 2);
  r.add("b", 24, 1);
  const FitSample s = fit_sample(r.pointers(), 64);
  CHECK_FALSE(s.sampled());
  CHECK(s.predictions == 64);
  CHECK(s.rows == r.pointers());
}

TEST_CASE("fit sample: each source and profile keeps an equal share", "[calibrate]") {
  Rows r;
  r.add("a", 300, 1);
  r.add("b", 10, 3);  // smaller than its share: kept whole, repeats included
  r.add("c", 100, 1);
  const FitSample s = fit_sample(r.pointers(), 64);
  CHECK(s.sampled());
  CHECK(s.of == 410);
  // The share t is the largest with min(300, t) + min(10, t) + min(100, t) <= 64: 27.
  CHECK(s.predictions == 64);
  const auto by = predictions_by_source(s);
  CHECK(by.at("a").size() == 27);
  CHECK(by.at("b").size() == 10);
  CHECK(by.at("c").size() == 27);
  std::size_t b_rows = 0;
  for (const FitRow* row : s.rows) b_rows += row->source == "b";
  CHECK(b_rows == 30);
  // Spread over the group: a's picks run from its first ninth to its last.
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < 300; ++i)
    if (by.at("a").count(r.rows[i].prep.get())) at.push_back(i);
  REQUIRE(at.size() == 27);
  CHECK(at.front() < 300 / 27);
  CHECK(at.back() >= 300 - 300 / 27);
  // Deterministic.
  const FitSample again = fit_sample(r.pointers(), 64);
  CHECK(again.rows == s.rows);
}

TEST_CASE("fit sample: more groups than the limit keep one prediction of groups spread over them",
          "[calibrate]") {
  Rows r;
  for (const char* src : {"a", "b", "c", "d", "e", "f"}) r.add(src, 4, 1);
  const FitSample s = fit_sample(r.pointers(), 3);
  CHECK(s.predictions == 3);
  const auto by = predictions_by_source(s);
  CHECK(by.size() == 3);
  CHECK(by.count("b") == 1);  // the middle of each third of the six groups
  CHECK(by.count("d") == 1);
  CHECK(by.count("f") == 1);
  for (const auto& [source, preds] : by) CHECK(preds.size() == 1);
}

TEST_CASE("fit sample: every family and profile keeps predictions", "[calibrate]") {
  // One source: a single A100 prediction among 300 H100 ones, then a second source of H100 rows.
  // Without the family in the groups, the evenly spaced picks of the first group skip it.
  Rows r;
  r.add("s1", 1, 1, "H100");
  r.add("s1", 1, 1, "A100");
  r.add("s1", 299, 1, "H100");
  r.add("s2", 100, 1, "H100");
  const FitSample s = fit_sample(r.pointers(), 256);
  CHECK(s.sampled());
  CHECK(s.predictions <= 256);
  std::set<std::string> families;
  for (const FitRow* row : s.rows) families.insert(row->family);
  CHECK(families == std::set<std::string>{"A100", "H100"});
  // More groups than the limit: the groups left out still lend one prediction per profile.
  Rows many;
  for (int i = 0; i < 8; ++i) many.add("s" + std::to_string(i), 2, 1);
  many.add("s8", 2, 1, "TEST", "vllm");  // the only vllm group, last
  const FitSample m = fit_sample(many.pointers(), 4);
  std::set<std::string> profiles;
  for (const FitRow* row : m.rows) profiles.insert(row->framework);
  CHECK(profiles == std::set<std::string>{"none", "vllm"});
  CHECK(m.predictions == 5);
}

TEST_CASE("fit sample: a calibration past the limit says so and scores every row", "[calibrate]") {
  const LimitsGuard guard;
  Limits small = guard.before;
  small.calibrate_fit_predictions = 40;
  set_limits(small);
  const CalibrateOptions o = shipped("measurements-h200.csv");
  const Calibration c = calibrate(test::registry(), o);
  REQUIRE(c.data.distinct > 40);
  bool noted = false;
  for (const std::string& n : c.notes)
    noted =
        noted || (n.rfind("fitted on ", 0) == 0 && n.find("calibrate.fit_predictions") != std::string::npos);
  CHECK(noted);
  REQUIRE(c.protocol.size() == 1);
  CHECK(c.protocol[0].pooled().size() == c.data.rows.size());
}

TEST_CASE("calibrate limits: a sample with fewer predictions than fitted values is refused", "[calibrate]") {
  const LimitsGuard guard;
  Limits small = guard.before;
  small.calibrate_fit_predictions = 3;  // more groups than 3: three of them, and one more whose family or
  set_limits(small);                    // profile the three leave out
  const CalibrateOptions o = shipped("measurements-h200.csv");
  CHECK_THROWS_WITH(
      calibrate(test::registry(), o),
      Catch::Matchers::Contains("the fit sample holds 4 distinct predictions for 17 fitted values") &&
          Catch::Matchers::Contains("raise --limit calibrate.fit_predictions"));
}

TEST_CASE("calibrate limits: more held-out folds than the limit are refused before any fit", "[calibrate]") {
  const LimitsGuard guard;
  Limits small = guard.before;
  small.calibrate_folds = 5;
  set_limits(small);
  CalibrateOptions o =
      shipped("measurements.csv", {FoldKind::in_sample, FoldKind::leave_one_source_out});  // 6 sources
  bool folded = false;
  o.on_fold = [&](const std::string&) { folded = true; };
  CHECK_THROWS_WITH(calibrate(test::registry(), o),
                    Catch::Matchers::Contains("the held-out folds (6,") &&
                        Catch::Matchers::Contains("exceeds the limit calibrate.folds (5)") &&
                        Catch::Matchers::Contains("--folds in-sample"));
  CHECK_FALSE(folded);
  o.folds = {FoldKind::in_sample};  // no held-out fold: within any limit
  CHECK_NOTHROW(calibrate(test::registry(), o));
}

}  // namespace test_calibrate_limits
