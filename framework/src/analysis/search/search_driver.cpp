#include "analysis/search/search_driver.hpp"

#include "analysis/search/search_summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <unordered_set>

#include "core/cancellation.hpp"
#include "core/checkpoint/checkpointed_plan.hpp"
#include "core/executor.hpp"
#include "core/statistics/reservoir.hpp"
#include "eval/batch_evaluator.hpp"
#include "host/guarded_plugins.hpp"
#include "tessera/error.hpp"
#include "tessera/limits.hpp"
#include "tessera/units.hpp"

namespace tessera {

void fill_record_numbers(const Session& session, const Evaluation& e, ConfigRecord& r) {
  const auto& objectives = session.evaluator().objectives();
  r.config = e.config;
  r.valid = e.valid;
  r.pes = e.config.pes();
  r.placement_valid = e.layout.valid;
  r.units_used = e.layout.units_used;
  r.invalid_reason = e.layout.reason;
  if (!e.valid) {
    r.feasible = false;
    r.fits_memory = false;
    r.score = std::numeric_limits<double>::infinity();
    return;
  }
  r.fits_memory = e.memory.fits;
  r.feasible = e.feasible;
  r.non_finite = e.non_finite;
  r.objectives = e.objectives;
  r.score = objectives.empty() ? e.totals.latency_s : oriented(e.objectives[0], objectives[0].direction);
  if (e.non_finite != NonFinite::none) r.score = std::numeric_limits<double>::infinity();  // never best
  r.latency_s = e.totals.latency_s;
  r.throughput_tok_s = e.totals.throughput_tok_s;
  r.pipeline_throughput_tok_s = e.totals.pipeline_throughput_tok_s;
  r.efficiency = e.totals.efficiency;
  r.compute_util = e.totals.compute_util;
  r.bw_util = e.totals.bw_util;
  r.weights_bytes = e.memory.weights_bytes;
  r.kv_bytes = e.memory.kv_bytes;
  r.transient_bytes = e.memory.transient_bytes;
  r.used_bytes = e.memory.used_bytes;
  r.budget_bytes = e.memory.budget_bytes;
  r.hbm_utilization = e.memory.budget_bytes > 0 ? e.memory.used_bytes / e.memory.budget_bytes : 0;
}

std::string record_reason(const Session& session, const ConfigRecord& r) {
  if (!r.valid) return describe_invalid(r.invalid_reason, session.model(), session.machine(), r.config);
  if (r.non_finite != NonFinite::none)
    return std::string("infeasible: non-finite ") + non_finite_name(r.non_finite);
  if (!r.fits_memory)
    return "weights+KV+transient (" + format_quantity(r.used_bytes, Dimension::bytes) +
           ") exceed the per-PE budget (" + format_quantity(r.budget_bytes, Dimension::bytes) + ")";
  return "";
}

void fill_record(const Session& session, const Evaluation& e, ConfigRecord& r) {
  fill_record_numbers(session, e, r);
  r.reason = record_reason(session, r);
}

ConfigRecord evaluate_record(const Session& session, const ParallelConfig& c, Evaluation& scratch) {
  session.evaluator().evaluate(c, scratch);
  scratch.config = c;
  ConfigRecord r;
  fill_record(session, scratch, r);
  return r;
}

namespace {

using namespace search_summary;

// Evaluates configs[i] into out[i] (numbers and grid position, no reason text) with the
// batch evaluator. Nothing is allocated per configuration. Stops early (the slots then
// incomplete) when cancellation is requested.
void evaluate_batch(const Session& session, const GridSpace& space,
                    const std::vector<ParallelConfig>& configs, std::size_t n, std::vector<ConfigRecord>& out,
                    BatchEvaluator& evaluator) {
  evaluator.run(n, [&](std::size_t begin, std::size_t end, Evaluation& e) {
    for (std::size_t i = begin; i < end; ++i) {
      session.evaluator().evaluate(configs[i], e);
      e.config = configs[i];
      ConfigRecord& r = out[i];
      r.objectives = {};
      r.latency_s = r.throughput_tok_s = r.pipeline_throughput_tok_s = 0;
      r.efficiency = r.compute_util = r.bw_util = 0;
      r.weights_bytes = r.kv_bytes = r.transient_bytes = r.used_bytes = r.budget_bytes = r.hbm_utilization =
          0;
      r.reason.clear();
      fill_record_numbers(session, e, r);
      r.grid_index = space.index_of(configs[i]);
    }
  });
}

// The session's objective directions, in order (the ranking's ties, the frontier's axes).
std::vector<Direction> directions(const Session& session) {
  std::vector<Direction> dirs;
  for (const auto& o : session.evaluator().objectives()) dirs.push_back(o.direction);
  return dirs;
}

// A contiguous slice [first, first + count) of a grid's valid configurations, as a separable
// strategy sees its work unit: the same knobs and rules, only the slice's configurations.
class SliceSpace final : public SearchSpace {
 public:
  SliceSpace(const GridSpace& base, std::uint64_t first, std::uint64_t count)
      : base_(base), first_(first), count_(count) {}
  const std::vector<std::int32_t>& values_cp() const override { return base_.values_cp(); }
  const std::vector<std::int32_t>& values_tp() const override { return base_.values_tp(); }
  const std::vector<std::int32_t>& values_pp() const override { return base_.values_pp(); }
  const std::vector<std::int32_t>& values_dp() const override { return base_.values_dp(); }
  const std::vector<std::int32_t>& values_ep() const override { return base_.values_ep(); }
  const std::vector<KvShardMode>& values_kv_shard_mode() const override {
    return base_.values_kv_shard_mode();
  }
  const std::vector<FfnShardScope>& values_ffn_shard_scope() const override {
    return base_.values_ffn_shard_scope();
  }
  const std::vector<std::int8_t>& values_tp_placement() const override { return base_.values_tp_placement(); }
  const std::vector<std::int8_t>& values_cp_placement() const override { return base_.values_cp_placement(); }
  const std::vector<CpRingVariant>& values_cp_ring_variant() const override {
    return base_.values_cp_ring_variant();
  }
  ParallelConfig defaults() const override { return base_.defaults(); }
  bool is_valid_canonical(const ParallelConfig& c) const override { return in_slice(base_.index_of(c)); }
  ParallelConfig canonicalize(const ParallelConfig& c) const override { return base_.canonicalize(c); }
  const std::vector<ParallelConfig>& valid_configs() const override {
    if (list_.size() != count_) {
      list_.resize(static_cast<std::size_t>(count_));
      base_.valid_range(first_, list_);
    }
    return list_;
  }
  std::uint64_t valid_count() const override { return count_; }
  std::size_t valid_range(std::uint64_t first, std::span<ParallelConfig> out) const override {
    if (first >= count_) return 0;
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), count_ - first));
    return base_.valid_range(first_ + first, out.first(n));
  }
  bool in_slice(std::int64_t index) const {
    return index >= 0 && static_cast<std::uint64_t>(index) >= first_ &&
           static_cast<std::uint64_t>(index) < first_ + count_;
  }

 private:
  const GridSpace& base_;
  std::uint64_t first_, count_;
  mutable std::vector<ParallelConfig> list_;
};

