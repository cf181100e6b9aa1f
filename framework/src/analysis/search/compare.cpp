#include "analysis/search/compare.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/cancellation.hpp"
#include "core/checkpoint/byte_record.hpp"
#include "core/executor.hpp"
#include "eval/batch_evaluator.hpp"
#include "eval/grid_space.hpp"
#include "host/plugin_defaults.hpp"
#include "tessera/error.hpp"

namespace tessera {

namespace {

// Evaluates every config under one session with the batch evaluator (records in input order,
// numbers only: compare reads feasibility, score and latency). The calling thread reports
// `base + done` of `total` through `progress` after each chunk it finished.
std::vector<ConfigRecord> evaluate_all(const Session& s, const std::vector<ParallelConfig>& configs,
                                       BatchEvaluator& evaluator, const ProgressCallback& progress,
                                       std::uint64_t base, std::uint64_t total) {
  const std::size_t n = configs.size();
  std::vector<ConfigRecord> out(n);
  evaluator.run(
      n,
      [&](std::size_t begin, std::size_t end, Evaluation& e) {
        for (std::size_t i = begin; i < end; ++i) {
          s.evaluator().evaluate(configs[i], e);
          e.config = configs[i];
          fill_record_numbers(s, e, out[i]);
        }
      },
      [&](std::size_t done) { report_progress(progress, base + done, total, "configurations"); });
  throw_if_cancelled();
  report_progress(progress, base + n, total, "configurations");
  return out;
}

// What compare reads of one model's evaluation of every configuration: whether it counts
// (feasible, finite score), its score and its latency.
struct ModelScores {
  std::vector<std::uint8_t> usable;
  std::vector<double> score, latency_s;
};

ModelScores scores_of(const std::vector<ConfigRecord>& records) {
  ModelScores m;
  for (const ConfigRecord& r : records) {
    m.usable.push_back(r.feasible && std::isfinite(r.score) ? 1 : 0);
    m.score.push_back(r.score);
    m.latency_s.push_back(r.latency_s);
  }
  return m;
}

// The same as work units on `executor`: each (model, slice of kSlice configurations) evaluated on
// one thread into its slot of `out`, carried as bytes to the processes that merge it (all).
std::vector<ModelScores> planned_scores(const std::vector<const Session*>& sessions,
                                        const std::vector<ParallelConfig>& configs, Executor& executor,
                                        const ProgressCallback& progress) {
  const std::size_t n = configs.size();
  const std::size_t slice = std::max<std::size_t>(256, (n + 15) / 16);
  const std::size_t slices = (n + slice - 1) / slice;
  std::vector<ModelScores> out(sessions.size());
  for (ModelScores& m : out) {
    m.usable.resize(n);
    m.score.resize(n);
    m.latency_s.resize(n);
  }
  auto range = [&](std::size_t u) {
    const std::size_t first = (u % slices) * slice;
    return std::pair{first, std::min(n, first + slice)};
  };
  std::vector<Evaluation> scratch(executor.workers());
  const UnitCodec codec{
      .save =
          [&](std::size_t u, ByteWriter& w) {
            const ModelScores& m = out[u / slices];
            const auto [first, last] = range(u);
            for (std::size_t i = first; i < last; ++i) {
              w.put(m.usable[i]);
              w.put(m.score[i]);
              w.put(m.latency_s[i]);
            }
          },
      .load =
          [&](std::size_t u, ByteReader& r) {
            ModelScores& m = out[u / slices];
            const auto [first, last] = range(u);
            for (std::size_t i = first; i < last; ++i) {
              m.usable[i] = r.get<std::uint8_t>();
              m.score[i] = r.get<double>();
              m.latency_s[i] = r.get<double>();
            }
            if (!r.done()) r.fail();
          },
      .describe = [&](std::size_t u) { return sessions[u / slices]->latency_name() + " configurations"; },
      .everywhere = true};
  executor.execute(
      sessions.size() * slices,
      [&](std::size_t u, const UnitSlot& slot) {
        const Session& s = *sessions[u / slices];
        ModelScores& m = out[u / slices];
        Evaluation& e = scratch.at(slot.worker);
        ConfigRecord rec;
        const auto [first, last] = range(u);
        for (std::size_t i = first; i < last; ++i) {
          s.evaluator().evaluate(configs[i], e);
          e.config = configs[i];
          fill_record_numbers(s, e, rec);
          m.usable[i] = rec.feasible && std::isfinite(rec.score) ? 1 : 0;
          m.score[i] = rec.score;
          m.latency_s[i] = rec.latency_s;
        }
      },
      [&](std::size_t u) {
        report_progress(progress, (u + 1) * slice, sessions.size() * n, "configurations");
        throw_if_cancelled();
      },
      codec);
  return out;
}

// Every model's evaluation of every configuration: on the options' executor, or on threads.
std::vector<ModelScores> model_scores(const std::vector<const Session*>& sessions,
                                      const std::vector<ParallelConfig>& configs,
                                      const CompareOptions& options) {
  if (options.executor) return planned_scores(sessions, configs, *options.executor, options.on_progress);
  std::vector<ModelScores> records;
  BatchEvaluator evaluator(options.threads);
  const std::uint64_t per_model = configs.size();
  const std::uint64_t total = per_model * sessions.size();
  for (const Session* s : sessions)
    records.push_back(scores_of(
        evaluate_all(*s, configs, evaluator, options.on_progress, per_model * records.size(), total)));
  return records;
}

void add_knob(std::vector<std::string>& out, const char* name, const std::string& a, const std::string& b) {
  if (a != b) out.push_back(std::string(name) + ": " + a + " vs " + b);
}

std::vector<std::string> differing_knobs(const ParallelConfig& a, const ParallelConfig& b,
                                         const MachineSpec& m) {
  std::vector<std::string> d;
  add_knob(d, "cp", std::to_string(a.cp), std::to_string(b.cp));
  add_knob(d, "tp", std::to_string(a.tp), std::to_string(b.tp));
  add_knob(d, "pp", std::to_string(a.pp), std::to_string(b.pp));
  add_knob(d, "dp", std::to_string(a.dp), std::to_string(b.dp));
  add_knob(d, "ep", std::to_string(a.ep), std::to_string(b.ep));
  add_knob(d, "kv_shard_mode", kv_shard_mode_name(a.kv_shard_mode), kv_shard_mode_name(b.kv_shard_mode));
  add_knob(d, "ffn_shard_scope", ffn_shard_scope_name(a.ffn_shard_scope),
           ffn_shard_scope_name(b.ffn_shard_scope));
  add_knob(d, "tp_placement", m.placement_name(a.tp_placement), m.placement_name(b.tp_placement));
  add_knob(d, "cp_placement", m.placement_name(a.cp_placement), m.placement_name(b.cp_placement));
  add_knob(d, "cp_ring_variant", cp_ring_variant_name(a.cp_ring_variant),
           cp_ring_variant_name(b.cp_ring_variant));
  return d;
}

double relative(double v, double ref) {
  const double den = std::abs(ref);
  return den > 0 ? (v - ref) / den : 0.0;
}

}  // namespace

std::uint64_t rank_of(const std::vector<double>& scores, double value) {
  std::uint64_t better = 0;
  for (double s : scores)
    if (s < value) ++better;
  return better + 1;
}

CompareResult compare_models(const std::vector<const Session*>& sessions, const CompareOptions& options) {
  if (sessions.empty()) throw Error("compare: no latency model");
  const Session& first = *sessions[0];
  CompareResult r;
  for (const Session* s : sessions) {
    r.models.push_back(s->latency_name());
    r.bands.push_back(session_band(*s));
  }
  const auto& objectives = first.evaluator().objectives();
  r.objective = objectives.empty() ? plugin_defaults::kLatencyObjective : objectives[0].name;

  const GridSpace space(first.scenario().sweep, first.model(), first.machine(), first.workload());
  r.enumerated = space.enumerated();
  r.valid = space.valid_count();
  const std::vector<ModelScores> records = model_scores(sessions, space.valid_configs(), options);

  // Feasibility is the memory model's and the layout's verdict: the same for every latency
  // model. A config counts when every model finds it feasible.
  const std::size_t n = space.valid_configs().size();
  std::vector<std::size_t> keep;
  for (std::size_t i = 0; i < n; ++i) {
    bool ok = true;
    for (const ModelScores& rec : records) ok = ok && rec.usable[i] != 0;
    if (ok) keep.push_back(i);
  }
  r.feasible = keep.size();
  if (keep.empty()) throw Error("compare: no feasible configuration in the sweep");
  for (std::size_t i : keep) r.configs.push_back(space.valid_configs()[i]);
  const std::size_t m = sessions.size();
  r.scores.assign(m, {});
  r.latency_s.assign(m, {});
  r.best.assign(m, 0);
  for (std::size_t k = 0; k < m; ++k) {
    for (std::size_t i : keep) {
      r.scores[k].push_back(records[k].score[i]);
      r.latency_s[k].push_back(records[k].latency_s[i]);
    }
    // The first of the best (grid order) wins ties, as in `run`.
    std::size_t b = 0;
    for (std::size_t j = 1; j < r.scores[k].size(); ++j)
      if (r.scores[k][j] < r.scores[k][b]) b = j;
    r.best[k] = b;
  }

  // Each distinct optimum under every model, stage by stage.
  Evaluation e;
  for (std::size_t k = 0; k < m; ++k) {
    bool seen = false;
    for (const auto& v : r.optima) seen = seen || v.config_index == r.best[k];
    if (seen) continue;
    CompareOptimumView v;
    v.owner = k;
    v.config_index = r.best[k];
    const ParallelConfig& c = r.configs[v.config_index];
    for (std::size_t j = 0; j < m; ++j) {
      sessions[j]->evaluator().evaluate(c, e);
      v.latency_s.push_back(r.latency_s[j][v.config_index]);
      v.score.push_back(r.scores[j][v.config_index]);
      v.rank.push_back(rank_of(r.scores[j], r.scores[j][v.config_index]));
      for (const Stage& s : e.stages) {
        auto it = std::find_if(v.stages.begin(), v.stages.end(),
                               [&](const CompareStageRow& row) { return row.name == s.name; });
        if (it == v.stages.end()) {
          CompareStageRow row;
          row.name = s.name;
          row.block = stage_block_name(s.block);
          row.count.assign(m, 0);
          row.visible_s.assign(m, 0);
          v.stages.push_back(row);
          it = v.stages.end() - 1;
        }
        it->count[j] = s.count;
        it->visible_s[j] = s.visible_s;
      }
    }
    r.optima.push_back(std::move(v));
  }

  for (std::size_t a = 0; a < m; ++a)
    for (std::size_t b = a + 1; b < m; ++b) {
      ComparePair p;
      p.a = a;
      p.b = b;
      p.kendall = kendall_tau_b(r.scores[a], r.scores[b]);
      p.same_winner = r.best[a] == r.best[b];
      if (!p.same_winner) {
        p.differing_knobs = differing_knobs(r.configs[r.best[a]], r.configs[r.best[b]], first.machine());
        p.regret_a_under_b = relative(r.scores[b][r.best[a]], r.scores[b][r.best[b]]);
        p.regret_b_under_a = relative(r.scores[a][r.best[b]], r.scores[a][r.best[a]]);
      }
      r.pairs.push_back(std::move(p));
    }
  return r;
}

}  // namespace tessera
