// studies/json/stage_parts.hpp and report/stage_breakdown.*: a stage's visible time split into the
// four stacked parts (hand-computed), and `run --json` / `serve --json`'s `breakdowns` end to
// end: keyed by the ids of `points`, best / frontier / top carry one, the parts add up to the
// stage's visible time (docs/report.md).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "output_test_util.hpp"
#include "studies/json/stage_breakdown.hpp"
#include "studies/json/stage_parts.hpp"
#include "tessera_build_paths.hpp"

#include <sys/wait.h>

using nlohmann::json;
using tessera::test::TempDir;

namespace {

json cli_json(const std::string& args, const TempDir& dir) {
  const std::string exe = std::string(TESSERA_BINARY_DIR) + "/bin/tessera";
  const std::string out = dir / "r.json";
  const std::string cmd =
      "TESSERA_PLUGIN_PATH= " + exe + " " + args + " -q --json " + out + " >/dev/null 2>&1";
  const int rc = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(rc));
  REQUIRE(WEXITSTATUS(rc) == 0);
  std::ifstream in(out);
  return json::parse(in);
}

double sum_parts(const json& s) {
  return s.at("compute_s").get<double>() + s.at("memory_s").get<double>() +
         s.at("communication_s").get<double>() + s.at("overhead_s").get<double>();
}

}  // namespace

TEST_CASE("stage parts split the visible time into busy exposed communication and overhead") {
  // Memory-bound: busy = max(1, 3) = 3 ms as memory; comm 2 ms of the 7 - 3 = 4 ms left; overhead 2 ms.
  const tessera::StageParts m = tessera::stage_parts(1e-3, 3e-3, 2e-3, 7e-3);
  CHECK(m.compute_s == 0);
  CHECK(m.memory_s == Approx(3e-3));
  CHECK(m.communication_s == Approx(2e-3));
  CHECK(m.overhead_s == Approx(2e-3));
  // Compute-bound with communication partly hidden: busy 4, comm min(5, 6 - 4) = 2, overhead 0.
  const tessera::StageParts c = tessera::stage_parts(4e-3, 1e-3, 5e-3, 6e-3);
  CHECK(c.compute_s == Approx(4e-3));
  CHECK(c.memory_s == 0);
  CHECK(c.communication_s == Approx(2e-3));
  CHECK(c.overhead_s == 0);
  // Busy time above the visible time (overlapped elsewhere) is clipped to it.
  const tessera::StageParts o = tessera::stage_parts(9e-3, 0, 1e-3, 5e-3);
  CHECK(o.compute_s == Approx(5e-3));
  CHECK(o.communication_s == 0);
  CHECK(o.overhead_s == 0);
}

TEST_CASE("stage parts json keeps the name and count and the four parts per occurrence") {
  tessera::StageList stages;
  tessera::Stage& s = stages.push();
  s.name = "attn.qkv";
  s.count = 80;
  s.compute_s = 1e-4;
  s.memory_s = 1e-3;
  s.comm_s = 0;
  s.visible_s = 1.2e-3;
  const json j = tessera::stage_parts_json(stages);
  REQUIRE(j.size() == 1);
  CHECK(j[0].at("name") == "attn.qkv");
  CHECK(j[0].at("count").get<double>() == 80);
  CHECK(j[0].at("compute_s").get<double>() == 0);
  CHECK(j[0].at("memory_s").get<double>() == Approx(1e-3));
  CHECK(j[0].at("communication_s").get<double>() == 0);
  CHECK(j[0].at("overhead_s").get<double>() == Approx(2e-4));  // 1.2 ms - 1 ms
}

TEST_CASE("run json carries a breakdown for the best the frontier and the top N keyed by point id") {
  TempDir dir;
  const json r = cli_json("run", dir);
  const json& b = r.at("breakdowns");
  const std::string best = std::to_string(r.at("best").at("id").get<std::uint64_t>());
  REQUIRE(b.contains(best));
  // The best's parts add up to each stage's visible time (best.stages, explain's numbers).
  const json& stages = r.at("best").at("stages");
  REQUIRE(b.at(best).size() == stages.size());
  for (std::size_t i = 0; i < stages.size(); ++i) {
    CHECK(b.at(best)[i].at("name") == stages[i].at("name"));
    CHECK(b.at(best)[i].at("count") == stages[i].at("count"));
    CHECK(sum_parts(b.at(best)[i]) == Approx(stages[i].at("visible_s").get<double>()).epsilon(1e-12));
  }
  for (const json& e : r.at("pareto")) CHECK(b.contains(std::to_string(e.at("id").get<std::uint64_t>())));
  for (const json& e : r.at("top")) CHECK(b.contains(std::to_string(e.at("id").get<std::uint64_t>())));
  CHECK(b.size() <= tessera::kMaxBreakdowns);
  // Every breakdown's id names a point with the same configuration (when the point was sampled).
  std::set<std::string> ids;
  std::size_t matched = 0;
  for (const json& p : r.at("points")) ids.insert(std::to_string(p.at("id").get<std::uint64_t>()));
  for (const auto& [id, steps] : b.items()) matched += ids.count(id);
  CHECK(matched > 0);
  for (const json& p : r.at("points"))
    if (std::to_string(p.at("id").get<std::uint64_t>()) == best)
      CHECK(p.at("config").get<std::string>().find("cp=" +
                                                   std::to_string(r.at("best").at("cp").get<int>())) == 0);
}

TEST_CASE("serve json carries the prefill and decode steps of the frontier and each pool's for a pair") {
  TempDir dir;
  const json r = cli_json(
      "serve " + std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-70b-serve-4k1k-h100-disagg.yaml",
      dir);
  const json& b = r.at("breakdowns");
  for (const json& e : r.at("frontier")) {
    const std::string id = std::to_string(e.at("id").get<std::uint64_t>());
    REQUIRE(b.contains(id));
    CHECK(!b.at(id).at("prefill").empty());
    CHECK(!b.at(id).at("decode").empty());
    for (const json& s : b.at(id).at("decode")) CHECK(sum_parts(s) >= 0);
  }
  const json& d = r.at("disaggregated");
  REQUIRE(!d.at("frontier").empty());
  CHECK(d.at("frontier")[0].at("id") == "disagg-0");
  const json& pair = d.at("breakdowns").at("disagg-0");
  CHECK(!pair.at("prefill").empty());
  CHECK(!pair.at("decode").empty());
}