// The score a strategy receives for the evaluated configuration r: its feasibility, its primary
// score and its objectives oriented (lower is better) into `values`, infinite where invalid.
void score_proposal(const ConfigRecord& r, const std::vector<Direction>& dirs, std::span<double> values,
                    SearchScore& score) {
  score.feasible = r.feasible;
  score.primary = r.valid ? r.score : std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < dirs.size(); ++k)
    values[k] = r.valid && r.non_finite == NonFinite::none ? oriented(r.objectives[k], dirs[k])
                                                           : std::numeric_limits<double>::infinity();
  score.objectives = values;
}

// Termination (docs/plugin-guide.md §10): a search that proposes nothing new for more than
// search.stale_rounds rounds in a row, or more distinct configurations than the grid has
// points, is stopped with an error naming it.
void check_search_termination(const SearchStrategy& strategy, std::uint64_t stale_rounds,
                              std::uint64_t stale_limit, std::uint64_t evaluated, std::uint64_t bound,
                              bool sliced) {
  if (stale_rounds > stale_limit)
    throw_plugin_error(strategy, "search",
                       "proposed nothing new in " + std::to_string(stale_rounds) +
                           " rounds in a row (only configurations it had proposed before), which " +
                           limit_exceeded("search.stale_rounds") +
                           "; propose returns 0 when the search is done");
  if (evaluated > bound)
    throw_plugin_error(strategy, "search",
                       "proposed " + std::to_string(evaluated) + " distinct configurations, more than the " +
                           (sliced ? "slice's " : "grid's ") + std::to_string(bound) +
                           " points; propose returns 0 when the search is done");
}

