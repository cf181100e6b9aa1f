// `tessera sensitivity` and `tessera explore` on serve scenarios (docs/specification.md §5
// "serving sensitivity", "joint exploration"): hand-checkable properties on shipped scenarios.
#include <catch2/catch.hpp>
#include <cmath>

#include "analysis/explore/serve_exploration.hpp"
#include "analysis/serving/serve_sensitivity.hpp"
#include "serve_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

const ServeElasticity& knob(const std::vector<ServeElasticity>& hw, const std::string& path) {
  for (const ServeElasticity& h : hw)
    if (h.path == path) return h;
  FAIL("no knob " << path);
  return hw.front();
}

}  // namespace

TEST_CASE("serve sensitivity - the SLO knobs move tokens per s per PE one way and an unread knob not at all",
          "[serve][sensitivity]") {
  Scenario s = load("llama3.1-70b-serve-4k1k-h100.yaml");
  s.serving.slo.tpot_s = 0.030;  // a bound that a batch of the grid meets just inside
  const Session session(s, registry());
  ServeSensitivityOptions o;
  o.threads = 2;
  const ServeSensitivityStudy study = serve_sensitivity_study(session, true, true, o);
  CHECK(study.best.feasible);
  CHECK(study.best_tokens_per_s_per_pe == Approx(study.best.tokens_per_s_per_pe));
  // A looser TPOT admits more (never fewer) points: tokens/s/PE does not fall.
  const ServeElasticity& tpot = knob(study.hardware, "serving.slo.tpot");
  REQUIRE(std::isfinite(tpot.reoptimised.elasticity));
  CHECK(tpot.reoptimised.elasticity >= 0);
  CHECK(tpot.reoptimised.plus >= tpot.reoptimised.minus);
  // One node of 8 GPUs: the cluster level's latency is never read.
  const ServeElasticity& unread = knob(study.hardware, "machine.levels.cluster.latency");
  CHECK(unread.reoptimised.elasticity == 0);
  CHECK(unread.fixed.elasticity == 0);
  // More HBM bandwidth, more tokens/s/PE, fixed or re-optimised; ranked by |elasticity|.
  CHECK(knob(study.hardware, "machine.pe.hbm.bandwidth").fixed.elasticity > 0);
  for (std::size_t i = 1; i < study.hardware.size(); ++i) {
    const double a = study.hardware[i - 1].reoptimised.elasticity,
                 b = study.hardware[i].reoptimised.elasticity;
    if (std::isfinite(a) && std::isfinite(b)) CHECK(std::fabs(a) >= std::fabs(b));
  }
  // The parallelism sweep holds the best configuration at its baseline value, and its figure.
  for (const ServeKnobSweep& k : study.parallelism)
    for (const ServeKnobValue& v : k.values)
      if (v.value == k.baseline) {
        CHECK(v.feasible);
        CHECK(v.tokens_per_s_per_pe == Approx(study.best_tokens_per_s_per_pe));
      }
}

TEST_CASE("serve explore ranked by cost_per_mtok orders the points by that column", "[serve][explore]") {
  const Session session(load("llama3.1-70b-serve-4k1k-cost-explore.yaml"), registry());
  ServeExploreOptions o;
  o.threads = 2;
  const ServeExploreResult r = explore_serving(session, o);
  REQUIRE(r.axes.size() == 2);
  CHECK(r.axes[0].name == "cost_per_mtok");
  REQUIRE(r.ranking.size() == r.points.size());
  for (std::size_t k = 1; k < r.ranking.size(); ++k)
    CHECK(r.points[r.ranking[k - 1]].objective_values[0] <= r.points[r.ranking[k]].objective_values[0]);
  // The second objective's own ranking: most tokens/s/PE first.
  for (std::size_t k = 1; k < r.rankings[1].size(); ++k)
    CHECK(r.points[r.rankings[1][k - 1]].objective_values[1] >=
          r.points[r.rankings[1][k]].objective_values[1]);
  // A dearer GPU of the same HBM costs more per token, at the same tokens/s/PE.
  CHECK(r.points[4].objective_values[0] > r.points[0].objective_values[0]);
  CHECK(r.points[4].objective_values[1] == r.points[0].objective_values[1]);
}
