// `tessera validate-data`: a mapped row's files loaded and its quantity predicted.
#include "analysis/accuracy/row_prediction.hpp"

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "analysis/measurements/collective_rows.hpp"
#include "eval/evaluator.hpp"
#include "eval/host_step_timer.hpp"
#include "tessera/error.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/layout.hpp"
#include "tessera/physics/step_work.hpp"

namespace tessera::accuracy {

namespace {

std::string num_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

namespace {

// A model of one layer of width 1: what a kernel or collective row's evaluation context needs.
ModelSpec kernel_model() {
  ModelSpec m;
  m.name = "kernel";
  m.layers = 1;
  m.hidden = m.heads = m.kv_heads = m.head_dim = 1;
  m.ffn = m.vocab = 1;
  return m;
}

// The collective's bytes (all-to-all: from the model), the group on the first level, and the
// algorithms the notes force. Throws Error with the reason a row cannot be predicted.
void prepare_collective(PreparedRow& r, PreparedFiles& files) {
  CollectivePlan& c = r.plan.collective;
  const LevelSpec& lv = r.machine.levels.front();
  const LinkCost group = row_group(r.machine, c.ranks);  // throws when the ranks do not tile the levels
  const bool across = group.level > 1;
  if (!c.apart) {
    if (c.kind == CommKind::all_to_all)
      c.group = across ? kGroupMoEAcross : kGroupMoE;
    else
      c.group = across ? kGroupAllReduceAcross : kGroupAllReduce;
  }
  r.model = kernel_model();
  if (c.kind == CommKind::all_to_all) {
    const ModelSpec& ms = files.model(r.plan.model_file);
    if (!ms.has_moe || ms.moe.top_k < 1)
      throw Error("model " + r.plan.model_file + " has no experts: no MoE dispatch to predict");
    const double per_token = static_cast<double>(ms.hidden) * c.payload_bytes;
    if (c.stated_bytes_per_token > 0 && std::abs(per_token - c.stated_bytes_per_token) > 0.5)
      throw Error("notes state " + num_text(c.stated_bytes_per_token) + " bytes/token; hidden " +
                  std::to_string(ms.hidden) + " x " + num_text(c.payload_bytes) + " B gives " +
                  num_text(per_token));
    c.bytes = moe_bytes_per_rank(c.tokens, c.ranks, ms.moe.top_k, ms.hidden, c.payload_bytes);
  }
  if (c.algorithms != 0) {
    // NCCL_ALGO names one algorithm for the whole communicator: every level the group spans.
    if ((c.algorithms >> static_cast<unsigned>(CollAlgorithm::in_network) & 1u) && !lv.collectives.in_network)
      throw Error("NCCL_ALGO=" + c.algorithm_note + " but level '" + lv.name + "' of " + r.plan.machine_file +
                  " has no in-network reduction");
    for (int d = 0; d < group.level; ++d)
      r.machine.levels[static_cast<std::size_t>(d)].collectives.algorithms = c.algorithms;
  }
}

}  // namespace

PreparedRow prepare_row(const DataRow& row, const RowPlan& plan) {
  PreparedFiles once;
  return prepare_row(row, plan, once);
}

PreparedRow prepare_row(const DataRow& row, const RowPlan& plan, PreparedFiles& files) {
  PreparedRow r;
  r.row = &row;
  r.plan = plan;
  const MachineFile& machine = files.machine(plan.machine_file);
  r.machine = machine.spec;
  if (const MachineBlock* eff = find_keyed_block(machine.blocks, "efficiency"))
    r.efficiency_raw = eff->params;
  // A format the PE lacks runs at the next wider one; fp16 rows on a bf16-only PE use bf16.
  DTypes dt = plan.dtype;
  for (DType* t : {&dt.weights, &dt.kv, &dt.activations})
    if (*t == DType::fp16 && r.machine.pe.flops[static_cast<std::size_t>(DType::fp16)] <= 0) *t = DType::bf16;
  r.plan.dtype = dt;
  if (plan.measure == Measure::collective) {
    prepare_collective(r, files);
    return r;
  }
  if (plan.measure == Measure::gemm || plan.measure == Measure::copy) {
    r.model.name = "kernel";
    r.model.layers = 1;
    r.model.hidden = r.model.heads = r.model.kv_heads = r.model.head_dim = 1;
    r.model.ffn = r.model.vocab = 1;
  } else {
    r.model = files.model(plan.model_file);
  }
  r.model.dtype = dt;
  return r;
}

namespace {

// A step of one stage timed alone (StepKind::single_stage): the configuration and layout it was
// built for (a kernel's or collective's: the defaults), a decode-mode shape of no tokens.
void time_single_stage(const EvalContext& ctx, const Workload& w, const LatencyModel& lat,
                       const StepWork& one, const ParallelConfig& c, const Layout& layout, StageList& out) {
  StepShape shape;
  shape.mode = Mode::decode;
  shape.batch = w.batch;
  shape.tokens = 0;
  shape.kv_cached = static_cast<double>(w.context);
  shape.layers = 0;
  shape.lm_head = false;
  const StepCall call{.work = one,
                      .config = c,
                      .layout = layout,
                      .shape = shape,
                      .workload = w,
                      .kind = StepKind::single_stage};
  lat.time_step(ctx, call, out);
}

// One stage timed alone (an operator measured on its own): the stage's share plus what the
// model adds to a step of that one stage (launch exposure).
double single_stage_time(const EvalContext& ctx, const Workload& wl, const LatencyModel& lat,
                         const StageWork& w, const ParallelConfig& c, const Layout& layout, double fraction) {
  // Kept per thread, as the evaluator keeps its scratch: both are large and zeroed when made.
  thread_local StepWork one;
  thread_local StageList out;
  one.size = 0;
  out.clear();
  StageWork& s = one.push();
  s = w;
  s.count = 1;
  one.tokens = 0;
  time_single_stage(ctx, wl, lat, one, c, layout, out);
  double t = 0;
  for (int i = 0; i < out.size; ++i) {
    const Stage& st = out.items[static_cast<std::size_t>(i)];
    t += (i == 0 ? fraction : 1.0) * st.count * st.visible_s;
  }
  return t;
}

struct PointEvaluator {
  const PreparedRow& row;
  const std::shared_ptr<const LatencyModel>& latency;
  const std::shared_ptr<const MemoryModel>& memory;
  const MachineSpec& machine;  // the row's, with the efficiency block predicted with