// One work unit: the strategy run over `space` (the whole grid, or one slice of it for a
// separable strategy), each distinct configuration offered to `summary`. Duplicates are dropped
// (the first proposal kept): a bit per position of the unit, a set for the (rare) proposals
// outside the grid (whole-grid units only: a separable strategy's proposals stay in its slice).
void search_unit(const Session& session, const GridSpace& grid, const SearchSpace& space,
                 const SliceSpace* slice, std::uint64_t first, const SearchStrategy& strategy,
                 const SearchOptions& options, const std::vector<Direction>& dirs, BatchEvaluator& evaluator,
                 Summary& summary, const ProgressCallback& progress) {
  std::unique_ptr<SearchRun> run = strategy.start(space);
  if (!run) throw_plugin_error(strategy, "search", "start returned no SearchRun (a null pointer)");
  const std::size_t batch = std::max<std::size_t>(1, options.batch);
  std::vector<ParallelConfig> proposed(batch);
  std::vector<ConfigRecord> slots;  // grown to the largest batch proposed (small spaces: small)
  std::vector<SearchScore> scores;
  std::vector<double> score_objectives;  // scores[i].objectives: k values per configuration

  const std::uint64_t valid = grid.valid_count();
  const std::uint64_t count = space.valid_count();
  const std::uint64_t bound = slice ? count : grid.enumerated();  // distinct proposals at most
  std::vector<std::uint64_t> seen((count + 63) / 64, 0);
  std::unordered_set<ParallelConfig> seen_outside;
  std::uint64_t outside = 0;

  // Termination: check_search_termination.
  const std::uint64_t stale_limit = current_limits().search_stale_rounds;
  std::uint64_t stale_rounds = 0;
  std::uint64_t evaluated = 0;

  for (;;) {
    throw_if_cancelled();
    const std::size_t n = std::min(batch, run->propose(std::span<ParallelConfig>(proposed.data(), batch)));
    if (n == 0) break;
    const std::uint64_t evaluated_before = evaluated;
    if (slots.size() < n) {
      slots.resize(n);
      scores.resize(n);
      score_objectives.resize(n * dirs.size());
    }
    evaluate_batch(session, grid, proposed, n, slots, evaluator);
    throw_if_cancelled();  // the batch may be incomplete
    for (std::size_t i = 0; i < n; ++i) {
      ConfigRecord& r = slots[i];
      score_proposal(r, dirs, std::span<double>(score_objectives.data() + i * dirs.size(), dirs.size()),
                     scores[i]);
      std::uint64_t key;
      if (slice && !slice->in_slice(r.grid_index))
        throw_plugin_error(strategy, "search",
                           "declares itself separable but proposed a configuration outside the slice of "
                           "the space it was given");
      if (r.grid_index >= 0) {
        key = static_cast<std::uint64_t>(r.grid_index);
        std::uint64_t& word = seen[(key - first) / 64];
        const std::uint64_t bit = std::uint64_t{1} << ((key - first) % 64);
        if (word & bit) continue;
        word |= bit;
      } else {
        if (!seen_outside.insert(r.config).second) continue;
        key = valid + outside++;
      }
      ++evaluated;
      if (summary.wants_reason() && !r.feasible) r.reason = record_reason(session, r);
      summary.offer(key, r);
    }
    stale_rounds = evaluated == evaluated_before ? stale_rounds + 1 : 0;
    check_search_termination(strategy, stale_rounds, stale_limit, evaluated, bound, slice != nullptr);
    run->receive(std::span<const ParallelConfig>(proposed.data(), n),
                 std::span<const SearchScore>(scores.data(), n));
    report_progress(progress, summary.counts().evaluated, valid, "configurations");
  }
  throw_if_cancelled();
}

