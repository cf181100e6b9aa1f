// objective/example: goodput per PE — tokens/s per PE of a step that meets a latency SLO, else 0.
#include <tessera/sdk.hpp>

namespace {

using namespace tessera;

class GoodputPerPe final : public Objective {
 public:
  explicit GoodputPerPe(double slo) : slo_(slo) {}
  Direction direction() const override { return Direction::maximize; }
  const char* unit() const override { return "tok/s/PE"; }  // a literal: lives as long as the object
  double evaluate(const EvalContext&, const Workload&, const ParallelConfig&,
                  const EvaluatedStep& step) const override {
    const StepTotals& t = step.totals;
    if (!(t.pes > 0) || t.latency_s > slo_) return 0.0;  // finite in every case
    return t.throughput_tok_s / t.pes;
  }

 private:
  double slo_;  // s
};

const ParamSpec kParams[] = {
    {"slo", ParamType::quantity, Dimension::time, "50 ms", 0, kNoMax, nullptr, 0,
     "step latency above which a configuration's goodput is 0"},
};

PluginObject* create(const ParamSet& p) { return new GoodputPerPe(p.real("slo")); }

const PluginDescriptor kDescriptor = make_descriptor({
    .kind = PluginKind::objective,
    .name = "example",
    .version = "1.0.0",
    .summary = "worked example: tokens/s per PE of a step within a latency SLO (0 beyond it)",
    .params = kParams,
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
