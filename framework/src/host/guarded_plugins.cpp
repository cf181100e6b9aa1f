#include "host/guarded_plugins.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "host/plugin_barrier.hpp"
#include "host/returned_values.hpp"

namespace tessera {

namespace {

// What every proxy carries: the plugin's identity (a copy: the registry may go first).
class Guarded {
 public:
  explicit Guarded(const LoadedPlugin& plugin) : plugin_(plugin) {}
  virtual ~Guarded() = default;
  const LoadedPlugin& plugin() const { return plugin_; }

 protected:
  [[noreturn, gnu::cold, gnu::noinline]] void fail(const std::string& what) const {
    throw_plugin_failure(plugin_, {}, what, false);
  }
  LoadedPlugin plugin_;
};

class GuardedLatency final : public LatencyModel, public Guarded {
 public:
  GuardedLatency(std::shared_ptr<LatencyModel> inner, const LoadedPlugin& p)
      : Guarded(p), inner_(std::move(inner)) {}
  void time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const override {
    call_plugin(plugin_, "time_step", [&] { inner_->time_step(ctx, step, out); });
    if (!stages_plausible(out)) check(out);
    if (out.size < step.work.size) too_few(out.size, step);
  }

 private:
  // Stage i of `out` is work stage i: a model may append stages, never leave one out (the host
  // would add up a step without it: 0 s for no stages at all).
  [[noreturn, gnu::cold, gnu::noinline]] void too_few(int n, const StepCall& step) const {
    fail("time_step returned " + std::to_string(n) + " stage" + (n == 1 ? "" : "s") + " for a step of " +
         std::to_string(step.work.size) + " (" + step_kind_name(step.kind) +
         "); stage i of the output must be work stage i, for every stage of the work (a model may append "
         "stages after them, never leave one out)");
  }
  [[gnu::cold, gnu::noinline]] void check(const StageList& out) const {
    const std::string bad = describe_bad_stages(out);
    if (!bad.empty()) fail("time_step returned " + bad);
  }
  std::shared_ptr<LatencyModel> inner_;
};

class GuardedMemory final : public MemoryModel, public Guarded {
 public:
  GuardedMemory(std::shared_ptr<MemoryModel> inner, const LoadedPlugin& p)
      : Guarded(p), inner_(std::move(inner)) {}
  void evaluate(const EvalContext& ctx, const Workload& workload, const ParallelConfig& c,
                const Layout& layout, MemoryUsage& out) const override {
    call_plugin(plugin_, "evaluate", [&] { inner_->evaluate(ctx, workload, c, layout, out); });
    if (!memory_plausible(out)) check(out);
  }

 private:
  [[gnu::cold, gnu::noinline]] void check(const MemoryUsage& out) const {
    const std::string bad = describe_bad_memory(out);
    if (!bad.empty()) fail("evaluate returned " + bad);
  }
  std::shared_ptr<MemoryModel> inner_;
};

class GuardedObjective final : public Objective, public Guarded {
 public:
  GuardedObjective(std::shared_ptr<Objective> inner, const LoadedPlugin& p)
      : Guarded(p), inner_(std::move(inner)) {}
  Direction direction() const override {
    const Direction d = call_plugin(plugin_, "direction", [&] { return inner_->direction(); });
    if (d != Direction::minimize && d != Direction::maximize)
      fail("direction() returned " + std::to_string(static_cast<int>(d)) +
           " (neither minimize nor maximize)");
    return d;
  }
  const char* unit() const override {
    const char* u = call_plugin(plugin_, "unit", [&] { return inner_->unit(); });
    if (u == nullptr) null_unit();
    return u;
  }
  double evaluate(const EvalContext& ctx, const Workload& workload, const ParallelConfig& c,
                  const EvaluatedStep& step) const override {
    const double v =
        call_plugin(plugin_, "evaluate", [&] { return inner_->evaluate(ctx, workload, c, step); });
    if (!std::isfinite(v)) check(v, step.totals, step.memory);
    return v;
  }

 private:
  [[noreturn, gnu::cold, gnu::noinline]] void null_unit() const {
    fail("unit() returned a null pointer (return \"\" for a value without a unit)");
  }
  [[noreturn, gnu::cold, gnu::noinline]] void bad_direction(Direction d) const {
    fail("direction() returned " + std::to_string(static_cast<int>(d)) + " (neither minimize nor maximize)");
  }
  [[gnu::cold, gnu::noinline]] void check(double v, const StepTotals& totals,
                                          const MemoryUsage& memory) const {
    // Handed a non-finite total, the value may be non-finite too: the host marks the
    // configuration infeasible for its own quantity (docs/limits.md "Non-finite results").
    if (!objective_inputs_finite(totals, memory)) return;
    fail("evaluate returned " + format_returned(v) + "; an objective's value must be finite");
  }
  std::shared_ptr<Objective> inner_;
};

class GuardedServing final : public ServingModel, public Guarded {
 public:
  GuardedServing(std::shared_ptr<ServingModel> inner, const LoadedPlugin& p)
      : Guarded(p), inner_(std::move(inner)) {}
  void evaluate(const EvalContext& ctx, const ParallelConfig& c, const ServingRequest& request,
                const ServingPoint& point, StepTimer& timer, ServingMetrics& out) const override {
    call_plugin(plugin_, "evaluate", [&] { inner_->evaluate(ctx, c, request, point, timer, out); });
    if (!serving_plausible(out)) check(out);
  }

