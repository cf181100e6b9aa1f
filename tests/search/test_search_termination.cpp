// A search that does not end is stopped (docs/limits.md "Searches that do not end"): after more
// than search.stale_rounds rounds in a row with nothing new, or once it has proposed more
// distinct configurations than the grid has points. Here with strategies linked into the test
// (no plugin behind them: the message says "search"); tests/plugins/test_plugin_barrier.cpp
// runs the same through the executable with a plugin.
#include <catch2/catch.hpp>

#include "search_fixture.hpp"
#include "tessera/limits.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

// Proposes `first` new grid configurations, one per round, then the first one again; ends
// after `rounds` rounds (0: never).
class Repeating final : public SearchStrategy {
 public:
  explicit Repeating(std::size_t first, std::size_t rounds = 0) : first_(first), rounds_(rounds) {}
  std::unique_ptr<SearchRun> start(const SearchSpace& space) const override {
    struct Run final : SearchRun {
      const SearchSpace& space;
      std::size_t first, rounds, next = 0;
      Run(const SearchSpace& s, std::size_t f, std::size_t r) : space(s), first(f), rounds(r) {}
      std::size_t propose(std::span<ParallelConfig> out) override {
        if (rounds != 0 && next == rounds) return 0;
        const auto& all = space.valid_configs();
        out[0] = all[next < first ? next : 0];
        ++next;
        return 1;
      }
      void receive(std::span<const ParallelConfig>, std::span<const SearchScore>) override {}
    };
    return std::make_unique<Run>(space, first_, rounds_);
  }

 private:
  std::size_t first_, rounds_;
};

// Proposes a new configuration outside the grid every round (tp beyond any machine).
class Inventing final : public SearchStrategy {
 public:
  std::unique_ptr<SearchRun> start(const SearchSpace& space) const override {
    struct Run final : SearchRun {
      const SearchSpace& space;
      std::int32_t next = 0;
      explicit Run(const SearchSpace& s) : space(s) {}
      std::size_t propose(std::span<ParallelConfig> out) override {
        out[0] = space.defaults();
        out[0].tp = 1000 + next++;
        return 1;
      }
      void receive(std::span<const ParallelConfig>, std::span<const SearchScore>) override {}
    };
    return std::make_unique<Run>(space);
  }
};

class NoRun final : public SearchStrategy {
 public:
  std::unique_ptr<SearchRun> start(const SearchSpace&) const override { return nullptr; }
};

struct LimitGuard {
  Limits saved = current_limits();
  ~LimitGuard() { set_limits(saved); }
};

}  // namespace

TEST_CASE("termination: a search that repeats itself is stopped after search.stale_rounds rounds") {
  const Session s(load("llama3.1-8b-decode-4k-h100.yaml"), registry());
  SearchOptions o;
  o.threads = 1;
  CHECK_THROWS_MATCHES(run_search(s, Repeating(3), o), PluginError,
                       Catch::Message("search: proposed nothing new in 1001 rounds in a row (only "
                                      "configurations it had proposed before), which exceeds the limit "
                                      "search.stale_rounds (1000); raise it with --limit "
                                      "search.stale_rounds=N; propose returns 0 when the search is done"));
  const LimitGuard guard;
  Limits l = current_limits();
  l.search_stale_rounds = 5;
  set_limits(l);
  CHECK_THROWS_WITH(run_search(s, Repeating(3), o),
                    Catch::StartsWith("search: proposed nothing new in 6 rounds in a row"));
}

TEST_CASE("termination: a round of duplicates is nothing new - up to the limit a search may repeat") {
  // Every valid configuration of the grid, then the first again: 2 rounds of repeats are
  // allowed with the limit at 2 (the configuration counted once), the third is one too many.
  const Session s(load("llama3.1-8b-decode-4k-h100.yaml"), registry());
  const GridSpace space(s.scenario().sweep, s.model(), s.machine(), s.workload());
  const std::size_t valid = space.valid_configs().size();
  REQUIRE(valid == 7);
  const LimitGuard guard;
  Limits l = current_limits();
  l.search_stale_rounds = 2;
  set_limits(l);
  SearchOptions o;
  o.threads = 1;
  const SearchResult r = run_search(s, space, Repeating(valid, valid + 2), o);
  CHECK(r.counts.evaluated == valid);
  CHECK_THROWS_WITH(run_search(s, space, Repeating(valid, valid + 3), o),
                    Catch::StartsWith("search: proposed nothing new in 3 rounds in a row"));
}

TEST_CASE("termination: a search that invents configurations outside the grid is stopped") {
  const Session s(load("llama3.1-8b-decode-4k-h100.yaml"), registry());
  SearchOptions o;
  o.threads = 1;
  const GridSpace space(s.scenario().sweep, s.model(), s.machine(), s.workload());
  const std::string points = std::to_string(space.enumerated());
  CHECK_THROWS_MATCHES(run_search(s, space, Inventing(), o), PluginError,
                       Catch::Message("search: proposed " + std::to_string(space.enumerated() + 1) +
                                      " distinct configurations, more than the grid's " + points +
                                      " points; propose returns 0 when the search is done"));
}

TEST_CASE("termination: a search whose start returns nothing is an error - not a crash") {
  const Session s(load("llama3.1-8b-decode-4k-h100.yaml"), registry());
  CHECK_THROWS_MATCHES(run_search(s, NoRun()), PluginError,
                       Catch::Message("search: start returned no SearchRun (a null pointer)"));
}
