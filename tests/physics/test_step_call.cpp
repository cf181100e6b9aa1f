// What a latency model is handed (SDK v2, docs/plugin-guide.md §10 "What time_step is called
// with"): the configuration, the layout and the step's shape and kind of every time_step call.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "fixtures.hpp"
#include "tessera/kinds/latency_model.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

struct Call {
  StepKind kind;
  std::int64_t chunk_index, chunk_count;
  StepShape shape;
  ParallelConfig config;
  int tp_level;
  bool layout_valid;
  int work_size;
};

// The roofline model, recording every call (the tests evaluate on one thread).
class RecordingLatency final : public LatencyModel {
 public:
  explicit RecordingLatency(std::vector<Call>& calls) : calls_(calls) {}
  void time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const override {
    calls_.push_back({step.kind, step.chunk_index, step.chunk_count, step.shape, step.config,
                      step.layout.tp.level, step.layout.valid, step.work.size});
    inner_.time_step(ctx, step, out);
  }

 private:
  std::vector<Call>& calls_;
  plugins::RooflineLatency inner_;
};

Evaluation evaluate_recorded(const Workload& w, const ParallelConfig& c, std::vector<Call>& calls) {
  const ModelSpec model = llama31_8b();  // the context points at them
  const MachineSpec machine = dgx_h100();
  const EvalContext ctx = make_eval_context(model, machine);
  const Evaluator ev(ctx, w, std::make_shared<RecordingLatency>(calls),
                     std::make_shared<plugins::StandardMemory>(0.0), {});
  Evaluation e;
  ev.evaluate(c, e);
  return e;
}

}  // namespace

TEST_CASE("decode with pp = 2: the whole step then one pipeline stage", "[physics][step-call]") {
  ParallelConfig c;
  c.tp = 2;
  c.pp = 2;
  std::vector<Call> calls;
  const Evaluation e = evaluate_recorded(decode(4096, 4), c, calls);
  REQUIRE(e.valid);
  REQUIRE(calls.size() == 2);
  const Call& step = calls[0];
  CHECK(step.kind == StepKind::decode_step);
  CHECK(step.chunk_index == 0);
  CHECK(step.chunk_count == 1);
  CHECK(step.shape.mode == Mode::decode);
  CHECK(step.shape.batch == 4);
  CHECK(step.shape.tokens == 4);
  CHECK(step.shape.kv_cached == 4096);
  CHECK(step.shape.layers == 32);
  CHECK(step.shape.hops == 1);
  CHECK(step.config.tp == 2);
  CHECK(step.config.pp == 2);
  CHECK(step.layout_valid);
  CHECK(step.tp_level == 1);  // TP inside the node: NVLink
  const Call& stage = calls[1];
  CHECK(stage.kind == StepKind::pipeline_stage);
  CHECK(stage.shape.batch == 2);
  CHECK(stage.shape.tokens == 2);
  CHECK(stage.shape.kv_cached == 4096);
  CHECK(stage.shape.layers == 16);
  CHECK(stage.shape.hops == 1);
  CHECK(e.totals.pipeline_throughput_tok_s > 0);
  CHECK(std::string(step_kind_name(StepKind::pipeline_stage)) == "pipeline_stage");
}

TEST_CASE("prefill: one call per chunk with its index and prefix and size", "[physics][step-call]") {
  ParallelConfig c;
  c.tp = 8;
  std::vector<Call> calls;
  const Evaluation e = evaluate_recorded(prefill(8192, 1, 2048), c, calls);
  REQUIRE(e.valid);
  REQUIRE(calls.size() == 4);
  for (std::size_t j = 0; j < calls.size(); ++j) {
    INFO("chunk " << j);
    CHECK(calls[j].kind == StepKind::prefill_chunk);
    CHECK(calls[j].chunk_index == static_cast<std::int64_t>(j));
    CHECK(calls[j].chunk_count == 4);
    CHECK(calls[j].shape.mode == Mode::prefill);
    CHECK(calls[j].shape.chunk == 2048);
    CHECK(calls[j].shape.tokens == 2048);
    CHECK(calls[j].shape.kv_cached == 2048.0 * static_cast<double>(j));
    CHECK(calls[j].shape.lm_head == (j == 3));
    CHECK(calls[j].config.tp == 8);
  }
}
