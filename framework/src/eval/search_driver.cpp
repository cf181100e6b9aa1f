#include "eval/search_driver.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <memory>
#include <thread>

#include "analysis/pareto.hpp"
#include "tessera/error.hpp"
#include "tessera/units.hpp"

namespace tessera {

void fill_record(const Session& session, const Evaluation& e, ConfigRecord& r) {
  const auto& objectives = session.evaluator().objectives();
  r.config = e.config;
  r.valid = e.valid;
  r.pes = e.config.pes();
  r.placement_valid = e.layout.valid;
  r.units_used = e.layout.units_used;
  if (!e.valid) {
    r.feasible = false;
    r.fits_memory = false;
    r.reason = describe_invalid(e.layout.reason, session.model(), session.machine(), e.config);
    r.score = std::numeric_limits<double>::infinity();
    return;
  }
  r.fits_memory = e.memory.fits;
  r.feasible = e.feasible;
  r.objectives = e.objectives;
  r.score = objectives.empty() ? e.totals.latency_s : oriented(e.objectives[0], objectives[0].direction);
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
  if (!e.memory.fits)
    r.reason = "weights+KV+transient (" + format_quantity(e.memory.used_bytes, Dimension::bytes) +
               ") exceed the per-PE budget (" + format_quantity(e.memory.budget_bytes, Dimension::bytes) + ")";
}

ConfigRecord evaluate_record(const Session& session, const ParallelConfig& c, Evaluation& scratch) {
  session.evaluator().evaluate(c, scratch);
  scratch.config = c;
  ConfigRecord r;
  fill_record(session, scratch, r);
  return r;
}

namespace {

class Progress {
 public:
  Progress(bool enabled, std::size_t total) : enabled_(enabled && ::isatty(2)), total_(total) {}
  void update(std::size_t done) {
    if (!enabled_) return;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (s < 1.0) return;
    shown_ = true;
    const int width = 30;
    if (total_ > 0) {
      const double f = std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
      const int n = static_cast<int>(f * width);
      std::fprintf(stderr, "\r[%.*s%*s] %zu/%zu configs %.1f s", n, "##############################", width - n, "",
                   done, total_, s);
    } else {
      std::fprintf(stderr, "\r%zu configs evaluated, %.1f s", done, s);
    }
    std::fflush(stderr);
  }
  ~Progress() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  bool enabled_;
  std::size_t total_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Evaluates configs[i] into out[i] on `threads` threads; rethrows the first exception.
void evaluate_batch(const Session& session, const std::vector<ParallelConfig>& configs, std::size_t n,
                    std::vector<ConfigRecord>& out, std::vector<std::unique_ptr<Evaluation>>& buffers) {
  const std::size_t threads = std::min(buffers.size(), std::max<std::size_t>(1, n / 32));
  std::atomic<std::size_t> next{0};
  std::vector<std::exception_ptr> errors(threads);
  const auto work = [&](std::size_t t) {
    try {
      Evaluation& e = *buffers[t];
      for (;;) {
        const std::size_t i = next.fetch_add(1);
        if (i >= n) break;
        session.evaluator().evaluate(configs[i], e);
        e.config = configs[i];
        out[i] = ConfigRecord{};
        fill_record(session, e, out[i]);
      }
    } catch (...) {
      errors[t] = std::current_exception();
      next.store(n);
    }
  };
  if (threads <= 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    pool.reserve(threads - 1);
    for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (auto& th : pool) th.join();
  }
  for (auto& err : errors)
    if (err) std::rethrow_exception(err);
}

}  // namespace

SearchResult run_search(const Session& session, const GridSpace& space, const SearchStrategy& strategy,
                        const SearchOptions& options) {
  SearchResult result;
  result.objectives = session.evaluator().objectives();
  result.counts.enumerated = space.enumerated();
  result.counts.valid = space.valid_count();

  unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  if (threads == 0) threads = 1;
  std::vector<std::unique_ptr<Evaluation>> buffers;
  for (unsigned t = 0; t < threads; ++t) buffers.push_back(std::make_unique<Evaluation>());

  std::unique_ptr<SearchRun> run = strategy.start(space);
  const std::size_t batch = std::max<std::size_t>(1, options.batch);
  std::vector<ParallelConfig> proposed(batch);
  std::vector<ConfigRecord> slots(batch);
  std::vector<SearchScore> scores(batch);
  Progress progress(options.progress, space.valid_count());
  std::vector<ConfigRecord> records;
  for (;;) {
    const std::size_t n = run->propose(std::span<ParallelConfig>(proposed.data(), batch));
    if (n == 0) break;
    evaluate_batch(session, proposed, n, slots, buffers);
    for (std::size_t i = 0; i < n; ++i) {
      scores[i].feasible = slots[i].feasible;
      scores[i].primary = slots[i].valid ? slots[i].score : std::numeric_limits<double>::infinity();
      slots[i].grid_index = space.index_of(slots[i].config);
      records.push_back(std::move(slots[i]));
    }
    run->receive(std::span<const ParallelConfig>(proposed.data(), n), std::span<const SearchScore>(scores.data(), n));
    progress.update(records.size());
  }

  // Space order (proposals outside the grid last, in proposal order), duplicates dropped.
  std::stable_sort(records.begin(), records.end(), [](const ConfigRecord& a, const ConfigRecord& b) {
    const auto ka = a.grid_index < 0 ? std::numeric_limits<std::int64_t>::max() : a.grid_index;
    const auto kb = b.grid_index < 0 ? std::numeric_limits<std::int64_t>::max() : b.grid_index;
    return ka < kb;
  });
  records.erase(std::unique(records.begin(), records.end(),
                            [](const ConfigRecord& a, const ConfigRecord& b) { return a.config == b.config; }),
                records.end());
  result.records = std::move(records);
  result.counts.evaluated = result.records.size();

  std::vector<std::size_t> ranked;
  for (std::size_t i = 0; i < result.records.size(); ++i)
    if (result.records[i].feasible) ranked.push_back(i);
  result.counts.feasible = ranked.size();
  std::stable_sort(ranked.begin(), ranked.end(), [&](std::size_t a, std::size_t b) {
    const ConfigRecord& x = result.records[a];
    const ConfigRecord& y = result.records[b];
    if (x.score != y.score) return x.score < y.score;
    if (x.pes != y.pes) return x.pes < y.pes;
    return a < b;
  });
  if (!ranked.empty()) result.best = ranked.front();
  result.top.assign(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(std::min(options.top, ranked.size())));

  const std::size_t k = result.objectives.size();
  if (k >= 1) {
    std::vector<double> values;
    std::vector<Direction> dirs;
    std::vector<std::size_t> map;
    for (const auto& o : result.objectives) dirs.push_back(o.direction);
    values.reserve(ranked.size() * k);
    for (std::size_t i = 0; i < result.records.size(); ++i) {
      if (!result.records[i].feasible) continue;
      for (std::size_t j = 0; j < k; ++j) values.push_back(result.records[i].objectives[j]);
      map.push_back(i);
    }
    for (std::size_t i : pareto_front(values, k, dirs)) result.pareto.push_back(map[i]);
  }
  return result;
}

SearchResult run_search(const Session& session, const SearchStrategy& strategy, const SearchOptions& options) {
  const GridSpace space(session.scenario().sweep, session.model(), session.machine(), session.context().workload);
  return run_search(session, space, strategy, options);
}

}  // namespace tessera