  double run(Mode mode, std::int64_t context, Evaluation& e) const {
    Workload w;
    w.mode = mode;
    w.context = context;
    w.batch = row.plan.batch;
    w.chunk = mode == Mode::prefill ? context : 0;
    const EvalContext ctx = make_eval_context(row.model, machine);
    Evaluator ev(ctx, w, latency, memory, {});
    ev.evaluate(row.plan.config, e);
    if (!e.valid)
      throw Error("configuration " + format_config(row.plan.config, machine) +
                  " is not valid: " + describe_invalid(e.layout.reason, row.model, machine, row.plan.config));
    return e.totals.latency_s;
  }

  double op_stage(Evaluation& e) const {
    const RowPlan& p = row.plan;
    run(p.stage_decode ? Mode::decode : Mode::prefill, p.input, e);
    // Timed alone, the stage is a step of its own (one launch, measured to completion): a
    // decode-mode context, whose steps always carry the latency model's step stage.
    Workload w;
    w.mode = Mode::decode;
    w.context = p.input;
    w.batch = p.batch;
    const EvalContext ctx = make_eval_context(row.model, machine);
    for (int i = 0; i < e.work.size; ++i) {
      const StageWork& s = e.work.stages[static_cast<std::size_t>(i)];
      if (p.stage == s.name)
        return single_stage_time(ctx, w, *latency, s, p.config, e.layout, p.stage_fraction);
    }
    throw Error("stage " + p.stage + " not in the step");
  }

  double kernel() const {
    const RowPlan& p = row.plan;
    Workload w;
    w.mode = Mode::decode;
    w.context = 1;
    const EvalContext ctx = make_eval_context(row.model, machine);
    StageWork s;
    s.name = p.measure == Measure::gemm ? "gemm" : "copy";
    s.block = StageBlock::ffn;
    s.count = 1;
    s.kernels = 1;
    if (p.measure == Measure::gemm) {
      // A grouped GEMM: `groups` GEMMs of M x N x K, each with its own weights (K x N), one launch.
      const double g = p.gemm_groups;
      s.flops = s.accounted_flops = 2 * g * p.gemm_m * p.gemm_n * p.gemm_k;
      s.hbm_bytes = s.accounted_hbm_bytes =
          g * (p.gemm_m * p.gemm_k + p.gemm_k * p.gemm_n + p.gemm_m * p.gemm_n) * ctx.act_bytes;
      s.gemm = {p.gemm_m, p.gemm_n, p.gemm_k};
    } else {
      s.hbm_bytes = s.accounted_hbm_bytes = 2 * p.copy_bytes;  // read once, write once
    }
    return single_stage_time(ctx, w, *latency, s, ParallelConfig{}, Layout{}, 1.0);
  }

