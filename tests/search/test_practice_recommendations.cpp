// What practitioners run, against what Tessera recommends (docs/accuracy.md "Recommendations
// against practice"): the shipped scenarios with their sweeps exactly as shipped, under the
// scenario's own (default) latency model, calibrated. Where model and practice still disagree the
// case is tagged [!shouldfail] and says why: it fails the suite the day the model agrees, so the
// tag is removed then.
#include <catch2/catch.hpp>

#include "search_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

// The scenario's best as shipped. `points` and `valid` pin its sweep as shipped today (grid
// points and valid configurations): a sweep edited to dodge the question fails here.
ConfigRecord best_of(const char* scenario, std::uint64_t points, std::uint64_t valid,
                     std::vector<std::string> set = {}) {
  const Scenario sc = load(scenario, std::move(set));
  const Session s(sc, registry());
  const SearchResult r = search(s, sc.plugins.search);
  CHECK(r.counts.enumerated == points);
  CHECK(r.counts.valid == valid);
  REQUIRE(r.best);
  return r.records[*r.best];
}

}  // namespace

TEST_CASE("practice: Llama-3.1-70B decode 4K on DGX-H100 runs TP=8 inside one node",
          "[recommend][practice]") {
  // The deciding term: the 16-rank all-reduce of 16 KiB across two nodes, NCCL's tree/LL with
  // the measured InfiniBand hop (machines/dgx-h100.yaml: 8.6 us, fitted to nccl-tests rows
  // 3000-3026): 6.8 + 2 (7 x 0.6 + 8.6) = 32.4 us (+ 0.37 us of bandwidth), twice per layer
  // against 3.6 us one-shot inside the node; CP=2 x TP=8 across nodes then loses.
  // A dense model: the default space holds no TP+CP+DP (4320 points, 999 valid before).
  const ConfigRecord b = best_of("llama3.1-70b-decode-4k-h100.yaml", 2880, 790);
  CHECK(b.config.tp == 8);
  CHECK(b.config.cp == 1);
  CHECK(b.config.pp == 1);
  CHECK(b.pes == 8);
}

TEST_CASE("practice: Llama-3.1-8B throughput on 8 H100 runs TP=1 or TP=2 replicas", "[recommend][practice]") {
  const ConfigRecord b = best_of("llama3.1-8b-throughput-h100.yaml", 256, 28);
  CHECK(b.config.tp <= 2);
  CHECK(b.config.cp == 1);
}

TEST_CASE("practice: Mixtral-8x7B decode at batch 8 uses at most 8 GPUs",
          "[recommend][practice][!shouldfail]") {
  // Not yet: the model picks CP=4 x TP=8 on 32 GPUs over 4 nodes (7.3 ms against 8.9 ms for TP=8):
  // a quarter of the 32K-token KV and of the expert weights per GPU outweighs the CP ring's three
  // cross-node messages (8.3 us each) and the 32-rank all-reduce of the MoE output (51 us) per
  // layer. (Before the expert-sharers all-reduce, docs/physics.md §4, it was 64 GPUs.) Practice
  // runs it on one node; the remaining gap is the cost of cross-node decode steps that public rows
  // do not yet pin (docs/accuracy.md "Recommendations against practice").
  const ConfigRecord b = best_of("mixtral-8x7b-decode-32k-h100.yaml", 9216, 1756, {"workload.batch=8"});
  CHECK(b.pes <= 8);
}

TEST_CASE("practice: DeepSeek-V3 decode uses expert parallelism and no CP across nodes",
          "[recommend][practice][!shouldfail]") {
  // Half met: no CP across nodes now (TP=8 in one node, 18.4 ms), but no expert parallelism:
  // the same all-to-all pricing as the Mixtral case.
  const ConfigRecord b = best_of("deepseek-v3-decode-32k-h200.yaml", 14400, 1977);
  CHECK(b.config.ep > 1);
  CHECK((b.config.cp == 1 || b.config.cp_placement == 0));  // placement 0: the GPUs of one node
}

// The two open cases as docs/accuracy.md reports them today: pinned without [!shouldfail], so that
// the tagged tests above can only pass by their practice check failing (not by a scenario that no
// longer loads or a search that throws), and a change of the answer is seen and the doc updated.
TEST_CASE("practice: the open cases answer what docs/accuracy.md reports", "[recommend][practice]") {
  const ConfigRecord mixtral = best_of("mixtral-8x7b-decode-32k-h100.yaml", 9216, 1756, {"workload.batch=8"});
  CHECK(mixtral.pes == 32);
  CHECK(mixtral.config.cp == 4);
  CHECK(mixtral.config.tp == 8);
  const ConfigRecord deepseek = best_of("deepseek-v3-decode-32k-h200.yaml", 14400, 1977);
  CHECK(deepseek.pes == 8);
  CHECK(deepseek.config.tp == 8);
  CHECK(deepseek.config.ep == 1);
}
