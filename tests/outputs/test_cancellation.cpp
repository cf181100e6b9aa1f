// Runs stopped at seeded points: a progress callback requests cancellation after its k-th
// call; the search must stop before its next batch and leave no partial, stale or temporary
// file at any final path, through the same output layer `tessera run` uses.
#include <algorithm>
#include <catch2/catch.hpp>

#include "analysis/accuracy/accuracy_study.hpp"
#include "analysis/search/compare.hpp"
#include "core/cancellation.hpp"
#include "output_files.hpp"
#include "output_test_util.hpp"
#include "report/study_text/search_report.hpp"
#include "search_fixture.hpp"

using tessera::cli::OutputFile;
using tessera::cli::Outputs;
using namespace tessera;
using namespace tessera::test;

namespace {

struct Outcome {
  bool cancelled = false;
  std::size_t calls = 0;
  std::uint64_t evaluated = 0;
};

// `tessera run --csv DIR/all.csv --json DIR/summary.json` in-process, the search cut after the
// k-th progress callback (k = 0: never).
Outcome run_cut_at(const Session& session, const TempDir& dir, std::size_t k) {
  clear_cancellation();
  Outcome out;
  const auto strategy = registry().create_search(choice("exhaustive"));
  try {
    Outputs outputs;
    OutputFile* csv = outputs.add("--csv", dir / "all.csv");
    OutputFile* json = outputs.add("--json", dir / "summary.json");
    SearchOptions so;
    so.threads = 2;
    so.batch = 64;
    so.on_progress = [&](const ProgressEvent& e) {
      out.evaluated = e.done;
      if (++out.calls == k) request_cancellation();
    };
    const StudyDescription d = describe_study(session);
    write_search_csv_header(csv->stream(), d, d.objectives);
    so.on_record = [&](const ConfigRecord& r) { write_search_csv_row(csv->stream(), d, d.objectives, r); };
    const SearchResult result = run_search(session, *strategy, so);
    json->stream() << search_json(session, result).dump(2) << "\n";
    outputs.commit_all();
  } catch (const Cancelled&) {
    out.cancelled = true;
  }
  clear_cancellation();
  return out;
}

}  // namespace

TEST_CASE("a search cancelled after the k-th progress callback leaves no file behind") {
  const Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  const Session session(sc, registry());
  // The uncut run: how many callbacks there are, and the files it writes.
  TempDir full;
  const Outcome all = run_cut_at(session, full, 0);
  REQUIRE_FALSE(all.cancelled);
  REQUIRE(all.calls > 17);
  REQUIRE(full.names() == std::vector<std::string>{"all.csv", "summary.json"});
  const std::string csv = slurp(full / "all.csv");
  CHECK(static_cast<std::uint64_t>(std::count(csv.begin(), csv.end(), '\n')) == all.evaluated + 1);

  for (std::size_t k : {1u, 2u, 5u, 17u}) {
    CAPTURE(k);
    SECTION("cut at k (fresh folder)") {
      TempDir d;
      const Outcome o = run_cut_at(session, d, k);
      CHECK(o.cancelled);
      CHECK(o.calls == k);  // stopped before the next batch
      CHECK(d.names().empty());
    }
    SECTION("cut at k (previous results stay as they were)") {
      TempDir d;
      spit(d / "all.csv", "previous csv\n");
      spit(d / "summary.json", "previous json\n");
      const Outcome o = run_cut_at(session, d, k);
      CHECK(o.cancelled);
      CHECK(d.names() == std::vector<std::string>{"all.csv", "summary.json"});
      CHECK(slurp(d / "all.csv") == "previous csv\n");
      CHECK(slurp(d / "summary.json") == "previous json\n");
    }
  }
  // Cancellation requested in the last callback: the search has nothing left to do, but the
  // request still wins: nothing is committed.
  SECTION("cut at the last callback") {
    TempDir d;
    const Outcome o = run_cut_at(session, d, all.calls);
    CHECK(o.cancelled);
    CHECK(d.names().empty());
  }
}

TEST_CASE("compare reports progress to its total and stops when a callback cancels") {
  const Scenario sc = load("llama3.1-70b-compare-latency-models.yaml");
  std::vector<std::unique_ptr<Session>> sessions;
  std::vector<const Session*> ptrs;
  for (std::size_t i = 0; i < sc.plugins.latency.size(); ++i) {
    sessions.push_back(std::make_unique<Session>(sc, registry(), i));
    ptrs.push_back(sessions.back().get());
  }
  REQUIRE(ptrs.size() >= 2);
  clear_cancellation();
  SECTION("uncut") {
    ProgressEvent last;
    CompareOptions co;
    co.threads = 2;
    co.on_progress = [&](const ProgressEvent& e) { last = e; };
    compare_models(ptrs, co);
    CHECK(last.total > 0);
    CHECK(last.done == last.total);
    CHECK(std::string(last.phase) == "configurations");
  }
  SECTION("cut at the first callback") {
    std::size_t calls = 0;
    CompareOptions co;
    co.threads = 2;
    co.on_progress = [&](const ProgressEvent&) {
      ++calls;
      request_cancellation();
    };
    CHECK_THROWS_AS(compare_models(ptrs, co), Cancelled);
    CHECK(calls == 1);
  }
  clear_cancellation();
}

TEST_CASE("validate-data reports progress per phase and stops when a callback cancels") {
  const std::string root = TESSERA_SOURCE_DIR;
  const auto rows = accuracy::read_measurements(root + "/data/measurements-h200.csv");
  REQUIRE(rows.size() > 64);
  accuracy::ValidateOptions vo;
  vo.latency = {"roofline"};
  vo.data_root = root;
  clear_cancellation();
  SECTION("uncut") {
    std::vector<std::string> phases;
    vo.on_progress = [&](const ProgressEvent& e) {
      if (phases.empty() || phases.back() != e.phase) phases.push_back(e.phase);
    };
    const auto reports = accuracy::validate_data(rows, registry(), vo);
    CHECK(reports.size() == 1);
    CHECK(phases == std::vector<std::string>{"rows prepared", "rows predicted"});
  }
  SECTION("cut in the prediction loop") {
    std::size_t predicted_calls = 0;
    vo.on_progress = [&](const ProgressEvent& e) {
      if (std::string(e.phase) != "rows predicted") return;
      ++predicted_calls;
      request_cancellation();
    };
    CHECK_THROWS_AS(accuracy::validate_data(rows, registry(), vo), Cancelled);
    CHECK(predicted_calls == 1);
  }
  clear_cancellation();
}