// A work unit in errors: "configurations 16385-32768 of the space's 78848 valid ones" (from 1).
std::string describe_slice(std::size_t unit, std::uint64_t unit_size, std::uint64_t valid, bool sliced) {
  if (!sliced)
    return "the whole search, of " + std::to_string(valid) + " valid configuration" + (valid == 1 ? "" : "s");
  const std::uint64_t first = unit * unit_size;
  return "configurations " + std::to_string(first + 1) + "-" +
         std::to_string(std::min(valid, first + unit_size)) + " of the space's " + std::to_string(valid) +
         " valid ones";
}

// A unit's outcome (`outcomes[u]`) carried from a worker process to the merge (Executor::remote()):
// saved and released where it was computed, loaded where it is merged.
UnitCodec outcome_codec(std::vector<std::unique_ptr<Summary>>& outcomes, const SearchOptions& options,
                        const std::vector<Direction>& dirs,
                        std::function<std::string(std::size_t)> describe) {
  return {.save =
              [&outcomes](std::size_t u, ByteWriter& w) {
                outcomes.at(u)->save(w);
                outcomes[u].reset();
              },
          .load =
              [&outcomes, &options, &dirs](std::size_t u, ByteReader& r) {
                auto outcome = std::make_unique<Summary>(options, dirs, true);
                outcome->load(r);
                if (!r.done()) r.fail();
                outcomes.at(u) = std::move(outcome);
              },
          .describe = std::move(describe)};
}

// The study's plan, computed into `summary`: a separable strategy's space in slices of
// unit_size configurations, each a work unit; any other strategy (adaptive, or a sample of the
// whole space) one unit. Through the checkpoint when there is one.
void search_plan(const Session& session, const GridSpace& space, const SearchStrategy& strategy,
                 const SearchOptions& options, const std::vector<Direction>& dirs, Summary& summary) {
  const std::uint64_t valid = space.valid_count();
  const bool remote = options.executor && options.executor->remote();
  const std::uint64_t unit_size =
      options.unit_size > 0 ? options.unit_size : default_search_unit(valid, remote);
  const bool sliced = strategy.separable() && valid > unit_size;
  // A checkpoint (SearchOptions::checkpoint) records the study's summary between units and the
  // rows it streamed.
  ByteWriter rows;
  if (options.checkpoint && options.on_record) summary.stream_rows_to(&rows);
  const CheckpointHooks hooks{.save = [&](ByteWriter& w) { summary.save(w); },
                              .load = [&](ByteReader& r) { summary.load(r); },
                              .replay = [&](ByteReader& r) { summary.replay(r); },
                              .rows = options.on_record ? &rows : nullptr};
  std::vector<std::unique_ptr<Summary>> outcomes;
  UnitCodec codec = outcome_codec(outcomes, options, dirs,
                                  [=](std::size_t u) { return describe_slice(u, unit_size, valid, sliced); });
  codec.everywhere = options.merged_everywhere;
  if (!sliced && remote) {
    // One unit in a worker process: its outcome buffered there, merged here.
    outcomes.resize(1);
    execute_checkpointed(
        *options.executor, options.checkpoint, 1,
        [&](std::size_t, const UnitSlot& slot) {
          BatchEvaluator evaluator(slot.threads);
          outcomes[0] = std::make_unique<Summary>(options, dirs, true);
          search_unit(session, space, space, nullptr, 0, strategy, options, dirs, evaluator, *outcomes[0],
                      {});
        },
        [&](std::size_t) {
          summary.absorb(*outcomes[0]);
          outcomes[0].reset();
        },
        hooks, codec);
  } else if (!sliced) {
    ThreadExecutor calling(1);  // one unit, on the calling thread
    execute_checkpointed(
        calling, options.checkpoint, 1,
        [&](std::size_t, const UnitSlot&) {
          BatchEvaluator evaluator(options.threads);
          search_unit(session, space, space, nullptr, 0, strategy, options, dirs, evaluator, summary,
                      options.on_progress);
        },
        [](std::size_t) {}, hooks);
  } else {
    const std::size_t units = static_cast<std::size_t>((valid + unit_size - 1) / unit_size);
    ThreadExecutor own(options.threads);
    Executor& executor = options.executor ? *options.executor : own;
    std::vector<std::unique_ptr<BatchEvaluator>> evaluators(executor.workers());
    outcomes.resize(units);
    execute_checkpointed(
        executor, options.checkpoint, units,
        [&](std::size_t u, const UnitSlot& slot) {
          std::unique_ptr<BatchEvaluator>& evaluator = evaluators.at(slot.worker);
          if (!evaluator) evaluator = std::make_unique<BatchEvaluator>(slot.threads);
          const std::uint64_t first = u * unit_size;
          const SliceSpace slice(space, first, std::min(unit_size, valid - first));
          auto outcome = std::make_unique<Summary>(options, dirs, true, slice.valid_count());
          search_unit(session, space, slice, &slice, first, strategy, options, dirs, *evaluator, *outcome,
                      {});
          outcomes[u] = std::move(outcome);
        },
        [&](std::size_t u) {
          summary.absorb(*outcomes[u]);
          outcomes[u].reset();
          report_progress(options.on_progress, summary.counts().evaluated, valid, "configurations");
        },
        hooks, codec);
  }
}

}  // namespace

