#pragma once
// Evaluates one parallel configuration: layout and validity, memory, the step's stages
// through the latency model, the totals of docs/physics.md §8-§9, and the objectives. The buffers
// live in a caller-owned Evaluation reused between configurations: nothing is allocated
// per configuration.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "eval/context_watch.hpp"
#include "physics/collective_memo.hpp"
#include "scenario/serving_stacks/stack_profile.hpp"
#include "tessera/error.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/latency_model.hpp"
#include "tessera/kinds/memory_model.hpp"
#include "tessera/kinds/objective.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/layout.hpp"
#include "tessera/physics/step_result.hpp"
#include "tessera/physics/step_work.hpp"
#include "tessera/stage.hpp"

namespace tessera {

inline constexpr int kMaxObjectives = 8;

// The first quantity of a valid configuration that came out non-finite (inf or NaN): such a
// configuration is infeasible ("infeasible: non-finite latency"), counted and never ranked.
// A static enum, not a string: the check costs a few comparisons per configuration.
enum class NonFinite : std::uint8_t {
  none,
  latency,
  throughput,
  memory,
  utilization,
  efficiency,
  accounting,  // FLOP, byte or wire totals
  objective,
};
// "latency", "memory use", ...
TESSERA_API const char* non_finite_name(NonFinite q);

struct Evaluation {
  ParallelConfig config;
  Layout layout;
  bool valid = false;
  bool feasible = false;                   // valid, fits memory and every quantity finite
  NonFinite non_finite = NonFinite::none;  // the first non-finite quantity (valid configs only)
  MemoryUsage memory;
  StageList stages;  // decode: the step; prefill: per-chunk averages (count = occurrences)
  StepTotals totals;
  // prefill: the time between two prefills of a stream at the pipeline's pace (pp > 1: the
  // busiest stage's time per prompt batch; else latency_s). Not an SDK field: the host's
  // disaggregated study reads it through HostStepTimer::prefill_period.
  double prefill_period_s = 0;
  std::array<double, kMaxObjectives> objectives{};
  // scratch
  StepWork work;
  StageList chunk_stages;
  // Layouts of recent placements (layout_key), for the Evaluator that computed them: a sweep
  // maps groups to links once per placement rather than once per configuration.
  struct LayoutMemo {
    static constexpr std::size_t kSlots = 16;
    std::uint64_t owner = 0;  // Evaluator::id() of the entries; 0 = none
    std::array<bool, kSlots> used{};
    std::array<ParallelConfig, kSlots> keys{};
    std::array<Layout, kSlots> layouts{};
  } layout_memo;
  // The collectives the latency model priced for the Evaluator timing steps into this buffer
  // (physics/collective_memo.hpp).
  CollectiveMemo collective_memo;
  // Forgets both memos: the next evaluation costs what a configuration met first costs.
  void clear_memos() {
    layout_memo.owner = 0;
    collective_memo.clear();
  }
};

struct ObjectiveSlot {
  std::string name;
  std::shared_ptr<const Objective> objective;
  Direction direction = Direction::minimize;
  std::string unit;
};

// Rethrows a plugin's failure while evaluating `c` as `<message>; at configuration cp=..,tp=..`
// (the spelling --config reads).
[[noreturn]] TESSERA_API void throw_at_configuration(const PluginError& e, const ParallelConfig& c,
                                                     const MachineSpec& machine);

class TESSERA_API Evaluator {
 public:
  // `ctx`: the model, machine and their constants, fixed for the evaluator's life; `workload`: the
  // scenario's, the query evaluate() answers (a serving study asks others: time_workload, ...).
  Evaluator(const EvalContext& ctx, const Workload& workload, std::shared_ptr<const LatencyModel> latency,
            std::shared_ptr<const MemoryModel> memory, std::vector<ObjectiveSlot> objectives);
  Evaluator(const Evaluator&) = delete;  // the context watch holds the addresses of ctx_, workload_
  Evaluator& operator=(const Evaluator&) = delete;

