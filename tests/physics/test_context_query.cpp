// The evaluation context and the query (docs/architecture.md "The context and the query"): a
// serving question is a Workload handed beside the evaluator's one EvalContext — never a copy of
// the context with its workload rewritten. Every call into a latency or memory plugin while the
// host's StepTimer answers a serving plugin is handed the same context object, with the step's own
// workload.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <vector>

#include "eval/host_step_timer.hpp"
#include "fixtures.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

struct QueryAsked {
  const EvalContext* ctx;
  Workload workload;
  StepKind kind = StepKind::decode_step;
};

// The roofline model, recording the context and workload of every call (one thread).
class QueryRecordingLatency final : public LatencyModel {
 public:
  explicit QueryRecordingLatency(std::vector<QueryAsked>& calls) : calls_(calls) {}
  void time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const override {
    calls_.push_back({&ctx, step.workload, step.kind});
    inner_.time_step(ctx, step, out);
  }

 private:
  std::vector<QueryAsked>& calls_;
  plugins::RooflineLatency inner_;
};

class QueryRecordingMemory final : public MemoryModel {
 public:
  explicit QueryRecordingMemory(std::vector<QueryAsked>& calls) : calls_(calls) {}
  void evaluate(const EvalContext& ctx, const Workload& workload, const ParallelConfig& c,
                const Layout& layout, MemoryUsage& out) const override {
    calls_.push_back({&ctx, workload});
    inner_.evaluate(ctx, workload, c, layout, out);
  }

 private:
  std::vector<QueryAsked>& calls_;
  plugins::StandardMemory inner_{0.0};
};

Workload query_serve_workload() {
  Workload w;
  w.mode = Mode::serve;
  w.input = 1024;
  w.output = 128;
  w.context = 1024;
  return w;
}

bool same_query(const Workload& a, const Workload& b) {
  return a.mode == b.mode && a.batch == b.batch && a.context == b.context && a.chunk == b.chunk &&
         a.scope == b.scope && a.input == b.input && a.output == b.output;
}

}  // namespace

TEST_CASE("serving questions are asked of the one context with the step's own workload",
          "[physics][context]") {
  const ModelSpec model = llama31_8b();  // the context points at them
  const MachineSpec machine = dgx_h100();
  std::vector<QueryAsked> latency_calls, memory_calls;
  const Evaluator ev(make_eval_context(model, machine), query_serve_workload(),
                     std::make_shared<QueryRecordingLatency>(latency_calls),
                     std::make_shared<QueryRecordingMemory>(memory_calls), {});
  const EvalContext* const ctx = &ev.context();
  EvalContext before;
  std::memcpy(&before, ctx, sizeof before);
  ParallelConfig c;
  c.tp = 2;
  Evaluation step, scratch;
  ev.layout_for(c, step);
  REQUIRE(step.layout.valid);
  HostStepTimer timer(ev, c, step.layout, scratch);

  CHECK(timer.decode_step(8, 1500.0) > 0);
  REQUIRE(latency_calls.size() == 1);
  CHECK(latency_calls[0].kind == StepKind::decode_step);
  CHECK(latency_calls[0].workload.mode == Mode::decode);
  CHECK(latency_calls[0].workload.batch == 8);
  CHECK(latency_calls[0].workload.context == 1500);
  CHECK(latency_calls[0].workload.input == 1024);  // the scenario's request, carried along

  latency_calls.clear();
  CHECK(timer.prefill(2, 1024, 512) > 0);
  REQUIRE(latency_calls.size() == 2);  // two chunks of 512
  for (const QueryAsked& a : latency_calls) {
    CHECK(a.kind == StepKind::prefill_chunk);
    CHECK(a.workload.mode == Mode::prefill);
    CHECK(a.workload.batch == 2);
    CHECK(a.workload.context == 1024);
    CHECK(a.workload.chunk == 512);
  }

  latency_calls.clear();
  CHECK(timer.mixed_step(4, 2000.0, 1, 256, 512, false) > 0);
  REQUIRE(latency_calls.size() == 1);
  CHECK(latency_calls[0].kind == StepKind::mixed_step);
  CHECK(latency_calls[0].workload.mode == Mode::prefill);
  CHECK(latency_calls[0].workload.batch == 1);
  CHECK(latency_calls[0].workload.context == 768);
  CHECK(latency_calls[0].workload.chunk == 256);

  CHECK(timer.kv_fits(16, 4096));
  REQUIRE(memory_calls.size() == 1);
  CHECK(memory_calls[0].workload.mode == Mode::decode);
  CHECK(memory_calls[0].workload.batch == 16);
  CHECK(memory_calls[0].workload.context == 4096);

  // Every question went to the evaluator's own context, which is byte for byte as it was, and
  // the evaluator's workload is still the scenario's.
  latency_calls.clear();
  timer.decode_step(1, 100.0);
  REQUIRE(latency_calls.size() == 1);
  CHECK(latency_calls[0].ctx == ctx);
  CHECK(memory_calls[0].ctx == ctx);
  CHECK(std::memcmp(&before, ctx, sizeof before) == 0);
  CHECK(same_query(ev.workload(), query_serve_workload()));
  CHECK_NOTHROW(ev.verify_context(c));
}

TEST_CASE("a run evaluation hands every plugin call the one context and the scenario's workload",
          "[physics][context]") {
  const ModelSpec model = llama31_8b();
  const MachineSpec machine = dgx_h100();
  std::vector<QueryAsked> latency_calls, memory_calls;
  const Workload w = prefill(4096, 2, 1024);
  const Evaluator ev(make_eval_context(model, machine), w,
                     std::make_shared<QueryRecordingLatency>(latency_calls),
                     std::make_shared<QueryRecordingMemory>(memory_calls), {});
  ParallelConfig c;
  c.tp = 4;
  Evaluation e;
  ev.evaluate(c, e);
  REQUIRE(e.valid);
  REQUIRE(latency_calls.size() == 4);  // one per chunk
  REQUIRE(memory_calls.size() == 1);
  for (const QueryAsked& a : latency_calls) {
    CHECK(a.ctx == &ev.context());
    CHECK(same_query(a.workload, w));
  }
  CHECK(memory_calls[0].ctx == &ev.context());
  CHECK(same_query(memory_calls[0].workload, w));
}

namespace {

// A latency model that writes into the workload it was handed as const (through const_cast).
class WorkloadWriter final : public LatencyModel {
 public:
  void time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const override {
    const_cast<Workload&>(step.workload).context += 1;
    inner_.time_step(ctx, step, out);
  }

 private:
  plugins::RooflineLatency inner_;
};

}  // namespace

TEST_CASE("the context watch covers the scenario's workload", "[physics][context]") {
  const ModelSpec model = llama31_8b();
  const MachineSpec machine = dgx_h100();
  const Workload w = decode(4096, 8);
  const Evaluator ev(make_eval_context(model, machine), w, std::make_shared<WorkloadWriter>(),
                     std::make_shared<plugins::StandardMemory>(0.0), {});
  ParallelConfig c;
  c.tp = 2;
  Evaluation e;
  CHECK_THROWS_WITH(ev.evaluate(c, e),
                    Catch::Contains("time_step wrote into the workload it was handed as const"));
  CHECK(ev.workload().context == 4096);  // put back from the snapshot
}
