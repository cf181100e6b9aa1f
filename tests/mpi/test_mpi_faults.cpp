// A rank that dies ends the job within seconds, named; the study resumes from its checkpoint
// (written by rank 0) and gives the uninterrupted run's results.
#include <catch2/catch.hpp>

#include "mpi_run.hpp"

using namespace tessera::test;

TEST_CASE("mpi: a rank that dies ends the job within seconds naming it and the study resumes") {
  const TempDir d;
  // Llama-3.1-8B decode on DGX H100 at twelve HBM bandwidths with the broken fixture behaving
  // (fault: none) unless TESSERA_BROKEN_FAULT says otherwise: time_step_rankkill kills rank 1
  // as it starts its third hardware point. --threads 1: one point at a time on each rank.
  const std::string scenario = fault_scenario(
      d, "mpi_death", "none",
      "sweep:\n  parallelism: {tp: [1, 2, 4, 8], pp: [1, 2], dp: [1, 2]}\n  hardware:\n"
      "    machine.pe.hbm.bandwidth: [1 TB/s, 2 TB/s, 3 TB/s, 4 TB/s, 5 TB/s, 6 TB/s, 7 TB/s, 8 TB/s, 9 TB/s,"
      " 10 TB/s, 11 TB/s, 12 TB/s]\n");
  const std::string plugins = " --plugin-path " + broken_plugin_dir() + " --threads 1";
  const TempDir ref_out;
  const IsolatedRun reference =
      run_tessera_cli("explore " + scenario + plugins + " --no-isolate --json " + ref_out / "r.json");
  REQUIRE(reference.status == 0);

  const IsolatedRun died = run_ranks(2,
                                     "explore " + scenario + plugins + " --checkpoint " + d / "ck" +
                                         " --checkpoint-every 0 --json " + d / "r.json",
                                     "-x TESSERA_BROKEN_FAULT=time_step_rankkill");
  INFO(died.err);
  CHECK(died.status != 0);
  CHECK(died.seconds < 30);
  CHECK(died.err.find("rank 1") != std::string::npos);
  CHECK_FALSE(fs::exists(d / "r.json"));  // no half-written output
  REQUIRE(fs::exists(d / "ck"));

  const IsolatedRun resumed =
      run_ranks(2, "explore " + scenario + plugins + " --resume " + d / "ck" + " --json " + d / "r.json");
  INFO(resumed.err);
  REQUIRE(resumed.status == 0);
  CHECK(resumed.err.find("resumed after") != std::string::npos);  // it had merged units to resume from
  CHECK(document_without_command(d / "r.json") == document_without_command(ref_out / "r.json"));
}