  // One collective call timed alone: a stage with the collective only, through the latency
  // model (its CommRates apply), no framework cost (the rows' framework is `none`).
  double collective(CollectiveDetail* detail) const {
    const CollectivePlan& c = row.plan.collective;
    Workload w;
    w.mode = Mode::decode;
    w.context = 1;
    const EvalContext ctx = make_eval_context(row.model, machine);
    StepWork one;
    StageWork& s = one.push();
    s.name = "collective";
    s.block = StageBlock::ffn;
    s.count = 1;
    s.kernels = 1;
    Collective& coll = s.comms[0];
    coll.kind = c.kind;
    coll.ranks = static_cast<std::int32_t>(c.ranks);
    coll.bytes = c.bytes;
    coll.link = row_group(machine, c.ranks);
    s.comm_count = 1;
    one.tokens = 0;
    StageList out;
    time_single_stage(ctx, w, *latency, one, ParallelConfig{}, Layout{}, out);
    double t = 0;
    for (int i = 0; i < out.size; ++i) {
      const Stage& st = out.items[static_cast<std::size_t>(i)];
      t += st.count * st.visible_s;
    }
    if (out.size < 1 || !out.items[0].has_comm_algorithm)
      throw Error("no collective algorithm applies on level '" + machine.levels.front().name + "'");
    const Stage& st = out.items[0];
    if (detail) {
      detail->seconds = t;
      detail->algorithm = st.comm_algorithm;
      detail->protocol = st.comm_protocol;
      detail->bw_efficiency = st.comm_bw_efficiency;
      detail->extra_latency_s = st.comm_extra_latency;
    }
    return t;
  }

  // MLPerf Offline ceiling: every query issued at once, so the run is as fast as its decode at
  // the largest batch whose KV fits (context = OSL: the ISL is not stated and taken as 0), with
  // no prefill — dp x B / (one decode step at context OSL/2, the mean over the generation).
  double offline_bound(Evaluation& e) const {
    const RowPlan& p = row.plan;
    const std::int64_t osl = std::max<std::int64_t>(1, p.output);
    Workload w;
    w.mode = Mode::decode;
    w.context = osl;
    w.batch = 1;
    const EvalContext ctx = make_eval_context(row.model, machine);
    const Evaluator ev(ctx, w, latency, memory, {});
    ev.layout_for(row.plan.config, e);
    if (!e.layout.valid)
      throw Error("configuration " + format_config(row.plan.config, machine) +
                  " is not valid: " + describe_invalid(e.layout.reason, row.model, machine, row.plan.config));
    Evaluation scratch;
    HostStepTimer timer(ev, row.plan.config, e.layout, scratch);
    if (!timer.kv_fits(1, osl)) throw Error("the weights and one sequence's KV do not fit one replica");
    std::int64_t lo = 1, hi = 2;  // kv_fits(lo); the largest B by doubling, then bisection
    while (hi <= (std::int64_t{1} << 24) && timer.kv_fits(hi, osl)) {
      lo = hi;
      hi *= 2;
    }
    while (hi - lo > 1) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      (timer.kv_fits(mid, osl) ? lo : hi) = mid;
    }
    PreparedRow at = row;
    at.plan.batch = lo;
    PointEvaluator pe{at, latency, memory, machine};
    const double step = pe.run(Mode::decode, std::max<std::int64_t>(1, osl / 2), e);
    return static_cast<double>(p.config.dp) * static_cast<double>(lo) / step;
  }