  const EvalContext& context() const { return ctx_; }
  const Workload& workload() const { return workload_; }
  // Unique per Evaluator ever constructed in the process (never reused): tags scratch state.
  std::uint64_t id() const { return id_; }
  const std::vector<ObjectiveSlot>& objectives() const { return objectives_; }

  // Fills `out` for `c`. Invalid configs stop after the layout (out.valid = false); objectives
  // are computed for every valid config, feasible or not. A plugin's failure or bad value
  // (PluginError, host/guarded_plugins.hpp) is rethrown with the configuration appended.
  void evaluate(const ParallelConfig& c, Evaluation& out) const;

  // Throws PluginError naming the plugin when the context, the workload, the model or the machine
  // changed since construction (a plugin wrote through const_cast: eval/context_watch.hpp); `serving`, when
  // given, is named among the plugins that may have. evaluate() calls it after each configuration;
  // the serving evaluator after each point. A few memcmp when nothing changed.
  void verify_context(const ParallelConfig& c, const PluginObject* serving = nullptr) const {
    if (!watch_.intact()) [[unlikely]]
      context_written(c, serving);
  }

  // Time of one pipeline stage (ceil(L/pp) layers, the heaviest mix) for `batch` sequences
  // and `tokens` new tokens, kv_cached P, chunk c; includes one hop, no lm_head.
  // `w`: the workload the step belongs to (its scope; a step of the pipeline-full decode of `w`).
  double stage_time(const Workload& w, const ParallelConfig& c, const Layout& layout, Mode mode,
                    std::int64_t batch, std::int64_t tokens, double kv_cached, std::int64_t chunk,
                    bool lm_head, Evaluation& scratch) const;

  // ---- Serving (eval/serving_evaluator.hpp): steps of workloads other than the scenario's.
  // `w` is the question — a decode or prefill workload — asked of the evaluator's one context
  // (never copied or rewritten to ask it). `out.layout` must hold the configuration's layout
  // (layout_for).
  void layout_for(const ParallelConfig& c, Evaluation& out) const;
  // The step `evaluate` times for `w` (decode: the whole step; prefill: TTFT), into
  // out.stages and out.totals (latency, throughput, accounting): no memory, no objectives.
  void time_workload(const Workload& w, const ParallelConfig& c, Evaluation& out) const;
  // The prefill chunks of `prompts` prompts, `tokens` tokens each after `prefix` (every layer,
  // pp - 1 hops; lm_head when `last`), beside `decode_batch` decode tokens at `decode_context` (a
  // mixed iteration: StepKind::mixed_step; 0 = a plain prefill_chunk). Into scratch.chunk_stages.
  double chunk_time(const Workload& w, const ParallelConfig& c, const Layout& layout, std::int64_t prompts,
                    std::int64_t tokens, std::int64_t prefix, bool last, std::int64_t decode_batch,
                    double decode_context, Evaluation& scratch) const;
  // Speculative decoding (docs/physics.md §12.8), into scratch.chunk_stages. A verify step: `w`'s
  // decode step with `queries` (k + 1) new tokens per sequence, every layer, the stages in series.
  double verify_time(const Workload& w, const ParallelConfig& c, std::int64_t queries,
                     Evaluation& scratch) const;
  // One draft step of a head on the target (an MTP module, an EAGLE head): one decoder layer of
  // the target's shape (its MoE FFN when `moe` and the model has experts, else a dense one), the
  // head's input projection over `fc_inputs` hidden sizes, and the lm_head, at `w`'s batch and
  // context. The engine drafts inside its iteration: what the latency model appends after the
  // work's stages (per-step host costs) is left out.
  double draft_head_time(const Workload& w, const ParallelConfig& c, double fc_inputs, bool moe,
                         Evaluation& scratch) const;
  // One draft step of a separate draft model (method draft; called on the draft model's evaluator):
  // its whole decode step at `w`'s batch and context on `scratch.layout`, its work's stages only
  // (as draft_head_time: the iteration's host costs are the verify step's).
  double draft_model_time(const Workload& w, const ParallelConfig& c, Evaluation& scratch) const;
  // The configuration a draft model runs at beside configuration `c` of the target: the same
  // tensor, context, pipeline and data parallelism (engines shard the drafter as the target), no
  // expert parallelism for a dense drafter.
  static ParallelConfig draft_model_config(const ParallelConfig& c, const ModelSpec& draft);
  // The framework's KV-cache rule (eval/engine_kv.hpp); rule none: the memory model's budget.
  // Set once by the session, before any evaluation.
  void set_engine_kv(const EngineKv& rule) { engine_kv_ = rule; }
  const EngineKv& engine_kv() const { return engine_kv_; }
  // The draft model's evaluator (serving.speculative method draft; the session owns it), or null.
  void set_draft_model(const Evaluator* draft) { draft_model_ = draft; }
  const Evaluator* draft_model() const { return draft_model_; }
  // The memory plugin for `w`.
  void memory_of(const Workload& w, const ParallelConfig& c, const Layout& layout, MemoryUsage& out) const;

