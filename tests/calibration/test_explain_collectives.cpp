// `explain` lists, for every collective of every communication stage, the candidates
// collective_cost() chose from: the stage's comm_s is the sum over its collectives of the
// fastest candidate, and the one marked chosen is that fastest (docs/physics.md §5).
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <filesystem>
#include <map>
#include <string>

#include "eval/session.hpp"
#include "host/plugin_registry.hpp"
#include "registry_fixture.hpp"
#include "report/study_text/explain_report.hpp"
#include "report/text/collective_explain.hpp"
#include "scenario/scenario_loader.hpp"

using namespace tessera;
using tessera::test::registry;

namespace {

// Checks one explained configuration; returns the number of collectives checked.
int check_explain(const Session& s, const ParallelConfig& c, bool single_step) {
  Evaluation e;
  s.evaluator().evaluate(c, e);
  if (!e.valid) return 0;
  const nlohmann::json j = explain_json(s, e);
  int checked = 0;
  for (const auto& st : j["stages"]) {
    if (st.contains("point_to_point")) {
      const auto& p = st["point_to_point"];
      if (single_step)
        CHECK(st["comm_s"].get<double>() ==
              Approx(p["messages"].get<double>() * p["seconds"].get<double>()).epsilon(1e-12));
      ++checked;
    }
    if (!st.contains("collectives")) continue;
    double sum = 0;
    for (const auto& col : st["collectives"]) {
      const auto& cands = col["candidates"];
      REQUIRE(!cands.empty());
      double lo = cands[0]["seconds"].get<double>();
      for (const auto& k : cands) lo = std::min(lo, k["seconds"].get<double>());
      // Sorted fastest first; the chosen one is the first (a minimum).
      CHECK(cands[0]["seconds"].get<double>() == lo);
      CHECK(col["seconds"].get<double>() == lo);
      CHECK(col["algorithm"] == cands[0]["algorithm"]);
      CHECK(col["protocol"] == cands[0]["protocol"]);
      CHECK(col["shape"] == cands[0]["shape"]);
      sum += lo;
      ++checked;
    }
    if (single_step) CHECK(st["comm_s"].get<double>() == Approx(sum).epsilon(1e-12));
    if (st.contains("algorithm") && st["collectives"].size() == 1) {
      const auto& col = st["collectives"][0];
      std::string label = col["algorithm"].get<std::string>();
      if (!col["protocol"].get<std::string>().empty()) label += "/" + col["protocol"].get<std::string>();
      if (col["shape"] == "hierarchical") label = "hierarchical(" + label + ")";
      CHECK(st["algorithm"] == label);
    }
  }
  return checked;
}

}  // namespace

TEST_CASE("explain: comm_s is the sum of the fastest listed candidates on every shipped scenario",
          "[explain][collectives]") {
  int total = 0;
  for (const auto& f : std::filesystem::directory_iterator(std::string(TESSERA_SOURCE_DIR) + "/scenarios")) {
    if (f.path().extension() != ".yaml") continue;
    INFO(f.path().string());
    LoadOptions o;
    o.set = {"plugins.latency=overlap"};
    const Scenario sc = load_scenario(f.path().string(), o);
    if (sc.workload.mode == Mode::serve) continue;  // `tessera serve`'s study: tests/serve
    Session s(sc, registry(), 0);
    const Workload& w = sc.workload;
    // Decode and one-chunk prefill: the table's stage is one step's; several chunks average.
    const bool single = w.mode == Mode::decode || w.chunk_count() == 1;
    for (const auto& [cp, tp, pp, ep] :
         {std::array{1, 8, 1, 1}, std::array{2, 4, 1, 1}, std::array{1, 4, 2, 1}, std::array{1, 16, 1, 1},
          std::array{1, 8, 1, 8}, std::array{4, 8, 2, 1}, std::array{1, 2, 1, 1}}) {
      ParallelConfig c;
      c.cp = cp;
      c.tp = tp;
      c.pp = pp;
      c.ep = ep;
      total += check_explain(s, canonicalize(s.model(), c), single);
    }
  }
  CHECK(total > 50);
}

// DGX-H100, Llama-3.1-70B decode batch 1, TP = 8: the 16 KiB all-reduce (8192 x 2 B) runs
// one-shot: 3.2 us + 7 x 16384 B / (0.69 x 450 GB/s) = 3.2 + 0.3694 = 3.569 us (machine file).
TEST_CASE("explain: DGX-H100 TP8 decode all-reduce is one_shot at 3.569 us", "[explain][collectives]") {
  const Scenario sc =
      load_scenario(std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-70b-decode-4k-h100.yaml", {});
  Session s(sc, registry(), 0);
  ParallelConfig c;
  c.tp = 8;
  Evaluation e;
  s.evaluator().evaluate(c, e);
  REQUIRE(e.valid);
  const nlohmann::json j = explain_json(s, e);
  bool found = false;
  for (const auto& st : j["stages"]) {
    if (st["name"] != "attn.tp_reduce") continue;
    found = true;
    CHECK(st["algorithm"] == "one_shot");
    const auto& col = st["collectives"][0];
    CHECK(col["bytes"].get<double>() == 16384);
    CHECK(col["seconds"].get<double>() == Approx(3.2e-6 + 7 * 16384 / (0.69 * 450e9)).epsilon(1e-12));
    CHECK(col["candidates"].size() == 9);  // ring and tree x 3 protocols, one/two-shot, NVLS
    // Every candidate by hand (docs/physics.md §5 worked example): R = 450e9 x 0.824 (link
    // efficiency), A = 450e9, M = 16384 B, g = 8: 14 ring steps, tree depth 7.
    const double M = 16384, R = 450e9 * 0.824, A = 450e9, us = 1e-6;
    const std::map<std::string, double> want = {
        {"one_shot", 3.2 * us + 7 * M / (A * 0.69)},
        {"two_shot", 11.0 * us + 1.75 * M / (A * 0.72)},
        {"nccl_ring/LL", 6.6 * us + 14 * 0.6 * us + 1.75 * M / (R * 0.25)},
        {"nccl_ring/LL128", 14.0 * us + 14 * 1.9 * us + 1.75 * M / (R * 0.92)},
        {"nccl_ring/Simple", 8.4 * us + 14 * 3.4 * us + 1.75 * M / R},
        {"nccl_tree/LL", 6.8 * us + 14 * 0.6 * us + M / (0.5 * R * 0.92 / 3.8)},
        {"nccl_tree/LL128", 14.0 * us + 14 * 1.25 * us + M / (0.5 * R * 0.92 * 7 / 9)},
        {"nccl_tree/Simple", 14 * 28 * us + M / (0.5 * R * 0.92)},
        {"in_network", 23 * us + M / (R * 0.71)}};
    for (const auto& k : col["candidates"]) {
      std::string label = k["algorithm"].get<std::string>();
      if (!k["protocol"].get<std::string>().empty()) label += "/" + k["protocol"].get<std::string>();
      INFO(label);
      REQUIRE(want.count(label) == 1);
      CHECK(k["seconds"].get<double>() == Approx(want.at(label)).epsilon(1e-9));
    }
  }
  CHECK(found);
}
