// Memory tiers (docs/physics.md §9 "bw_util with other tiers"): a stage that names another tier
// has its bytes counted there, not in HBM's bw_util; an objective sees the evaluated step.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>

#include "fixtures.hpp"
#include "tessera/kinds/latency_model.hpp"
#include "tessera/kinds/objective.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

// The roofline model, with every FFN stage's bytes served from an SRAM 10x faster than HBM.
class SramFfnLatency final : public LatencyModel {
 public:
  void time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const override {
    inner_.time_step(ctx, step, out);
    for (Stage& s : out)
      if (s.block == StageBlock::ffn) {
        s.memory_tier = "sram";
        s.memory_tier_bw = 10 * ctx.hbm_bw;
      }
  }

 private:
  plugins::RooflineLatency inner_;
};

// Objectives from the evaluated step: the critical path of its stages, and its memory use.
class StagePathObjective final : public Objective {
 public:
  Direction direction() const override { return Direction::minimize; }
  const char* unit() const override { return "s"; }
  double evaluate(const EvalContext&, const Workload&, const ParallelConfig&,
                  const EvaluatedStep& step) const override {
    double t = 0;
    for (const Stage& s : step.stages) t += s.count * s.visible_s;
    return t;
  }
};
class UsedBytesObjective final : public Objective {
 public:
  Direction direction() const override { return Direction::minimize; }
  const char* unit() const override { return "B"; }
  double evaluate(const EvalContext&, const Workload&, const ParallelConfig&,
                  const EvaluatedStep& step) const override {
    return step.memory.used_bytes + step.totals.pes;
  }
};

Evaluation run(std::shared_ptr<const LatencyModel> lat, std::vector<ObjectiveSlot> objectives = {}) {
  const ModelSpec model = llama31_8b();  // the context points at them
  const MachineSpec machine = dgx_h100();
  const EvalContext ctx = make_eval_context(model, machine);
  const Evaluator ev(ctx, decode(4096), std::move(lat), std::make_shared<plugins::StandardMemory>(0.0),
                     std::move(objectives));
  ParallelConfig c;
  c.tp = 8;
  Evaluation e;
  ev.evaluate(c, e);
  return e;
}

}  // namespace

TEST_CASE("no tier named: HBM is the only tier and bw_util is unchanged", "[physics][tiers]") {
  const Evaluation e = run(std::make_shared<plugins::RooflineLatency>());
  REQUIRE(e.valid);
  REQUIRE(e.totals.tier_count == 1);
  CHECK(std::strcmp(e.totals.tiers[0].name, "hbm") == 0);
  CHECK(e.totals.tiers[0].bytes_all_pes == e.totals.hbm_bytes_all_pes);
  CHECK(e.totals.tiers[0].util == e.totals.bw_util);
  CHECK(e.totals.tiers[0].bandwidth == 3.35e12);  // the H100 SXM's HBM3
  CHECK(e.totals.bw_util ==
        Approx(e.totals.hbm_bytes_all_pes / (3.35e12 * 8 * e.totals.latency_s)).epsilon(1e-12));
}

TEST_CASE("bytes served from SRAM are counted in the SRAM tier and not in bw_util", "[physics][tiers]") {
  const Evaluation hbm = run(std::make_shared<plugins::RooflineLatency>());
  const Evaluation sram = run(std::make_shared<SramFfnLatency>());
  REQUIRE(sram.valid);
  const StepTotals& t = sram.totals;
  REQUIRE(t.tier_count == 2);
  CHECK(std::strcmp(t.tiers[1].name, "sram") == 0);
  CHECK(t.tiers[1].bandwidth == 10 * 3.35e12);
  CHECK(t.latency_s == hbm.totals.latency_s);  // the model's times are its own
  // Every byte counted once: HBM's plus SRAM's are the bytes HBM alone had.
  CHECK(t.tiers[0].bytes_all_pes + t.tiers[1].bytes_all_pes ==
        Approx(hbm.totals.hbm_bytes_all_pes).epsilon(1e-12));
  CHECK(t.tiers[0].bytes_all_pes == t.hbm_bytes_all_pes);
  // The FFN weights dominate decode's bytes: most of them leave HBM's share.
  CHECK(t.tiers[1].bytes_all_pes > t.tiers[0].bytes_all_pes);
  CHECK(t.bw_util == Approx(t.tiers[0].bytes_all_pes / (3.35e12 * 8 * t.latency_s)).epsilon(1e-12));
  CHECK(t.tiers[1].util ==
        Approx(t.tiers[1].bytes_all_pes / (10 * 3.35e12 * 8 * t.latency_s)).epsilon(1e-12));
  CHECK(t.bw_util < hbm.totals.bw_util);
  CHECK(t.bw_util <= 1);
}

TEST_CASE("an objective sees the evaluated step - its stages and totals and memory",
          "[physics][objective-step]") {
  std::vector<ObjectiveSlot> objs;
  objs.push_back({"path", std::make_shared<StagePathObjective>(), Direction::minimize, "s"});
  objs.push_back({"used", std::make_shared<UsedBytesObjective>(), Direction::minimize, "B"});
  const Evaluation e = run(std::make_shared<plugins::RooflineLatency>(), objs);
  REQUIRE(e.valid);
  REQUIRE(e.stages.size > 0);
  CHECK(e.objectives[0] == Approx(e.totals.latency_s).epsilon(1e-12));
  CHECK(e.objectives[1] == e.memory.used_bytes + 8);
}