  // Prefill + decode steps at contexts S .. S+O-2 (exact up to 16 steps, else a 9-point
  // trapezoid: a step's time is piecewise linear in the context).
  double request(Evaluation& e) const {
    const RowPlan& p = row.plan;
    double t = run(Mode::prefill, p.input, e);
    const std::int64_t n = p.output - 1;
    if (n <= 0) return t;
    if (n <= 16) {
      for (std::int64_t i = 0; i < n; ++i) t += run(Mode::decode, p.input + i, e);
      return t;
    }
    // Steps i = 0..n-1: sum f(i) = integral of f over [0, n-1] + (f(0) + f(n-1))/2, exact for
    // a linear f (Euler-Maclaurin); the integral by the trapezoid rule on 9 points.
    const int k = 9;
    const double first = run(Mode::decode, p.input, e);
    double prev_x = 0, prev_y = first, area = 0;
    for (int j = 1; j < k; ++j) {
      const double x = static_cast<double>(n - 1) * j / (k - 1);
      const double y = run(Mode::decode, p.input + static_cast<std::int64_t>(std::llround(x)), e);
      area += (x - prev_x) * (prev_y + y) / 2;
      prev_x = x;
      prev_y = y;
    }
    return t + area + (first + prev_y) / 2;
  }
};

}  // namespace

double predict_row(const PreparedRow& row, const std::shared_ptr<const LatencyModel>& latency,
                   const ParamSet& efficiency, const std::shared_ptr<const MemoryModel>& memory,
                   CollectiveDetail* detail) {
  // The machine with `efficiency` and the evaluation's scratch, kept per thread: a calibration
  // predicts each row thousands of times, and assigning into them reuses their storage where a
  // fresh copy would allocate each time.
  thread_local MachineSpec machine;
  // On the heap, once per thread: an Evaluation (its memos) is ~145 kB, too large for the static
  // TLS block every thread of the process would zero at its start.
  thread_local const std::unique_ptr<Evaluation> scratch = std::make_unique<Evaluation>();
  Evaluation& e = *scratch;
  machine = row.machine;
  machine.efficiency = efficiency;
  const PointEvaluator pe{row, latency, memory, machine};
  const RowPlan& p = row.plan;
  double si = 0;
  switch (p.measure) {
    case Measure::prefill:
      si = pe.run(Mode::prefill, p.input, e);
      if (p.derived == Derived::phase_tokens_per_s)
        return static_cast<double>(p.batch) * p.config.dp * static_cast<double>(p.input) / si /
               static_cast<double>(p.n_devices) * p.devices_per_unit;
      break;
    case Measure::decode_step:
      si = pe.run(Mode::decode, p.input + p.output / 2, e);
      if (p.derived == Derived::phase_tokens_per_s)
        return static_cast<double>(p.batch) * p.config.dp / si / static_cast<double>(p.n_devices) *
               p.devices_per_unit;
      if (p.derived == Derived::per_user_rate) return 1 / si;             // tok/s one user sees
      if (p.derived == Derived::mfu) return 100 * e.totals.compute_util;  // %
      break;
    case Measure::offline_bound:
      return pe.offline_bound(e);
    case Measure::full_load:
      throw Error("a full-load row is predicted through a serving model (predict_full_load_row)");
    case Measure::under_load:
      throw Error("a row under a load is predicted through the request simulator (predict_load_row)");
    case Measure::op_stage:
      si = pe.op_stage(e);
      break;
    case Measure::gemm:
    case Measure::copy:
      si = pe.kernel();
      if (p.derived == Derived::flop_rate)
        return 2 * p.gemm_groups * p.gemm_m * p.gemm_n * p.gemm_k / si * p.to_unit;
      break;
    case Measure::collective:
      si = pe.collective(detail);
      if (p.derived == Derived::busbw) si = all_reduce_busbw(p.collective.bytes, si, p.collective.ranks);
      break;
    case Measure::request: {
      const double e2e = pe.request(e);
      const double seqs = static_cast<double>(p.batch) * p.config.dp;
      switch (p.derived) {
        case Derived::time:
          si = e2e;
          break;
        case Derived::tokens_per_s:
          return seqs * static_cast<double>(p.output) / e2e;
        case Derived::tokens_per_s_per_pe:
          return seqs * static_cast<double>(p.output) / e2e / static_cast<double>(p.n_devices);
        case Derived::requests_per_s:
          return seqs / e2e;
        case Derived::time_per_token:
          si = e2e / (static_cast<double>(p.batch) * static_cast<double>(p.output));
          break;
        case Derived::busbw:
        case Derived::flop_rate:
        case Derived::per_user_rate:
        case Derived::mfu:
        case Derived::phase_tokens_per_s:
          break;
      }
      break;
    }
  }
  return si * p.to_unit;
}

}  // namespace tessera::accuracy
