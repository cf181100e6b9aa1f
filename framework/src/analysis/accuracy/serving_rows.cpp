// validate-data's serving rows: analysis/accuracy/serving_rows.hpp.
#include "analysis/accuracy/serving_rows.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/accuracy/row_evaluation.hpp"
#include "eval/engine_kv.hpp"
#include "eval/evaluator.hpp"
#include "eval/host_step_timer.hpp"
#include "tessera/error.hpp"
#include "tessera/physics/eval_context.hpp"

namespace tessera::accuracy {

std::string serving_row_reason(const DataRow& row, const RowPlan& plan) {
  if (!plan.mapped) return "not mapped";
  if (row.batch.empty()) return "concurrency (batch) not stated";
  if (row.input_len.empty()) return "ISL (input_len) not stated";
  if (row.output_len.empty()) return "OSL (output_len) not stated";
  switch (plan.measure) {
    case Measure::prefill:
      return plan.derived == Derived::time ? "" : "not a request-level quantity";
    case Measure::decode_step:
      return plan.derived == Derived::time ? "" : "not a request-level quantity";
    case Measure::request:
      return plan.derived == Derived::busbw ? "not a request-level quantity" : "";
    case Measure::op_stage:
    case Measure::gemm:
    case Measure::copy:
    case Measure::collective:
    case Measure::offline_bound:
    case Measure::full_load:
      break;
    case Measure::under_load:
      return "under a load: the request simulator's row";
  }
  return "not a request-level quantity";
}

namespace {

Workload row_workload(const RowPlan& p) {
  Workload w;
  w.mode = Mode::serve;
  w.context = p.input;
  w.batch = p.batch;
  w.input = p.input;
  w.output = std::max<std::int64_t>(1, p.output);
  return w;
}

MachineSpec with_efficiency(MachineSpec m, const ParamSet& efficiency) {
  m.efficiency = efficiency;
  return m;
}

}  // namespace

namespace {
// The row's configuration laid out (its engine's KV rule set first: rule none but for full-load and
// load rows); throws Error naming why when it is not valid.
Evaluation laid_out(Evaluator& ev, const PreparedRow& row, const MachineSpec& machine) {
  ev.set_engine_kv(row.plan.engine_kv);
  Evaluation step;
  ev.layout_for(row.plan.config, step);
  if (!step.layout.valid)
    throw Error("configuration " + format_config(row.plan.config, machine) + " is not valid: " +
                describe_invalid(step.layout.reason, row.model, machine, row.plan.config));
  return step;
}
}  // namespace

RowEvaluation::RowEvaluation(const PreparedRow& row, const std::shared_ptr<const LatencyModel>& latency,
                             const ParamSet& efficiency, const std::shared_ptr<const MemoryModel>& memory)
    : workload_(row_workload(row.plan)),
      machine_(with_efficiency(row.machine, efficiency)),
      ctx_(make_eval_context(row.model, machine_)),
      ev_(ctx_, workload_, latency, memory, {}),
      step_(laid_out(ev_, row, machine_)),
      timer_(ev_, row.plan.config, step_.layout, scratch_) {}

double predict_serving_row(const PreparedRow& row, const std::shared_ptr<const LatencyModel>& latency,
                           const ParamSet& efficiency, const std::shared_ptr<const MemoryModel>& memory,
                           const ServingModel& serving) {
  const RowPlan& p = row.plan;
  RowEvaluation re(row, latency, efficiency, memory);
  const Evaluator& ev = re.evaluator();
  const std::int64_t osl = re.output();
  HostStepTimer& timer = re.timer();
  ServingMetrics m;
  const ServingRequest request{.input = p.input, .output = osl};
  const ServingPoint point{.batch = p.batch, .token_budget = 0};
  serving.evaluate(ev.context(), p.config, request, point, timer, m);
  if (m.infeasible != nullptr) throw Error(std::string("serving model: ") + m.infeasible);
  if (!m.kv_fits)
    throw Error("serving model: the KV of " + std::to_string(p.batch) + " x " +
                std::to_string(p.input + osl) + " tokens does not fit");
  const double dp = static_cast<double>(p.config.dp);
  double si = 0;
  switch (p.measure) {
    case Measure::prefill:
      si = m.ttft_s;
      break;
    case Measure::decode_step:
      si = m.tpot_s;
      break;
    case Measure::request:
      switch (p.derived) {
        case Derived::time:
          si = m.e2e_s;
          break;
        case Derived::tokens_per_s:
          return dp * m.tokens_per_s;
        case Derived::tokens_per_s_per_pe:
          return dp * m.tokens_per_s / static_cast<double>(p.n_devices);
        case Derived::requests_per_s:
          return dp * m.requests_per_s;
        case Derived::time_per_token:
          si = m.e2e_s / (static_cast<double>(p.batch) * static_cast<double>(osl));
          break;
        case Derived::busbw:
        case Derived::flop_rate:
        case Derived::per_user_rate:
        case Derived::mfu:
        case Derived::phase_tokens_per_s:
          throw Error("not a request-level quantity");
      }
      break;
    default:
      throw Error("not a request-level quantity");
  }
  return si * p.to_unit;
}

FullLoadAnswer predict_full_load_row(const PreparedRow& row,
                                     const std::shared_ptr<const LatencyModel>& latency,
                                     const ParamSet& efficiency,
                                     const std::shared_ptr<const MemoryModel>& memory,
                                     const ServingModel& serving) {
  const RowPlan& p = row.plan;
  RowEvaluation re(row, latency, efficiency, memory);
  const Evaluator& ev = re.evaluator();
  const std::int64_t osl = re.output();
  const std::int64_t budget = kFullLoadProfileTokens;  // the engines' default batched-token limit
  HostStepTimer& timer = re.timer();
  timer.set_token_budget(budget);
  FullLoadAnswer a;
  a.engine = p.engine_label;
  // The batch limit. The engine ran with its defaults: its max sequences is the version's default
  // cap where it has one (its pool sized at that many sequences), and the batch what its pool
  // admits (continuous batching at its worst moment) up to that cap; without a cap, the largest
  // batch whose pool at that many sequences admits it. No rule: the memory model's budget at
  // ISL + OSL.
  std::int64_t limit = 0;
  const std::int64_t cap = p.engine_max_batch;
  if (ev.engine_kv().active() && cap > 0) {
    timer.set_max_sequences(cap);
    const EngineKvCapacity& pool = timer.engine_capacity();
    limit = std::min(cap, engine_max_batch(pool.tokens, p.input, osl, pool.block, true));
  } else if (ev.engine_kv().active()) {
    limit = engine_admitted_batch(ev, ev.engine_kv(), p.config, re.layout(), budget, p.input, osl, true);
  } else {
    for (const std::int64_t b : kMaxThroughputBatches)
      if (timer.kv_fits(b, p.input + osl)) limit = b;
    if (cap > 0) limit = std::min(limit, cap);
  }
  // The grid below the limit, and the limit itself.
  std::vector<std::int64_t> batches;
  for (const std::int64_t b : kMaxThroughputBatches)
    if (b < limit) batches.push_back(b);
  if (limit > 0) batches.push_back(limit);
  const ServingRequest request{.input = p.input, .output = osl};
  double best = -1;
  std::string why = "no batch's KV fits";
  for (const std::int64_t b : batches) {
    timer.set_max_sequences(cap > 0 ? cap : b);
    ServingMetrics m;
    serving.evaluate(ev.context(), p.config, request, ServingPoint{.batch = b, .token_budget = budget}, timer,
                     m);
    if (m.infeasible != nullptr) {
      why = std::string("serving model: ") + m.infeasible;
      continue;
    }
    if (!m.kv_fits) continue;
    const double dp = static_cast<double>(p.config.dp);
    double v = dp * m.tokens_per_s;
    if (p.derived == Derived::tokens_per_s_per_pe) v /= static_cast<double>(p.n_devices);
    if (p.derived == Derived::requests_per_s) v = dp * m.requests_per_s;
    if (v > best) {
      best = v;
      a.batch = b;
      a.kv_tokens = ev.engine_kv().active() ? timer.engine_capacity().tokens : 0;
    }
  }
  if (best < 0)
    throw Error("full load: " + why + " (batch limit " + std::to_string(limit) + " per replica at ISL " +
                std::to_string(p.input) + " + OSL " + std::to_string(osl) + ")");
  a.value = best * p.to_unit;
  return a;
}

}  // namespace tessera::accuracy
