// What a search strategy receives (SDK v2): every objective's value of each configuration it
// proposed, oriented lower-is-better like `primary`, +infinity for an invalid configuration.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "search_fixture.hpp"
#include "tessera/kinds/search_strategy.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

struct Received {
  ParallelConfig config;
  SearchScore score;
  std::vector<double> objectives;  // copied: the span is valid only during receive()
};

// Proposes every valid configuration and one invalid one (tp = 3), in one batch, and records
// what comes back.
class RecordingRun final : public SearchRun {
 public:
  RecordingRun(const SearchSpace& space, std::vector<Received>& out) : space_(space), out_(out) {}
  std::size_t propose(std::span<ParallelConfig> out) override {
    if (done_) return 0;
    done_ = true;
    const auto& all = space_.valid_configs();
    std::size_t n = 0;
    for (; n < all.size() && n + 1 < out.size(); ++n) out[n] = all[n];
    ParallelConfig bad = space_.defaults();
    bad.tp = 3;
    out[n++] = bad;
    return n;
  }
  void receive(std::span<const ParallelConfig> configs, std::span<const SearchScore> scores) override {
    for (std::size_t i = 0; i < configs.size(); ++i)
      out_.push_back({configs[i], scores[i], {scores[i].objectives.begin(), scores[i].objectives.end()}});
  }

 private:
  const SearchSpace& space_;
  std::vector<Received>& out_;
  bool done_ = false;
};

class RecordingSearch final : public SearchStrategy {
 public:
  explicit RecordingSearch(std::vector<Received>& out) : out_(out) {}
  std::unique_ptr<SearchRun> start(const SearchSpace& space) const override {
    return std::make_unique<RecordingRun>(space, out_);
  }

 private:
  std::vector<Received>& out_;
};

}  // namespace

TEST_CASE("a search receives every objective of the configurations it proposed", "[search][objectives]") {
  const Scenario sc = load("llama3.1-8b-decode-4k-h100.yaml");  // objectives: latency, pes, efficiency
  Session s(sc, registry());
  REQUIRE(s.evaluator().objectives().size() == 3);
  std::vector<Received> got;
  const RecordingSearch strategy(got);
  SearchOptions o;
  o.threads = 2;
  o.batch = 64;
  const SearchResult result = run_search(s, strategy, o);
  // The grid's valid configurations, then tp = 3.
  REQUIRE(result.counts.valid == 7);
  REQUIRE(got.size() == 8);
  Evaluation e;
  int checked = 0;
  for (const Received& r : got) {
    REQUIRE(r.objectives.size() == 3);
    s.evaluator().evaluate(r.config, e);
    if (!e.valid) {
      CHECK(r.config.tp == 3);
      for (double v : r.objectives) CHECK(v == std::numeric_limits<double>::infinity());
      continue;
    }
    // latency (minimised), pes (minimised), efficiency (maximised: negated).
    CHECK(r.objectives[0] == r.score.primary);
    CHECK(r.objectives[0] == e.totals.latency_s);
    CHECK(r.objectives[1] == static_cast<double>(r.config.pes()));
    CHECK(r.objectives[2] == -e.totals.efficiency);
    CHECK(r.objectives[2] < 0);
    ++checked;
  }
  CHECK(checked == 7);
}
