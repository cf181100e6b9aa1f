// memory/example: weights and KV cache per PE against the HBM budget, with a fixed headroom.
#include <tessera/sdk.hpp>

#include <algorithm>

namespace {

using namespace tessera;

class ExampleMemory final : public MemoryModel {
 public:
  explicit ExampleMemory(double headroom) : headroom_(headroom) {}
  void evaluate(const EvalContext& ctx, const Workload& w, const ParallelConfig& c, const Layout&,
                MemoryUsage& out) const override {
    const ModelSpec& m = *ctx.model;
    out = MemoryUsage{};
    // Every weight once per replica, split over TP and PP (a dense-model estimate).
    out.weights_bytes = params_total(m) * ctx.weight_bytes / (c.tp * c.pp);
    // KV: the stage's layers, the sequence split over CP, the KV heads split over TP (a head
    // is replicated, not split, past h_kv ranks).
    const double layers = static_cast<double>(m.layers) / c.pp;
    const double heads = std::max(1.0, static_cast<double>(ctx.kv_heads_eff) / c.tp);
    out.kv_bytes = layers * static_cast<double>(w.batch) * static_cast<double>(w.context) / c.cp * heads *
                   ctx.kv_elems_per_token_head * ctx.kv_bytes;
    out.used_bytes = out.weights_bytes + out.kv_bytes;
    const PESpec& pe = ctx.machine->pe;
    out.budget_bytes = std::max(0.0, pe.hbm_capacity * pe.hbm_usable - headroom_);
    out.fits = out.used_bytes <= out.budget_bytes;
  }

 private:
  double headroom_;  // B kept free per PE (activations, the runtime)
};

const ParamSpec kParams[] = {
    {"headroom", ParamType::quantity, Dimension::bytes, "2 GB", 0, kNoMax, nullptr, 0,
     "bytes per PE kept free for activations and the runtime"},
};

PluginObject* create(const ParamSet& p) { return new ExampleMemory(p.real("headroom")); }

const PluginDescriptor kDescriptor = make_descriptor({
    .kind = PluginKind::memory,
    .name = "example",
    .version = "1.0.0",
    .summary = "worked example: weights / (tp*pp) + KV per PE, budget = usable HBM - headroom",
    .params = kParams,
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
