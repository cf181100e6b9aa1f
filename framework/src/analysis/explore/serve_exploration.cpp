#include "analysis/explore/serve_exploration.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <optional>

#include "analysis/explore/serve_point_values.hpp"
#include "analysis/serving/disagg_study.hpp"
#include "analysis/serving/serving_answer.hpp"
#include "core/executor.hpp"
#include "scenario/sweeps/hardware_points.hpp"
#include "scenario/sweeps/sweep_size.hpp"

namespace tessera {

namespace {

// A pool's own machine at hardware point i (its axes set), as a session.
std::unique_ptr<Session> pool_at(const Session& base, const PoolMachine& pm, std::string_view pool,
                                 std::uint64_t i) {
  PoolMachine at = pm;
  at.machine = hardware_point(base.scenario().sweep, pm.machine, i, {}, pool).machine;
  return base.on_machine(at);
}

// Each axis's ranked values and order (ServeExploreResult::rankings).
void rank_serve_points(ServeExploreResult& r, bool disaggregated) {
  const std::size_t n = r.points.size();
  for (std::size_t a = 0; a < r.axes.size(); ++a) {
    const ServeAxis& axis = r.axes[a];
    std::vector<double> v(n, NAN), pair(n, NAN);
    bool priced = disaggregated && axis.name == "cost_per_mtok", any_pair = false;
    for (std::size_t i = 0; i < n; ++i) {
      const ServeExplorePoint& p = r.points[i];
      pair[i] = p.disaggregated_cost_per_mtok;
      any_pair = any_pair || !std::isnan(pair[i]);
      if (p.disaggregated && std::isnan(pair[i])) priced = false;  // a pair not priced: none is ranked by it
      if (axis.name == "tokens_per_s_per_pe")
        v[i] = p.best > 0 ? p.best : NAN;
      else if (a < p.objective_values.size())
        v[i] = p.objective_values[a];
    }
    priced = priced && any_pair;
    if (priced) v = pair;
    r.ranked_disaggregated.push_back(priced || (disaggregated && axis.name == "tokens_per_s_per_pe"));
    r.rankings.push_back(rank_by(v, axis.direction));
    r.ranked_values.push_back(std::move(v));
  }
  r.ranking =
      r.rankings.empty() ? rank_by(std::vector<double>(n, NAN), Direction::maximize) : r.rankings.front();
}

// A pool's own session at hardware point i: on its own machine (serving.prefill_machine /
// decode_machine), with its own load balancer (serving.disaggregated.<pool>.eplb) and MoE exchange, as
// pool_sessions derives them; null when the pool runs on `base`.
std::unique_ptr<Session> own_pool(const Session& base, bool prefill, std::size_t i) {
  const ServingSpec& sv = base.scenario().serving;
  const PoolMachine& m = prefill ? sv.prefill_machine : sv.decode_machine;
  std::unique_ptr<Session> own;
  if (m.given) own = pool_at(base, m, prefill ? "serving.prefill_machine" : "serving.decode_machine", i);
  if (auto e = pool_own_session(own ? *own : base, prefill)) own = std::move(e);
  return own;
}

}  // namespace

ServeExploreResult explore_serving(const Session& session, const ServeExploreOptions& options) {
  const Scenario& scenario = session.scenario();
  const Sweep& sweep = scenario.sweep;
  const ServingSpec& sv = scenario.serving;
  ServeExploreResult result;
  const std::uint64_t total = sweep_hardware_points(sweep);
  report_progress(options.on_progress, 0, total, "hardware points");
  // The plan: one work unit per hardware point (its sessions and serving studies on the threads
  // the executor gives it), merged in the points' order (docs/architecture.md "Studies: plan,
  // work units, merge").
  std::vector<std::optional<ServeExplorePoint>> outcomes(static_cast<std::size_t>(total));
  // serving.disaggregated with cost_per_mtok among the objectives: the pair priced too.
  bool prices = false;
  for (const PluginChoice& c : scenario.plugins.objectives) prices = prices || c.name == "cost_per_mtok";
  prices = prices && sv.disaggregated.enabled;
  std::vector<std::string> cost_notes(outcomes.size());
  ThreadExecutor own(options.threads);
  Executor& executor = options.executor ? *options.executor : own;
  executor.execute(
      outcomes.size(),
      [&](std::size_t i, const UnitSlot& slot) {
        ServeStudyOptions so;
        so.threads = slot.threads;
        so.top = 1;
        const HardwarePoint hp = hardware_point(sweep, session.machine(), i, session.machine_block_owner());
        std::unique_ptr<Session> base = session.with_point(hp.machine, hp.plugin_params);
        if (hp.speculative()) base = base->with_speculative(hp.speculative_steps, hp.speculative_acceptance);
        std::unique_ptr<Session> own_prefill = own_pool(*base, true, i),
                                 own_decode = own_pool(*base, false, i);
        ServeExplorePoint p;
        p.values = hp.values;
        const ServingAnswer a = run_serving_answer(*base, own_prefill.get(), own_decode.get(), so);
        p.aggregated = a.aggregated.best_tokens_per_s_per_pe;
        auto keep = [&](const ServeResult& r, const std::string& machine) {
          p.objective_values = best_on_axes(r);
          const ServeRecord* best = nullptr;
          for (const ServeRecord& t : r.top)
            if (t.feasible && t.tokens_per_s_per_pe == r.best_tokens_per_s_per_pe) {
              best = &t;
              break;
            }
          if (best) p.aggregated_best = *best;
          p.aggregated_machine = machine;
        };
        keep(a.aggregated, base->machine().name);
        for (const AggregatedOn& on : a.also)
          if (on.result.best_tokens_per_s_per_pe > p.aggregated) {
            p.aggregated = on.result.best_tokens_per_s_per_pe;
            keep(on.result, on.machine);
          }
        if (a.disagg) {
          p.disaggregated = a.disagg->result.best;
          if (p.disaggregated && p.aggregated > 0)
            p.gain = p.disaggregated->tokens_per_s_per_pe / p.aggregated;
          if (p.disaggregated && prices)
            p.disaggregated_cost_per_mtok =
                pair_cost_per_mtok(own_prefill ? *own_prefill : *base, own_decode ? *own_decode : *base,
                                   *p.disaggregated, cost_notes[i]);
        }
        // What ranks: with serving.disaggregated the pairing's best (which parts to pair), else the
        // aggregated best.
        p.best = !sv.disaggregated.enabled ? p.aggregated
                 : p.disaggregated         ? p.disaggregated->tokens_per_s_per_pe
                                           : 0.0;
        outcomes[i] = std::move(p);
      },
      [&](std::size_t i) {
        result.points.push_back(std::move(*outcomes[i]));
        outcomes[i].reset();
        report_progress(options.on_progress, result.points.size(), total, "hardware points");
      });
  result.axes = serve_study_axes(session.evaluator().objectives());
  rank_serve_points(result, sv.disaggregated.enabled);
  for (const std::string& why : cost_notes)
    if (!why.empty()) result.disaggregated_cost_note = why;
  return result;
}

}  // namespace tessera