  // The work of the step `explain` lists collectives for: decode's whole step (B sequences,
  // all layers), prefill's chunk `chunk_index` (0-based) as evaluate() times it. Fills `out`.
  void explained_work(const ParallelConfig& c, const Layout& layout, std::int64_t chunk_index,
                      StepWork& out) const;

 private:
  // Builds the work of `shape`, has the latency model time it (as a step of `kind`; chunk j of
  // n for a prefill chunk, n = `chunk_count`, 0: the workload's) into `out`, and returns the
  // time on the critical path.
  double time_into(const Workload& w, const StepShape& shape, StepKind kind, std::int64_t chunk_index,
                   const ParallelConfig& c, const Layout& layout, Evaluation& e, StageList& out,
                   std::int64_t chunk_count = 0) const;
  // Adds `work`'s FLOPs and bytes to `totals`; the bytes go to the tier that `stages` (the
  // latency model's timing of `work`, stage by stage) names.
  void accumulate_totals(const StepWork& work, const StageList& stages, const ParallelConfig& c,
                         StepTotals& totals) const;
  StepShape decode_shape(const Workload& w, const ParallelConfig& c) const;
  StepShape prefill_chunk_shape(const Workload& w, const ParallelConfig& c, std::int64_t j) const;
  void decode(const Workload& w, const ParallelConfig& c, Evaluation& out) const;
  void prefill(const Workload& w, const ParallelConfig& c, Evaluation& out) const;

  void layout_of(const ParallelConfig& c, Evaluation& out) const;
  void evaluate_config(const ParallelConfig& c, Evaluation& out) const;
  // After each call into a plugin: only an Evaluator replaying a configuration to find which
  // plugin wrote into the context checks there (context_written).
  void after_call(const PluginObject& plugin, const char* kind, const char* call) const {
    if (check_each_call_) [[unlikely]]
      check_after_call(plugin, kind, call);
  }
  [[gnu::cold, gnu::noinline]] void check_after_call(const PluginObject& plugin, const char* kind,
                                                     const char* call) const;
  [[noreturn, gnu::cold, gnu::noinline]] void context_written(const ParallelConfig& c,
                                                              const PluginObject* serving) const;

  // mutable: context_written restores them from the watch's snapshot
  mutable EvalContext ctx_;
  mutable Workload workload_;
  std::uint64_t id_ = 0;
  std::shared_ptr<const LatencyModel> latency_;
  std::shared_ptr<const MemoryModel> memory_;
  std::vector<ObjectiveSlot> objectives_;
  ContextWatch watch_{ctx_, workload_};
  bool check_each_call_ = false;
  EngineKv engine_kv_;
  const Evaluator* draft_model_ = nullptr;
};

}  // namespace tessera
