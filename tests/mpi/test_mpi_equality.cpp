// The outputs of a study across 1, 2 and 4 MPI ranks are those of one process, byte for byte
// (core/workers/mpi_job.hpp): text, --json, --csv, --html.
#include <catch2/catch.hpp>
#include <fstream>

#include "mpi_run.hpp"

using namespace tessera::test;

namespace {

void check_same_as_one_process(const std::string& study, const std::string& args, bool csv = true) {
  const TempDir d;
  const RunOutputs one = outputs_on(d, 0, study, args, csv);
  REQUIRE(one.run.status == 0);
  REQUIRE_FALSE(one.json.empty());
  REQUIRE_FALSE(one.html.empty());
  for (int ranks : {1, 2, 4}) {
    INFO(ranks << " ranks: " << study << " " << args);
    const RunOutputs many = outputs_on(d, ranks, study, args, csv);
    INFO(many.run.err);
    REQUIRE(many.run.status == 0);
    CHECK(many.run.out == one.run.out);
    CHECK(many.json == one.json);
    CHECK(many.csv == one.csv);
    CHECK(many.html == one.html);
  }
}

}  // namespace

TEST_CASE("mpi: run gives the one-process outputs on 1 2 and 4 ranks") {
  check_same_as_one_process("run",
                            std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-70b-decode-4k-h100.yaml");
}

TEST_CASE("mpi: explore gives the one-process outputs on 1 2 and 4 ranks") {
  check_same_as_one_process(
      "explore", std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-8b-sram-capacity-explore.yaml",
      false);
}

TEST_CASE("mpi: more ranks than work units leaves ranks idle and gives the same outputs") {
  // Two hardware points on four ranks of one thread: two ranks get no unit.
  const TempDir d;
  const std::string scenario = d / "two_points.yaml";
  std::ofstream(scenario) << "schema_version: 1\nkind: scenario\nname: two_points\nmodel: "
                          << TESSERA_SOURCE_DIR << "/models/llama3.1-8b.yaml\nmachine: " << TESSERA_SOURCE_DIR
                          << "/machines/dgx-h100.yaml\nworkload: {mode: decode, context: 4K, batch: 1}\n"
                             "sweep:\n  parallelism: {tp: [1, 2, 4, 8]}\n  hardware:\n"
                             "    machine.pe.hbm.bandwidth: [2 TB/s, 4 TB/s]\n";
  check_same_as_one_process("explore", scenario + " --threads 1", false);
}

TEST_CASE("mpi: serve gives the one-process outputs on 1 2 and 4 ranks") {
  check_same_as_one_process(
      "serve", std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-70b-serve-4k1k-h100.yaml", false);
}

TEST_CASE("mpi: sensitivity - searches merged on every rank - gives the one-process outputs") {
  check_same_as_one_process(
      "sensitivity", std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-8b-decode-4k-h100.yaml", false);
}

TEST_CASE("mpi: compare gives the one-process outputs on 1 2 and 4 ranks") {
  check_same_as_one_process(
      "compare", std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-70b-compare-latency-models.yaml",
      false);
}

TEST_CASE("mpi: a bad input fails on every rank with exit status 2 and one message") {
  const IsolatedRun r = run_ranks(2, "run /nonexistent.yaml");
  CHECK(r.status == 2);
  // Said once, by rank 0.
  const std::string needle = "nonexistent.yaml";
  const auto first = r.err.find(needle);
  REQUIRE(first != std::string::npos);
  CHECK(r.err.find("error", 0) != std::string::npos);
  CHECK(r.err.find(needle, r.err.find('\n', first)) == std::string::npos);
}
