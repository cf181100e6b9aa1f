#pragma once
// The engine's one parallel evaluator: many configurations of one session, each into a slot
// of its own, on a fixed number of threads (each thread with its own reused Evaluation
// buffer), so what lands in slot i depends on i only and the results are identical for any
// thread count. The search driver evaluates each batch of proposals with it, `compare` the
// whole grid under each latency model.
//
// One pool: the worker threads are started by the first run that needs them and wait between
// runs (a search's batches reuse them); the destructor stops and joins them.
//
// Work is handed out in chunks of kChunk indices (one atomic operation per chunk, not per
// configuration); every thread polls the cancellation token before each chunk and stops
// (the slots then incomplete: the caller checks throw_if_cancelled()); the first exception a
// thread throws is rethrown on the calling thread once every thread has stopped.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "eval/evaluator.hpp"
#include "tessera/export.hpp"

namespace tessera {

class TESSERA_API BatchEvaluator {
 public:
  static constexpr std::size_t kChunk = 32;
  // `threads` = 0: std::thread::hardware_concurrency() (at least 1).
  explicit BatchEvaluator(unsigned threads);
  BatchEvaluator(const BatchEvaluator&) = delete;
  BatchEvaluator& operator=(const BatchEvaluator&) = delete;
  ~BatchEvaluator();

  unsigned threads() const { return static_cast<unsigned>(buffers_.size()); }

  // One chunk: evaluate indices [begin, end) with `buffer` (the running thread's).
  using ChunkFn = std::function<void(std::size_t begin, std::size_t end, Evaluation& buffer)>;
  // Runs `chunk` over [0, n) on min(threads(), max(1, n / kChunk)) threads, the calling thread
  // one of them; returns when every thread has stopped. Not re-entrant. `done(d)`, when set, is called on the
  // calling thread after each chunk it finished, with d = indices finished so far by every thread (for
  // progress reports).
  void run(std::size_t n, const ChunkFn& chunk, const std::function<void(std::size_t)>& done = {});
  // The same for work that keeps its own per-thread buffers (a serving study's
  // ServingEvaluations): the chunk gets the running thread's index in [0, threads()) instead
  // of its Evaluation.
  using IndexedChunkFn = std::function<void(std::size_t begin, std::size_t end, std::size_t thread)>;
  void run_indexed(std::size_t n, const IndexedChunkFn& chunk,
                   const std::function<void(std::size_t)>& done = {});

  // The calling thread's buffer, for evaluations between runs.
  Evaluation& scratch() { return *buffers_.front(); }

 private:
  void worker(std::size_t t);  // pool thread t (1-based: buffer t)
  void work(std::size_t t);    // the current run's chunks on buffer t
  void start(std::size_t n, const std::function<void(std::size_t)>& done);  // both runs

  std::vector<std::unique_ptr<Evaluation>> buffers_;
  std::vector<std::thread> workers_;  // workers_[t - 1] runs buffer t
  std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::uint64_t generation_ = 0;  // one per run handed to the pool
  std::size_t busy_ = 0;          // pool threads still in the current run
  bool stop_ = false;
  // The current run (set before the pool is woken, read by its threads).
  const ChunkFn* chunk_ = nullptr;           // run's, or
  const IndexedChunkFn* indexed_ = nullptr;  // run_indexed's
  const std::function<void(std::size_t)>* done_ = nullptr;
  std::size_t n_ = 0, active_ = 0;
  std::atomic<std::size_t> next_{0}, finished_{0};
  std::vector<std::exception_ptr> errors_;
};

}  // namespace tessera