 private:
  [[gnu::cold, gnu::noinline]] void check(const ServingMetrics& out) const {
    const std::string bad = describe_bad_serving(out);
    if (!bad.empty()) fail("evaluate returned " + bad);
  }
  std::shared_ptr<ServingModel> inner_;
};

class GuardedScheduler final : public SchedulerPolicy, public Guarded {
 public:
  GuardedScheduler(std::shared_ptr<SchedulerPolicy> inner, const LoadedPlugin& p)
      : Guarded(p), inner_(std::move(inner)) {}
  void schedule(const EngineState& engine, const SchedulerQueues& queues,
                SchedulerDecision& out) const override {
    call_plugin(plugin_, "schedule", [&] { inner_->schedule(engine, queues, out); });
  }
  std::int64_t route(const SchedSequence& request, const ReplicaLoads& loads) const override {
    return call_plugin(plugin_, "route", [&] { return inner_->route(request, loads); });
  }

 private:
  std::shared_ptr<SchedulerPolicy> inner_;
};

class GuardedRun final : public SearchRun {
 public:
  GuardedRun(std::unique_ptr<SearchRun> inner, std::shared_ptr<const SearchStrategy> strategy,
             const LoadedPlugin& p)
      : plugin_(p), strategy_(std::move(strategy)), inner_(std::move(inner)) {}
  std::size_t propose(std::span<ParallelConfig> out) override {
    const std::size_t n = call_plugin(plugin_, "propose", [&] { return inner_->propose(out); });
    if (n > out.size()) too_many(n, out.size());
    return n;
  }
  void receive(std::span<const ParallelConfig> configs, std::span<const SearchScore> scores) override {
    call_plugin(plugin_, "receive", [&] { inner_->receive(configs, scores); });
  }

 private:
  [[noreturn, gnu::cold, gnu::noinline]] void too_many(std::size_t n, std::size_t room) const {
    throw_plugin_failure(
        plugin_, {},
        "propose returned " + std::to_string(n) + " configurations for a buffer of " + std::to_string(room),
        false);
  }
  LoadedPlugin plugin_;
  std::shared_ptr<const SearchStrategy> strategy_;  // a run must not outlive its strategy
  std::unique_ptr<SearchRun> inner_;                // destroyed first
};

class GuardedSearch final : public SearchStrategy, public Guarded {
 public:
  GuardedSearch(std::shared_ptr<SearchStrategy> inner, const LoadedPlugin& p)
      : Guarded(p), inner_(std::move(inner)) {}
  std::unique_ptr<SearchRun> start(const SearchSpace& space) const override {
    std::unique_ptr<SearchRun> run = call_plugin(plugin_, "start", [&] { return inner_->start(space); });
    if (!run) fail("start returned no SearchRun (a null pointer)");
    return std::make_unique<GuardedRun>(std::move(run), inner_, plugin_);
  }
  bool separable() const override {
    return call_plugin(
        plugin_, "separable", [&] { return inner_->separable(); }, "separable");
  }

 private:
  std::shared_ptr<SearchStrategy> inner_;
};

template <class Proxy, class T>
std::shared_ptr<T> make_guarded(std::shared_ptr<T> object, const LoadedPlugin& plugin) {
  if (!object) return nullptr;
  return std::make_shared<Proxy>(std::move(object), plugin);
}

}  // namespace

std::shared_ptr<LatencyModel> guard_plugin(std::shared_ptr<LatencyModel> object, const LoadedPlugin& plugin) {
  return make_guarded<GuardedLatency>(std::move(object), plugin);
}
std::shared_ptr<MemoryModel> guard_plugin(std::shared_ptr<MemoryModel> object, const LoadedPlugin& plugin) {
  return make_guarded<GuardedMemory>(std::move(object), plugin);
}
std::shared_ptr<SearchStrategy> guard_plugin(std::shared_ptr<SearchStrategy> object,
                                             const LoadedPlugin& plugin) {
  return make_guarded<GuardedSearch>(std::move(object), plugin);
}
std::shared_ptr<Objective> guard_plugin(std::shared_ptr<Objective> object, const LoadedPlugin& plugin) {
  return make_guarded<GuardedObjective>(std::move(object), plugin);
}

std::shared_ptr<ServingModel> guard_plugin(std::shared_ptr<ServingModel> object, const LoadedPlugin& plugin) {
  return make_guarded<GuardedServing>(std::move(object), plugin);
}
std::shared_ptr<SchedulerPolicy> guard_plugin(std::shared_ptr<SchedulerPolicy> object,
                                              const LoadedPlugin& plugin) {
  return make_guarded<GuardedScheduler>(std::move(object), plugin);
}

const LoadedPlugin* plugin_behind(const PluginObject& object) {
  const auto* g = dynamic_cast<const Guarded*>(&object);
  return g ? &g->plugin() : nullptr;
}

void throw_plugin_error(const PluginObject& object, std::string_view kind, const std::string& what) {
  if (const LoadedPlugin* p = plugin_behind(object)) throw_plugin_failure(*p, {}, what, false);
  throw PluginError(std::string(kind) + ": " + what);
}

}  // namespace tessera