SearchResult run_search(const Session& session, const GridSpace& space, const SearchStrategy& strategy,
                        const SearchOptions& options) {
  SearchResult result;
  result.objectives = session.evaluator().objectives();
  result.counts.enumerated = space.enumerated();
  result.counts.valid = space.valid_count();
  const std::uint64_t valid = space.valid_count();
  const std::vector<Direction> dirs = directions(session);
  Summary summary(options, dirs, false);

  search_plan(session, space, strategy, options, dirs, summary);
  throw_if_cancelled();
  result.counts.evaluated = summary.counts().evaluated;
  result.counts.feasible = summary.counts().feasible;
  result.counts.non_finite = summary.counts().non_finite;

  const std::vector<Candidate> ranked = summary.take_top();
  const std::vector<Candidate> pareto = summary.take_front();  // in the space's order

  // The records: every one (keep_records) or those the results refer to, in the space's order.
  std::vector<std::uint64_t> keys;
  if (options.keep_records) {
    std::vector<std::pair<std::uint64_t, ConfigRecord>> all = summary.take_records();
    std::vector<std::size_t> order(all.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return all[a].first < all[b].first; });
    result.records.reserve(all.size());
    keys.reserve(all.size());
    for (std::size_t i : order) {
      keys.push_back(all[i].first);
      result.records.push_back(std::move(all[i].second));
      result.records.back().key = all[i].first;
    }
  } else {
    std::vector<const Candidate*> kept;
    for (const Candidate& c : ranked) kept.push_back(&c);
    for (const Candidate& c : pareto) kept.push_back(&c);
    std::sort(kept.begin(), kept.end(),
              [](const Candidate* a, const Candidate* b) { return a->key < b->key; });
    Evaluation scratch;
    for (const Candidate* c : kept) {
      if (!keys.empty() && keys.back() == c->key) continue;
      keys.push_back(c->key);
      ConfigRecord r = evaluate_record(session, c->config, scratch);
      r.grid_index = c->key < valid ? static_cast<std::int64_t>(c->key) : -1;
      r.key = c->key;
      result.records.push_back(std::move(r));
    }
  }
  const auto index = [&](std::uint64_t key) {
    return static_cast<std::size_t>(std::lower_bound(keys.begin(), keys.end(), key) - keys.begin());
  };
  if (!ranked.empty()) result.best = index(ranked.front().key);
  for (std::size_t i = 0; i < ranked.size() && i < options.top; ++i)
    result.top.push_back(index(ranked[i].key));
  for (const Candidate& c : pareto) result.pareto.push_back(index(c.key));
  Reservoir<SearchPoint>& sample = summary.sample();
  result.points_seen = sample.seen();
  result.points_sampled = sample.sampled();
  result.points = sample.take();
  std::sort(result.points.begin(), result.points.end(),
            [](const SearchPoint& a, const SearchPoint& b) { return a.key < b.key; });
  return result;
}

SearchResult run_search(const Session& session, const SearchStrategy& strategy,
                        const SearchOptions& options) {
  const GridSpace space(session.scenario().sweep, session.model(), session.machine(), session.workload());
  return run_search(session, space, strategy, options);
}

}  // namespace tessera
