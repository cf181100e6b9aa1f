#include "eval/batch_evaluator.hpp"

#include <algorithm>

#include "core/cancellation.hpp"

namespace tessera {

BatchEvaluator::BatchEvaluator(unsigned threads) {
  if (threads == 0) threads = std::thread::hardware_concurrency();
  if (threads == 0) threads = 1;
  buffers_.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) buffers_.push_back(std::make_unique<Evaluation>());
}

BatchEvaluator::~BatchEvaluator() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& th : workers_) th.join();
}

void BatchEvaluator::work(std::size_t t) {
  try {
    Evaluation& e = *buffers_[t];
    for (;;) {
      // One atomic load per chunk: a cancelled run is abandoned within a chunk's time.
      if (cancellation_requested()) break;
      const std::size_t begin = next_.fetch_add(kChunk, std::memory_order_relaxed);
      if (begin >= n_) break;
      const std::size_t end = std::min(n_, begin + kChunk);
      if (indexed_)
        (*indexed_)(begin, end, t);
      else
        (*chunk_)(begin, end, e);
      const std::size_t d = finished_.fetch_add(end - begin, std::memory_order_relaxed) + (end - begin);
      if (t == 0 && *done_) (*done_)(d);
    }
  } catch (...) {
    errors_[t] = std::current_exception();
    next_.store(n_);
  }
}

void BatchEvaluator::worker(std::size_t t) {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      if (t >= active_) continue;  // not needed for this run
    }
    work(t);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (--busy_ == 0) idle_.notify_one();
    }
  }
}

void BatchEvaluator::run(std::size_t n, const ChunkFn& chunk, const std::function<void(std::size_t)>& done) {
  chunk_ = &chunk;
  indexed_ = nullptr;
  start(n, done);
}

void BatchEvaluator::run_indexed(std::size_t n, const IndexedChunkFn& chunk,
                                 const std::function<void(std::size_t)>& done) {
  chunk_ = nullptr;
  indexed_ = &chunk;
  start(n, done);
}

void BatchEvaluator::start(std::size_t n, const std::function<void(std::size_t)>& done) {
  const std::size_t active = std::min(buffers_.size(), std::max<std::size_t>(1, n / kChunk));
  done_ = &done;
  n_ = n;
  next_.store(0);
  finished_.store(0);
  errors_.assign(active, nullptr);
  if (active > 1) {
    while (workers_.size() + 1 < active)
      workers_.emplace_back(&BatchEvaluator::worker, this, workers_.size() + 1);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      active_ = active;
      busy_ = active - 1;
      ++generation_;
    }
    wake_.notify_all();
  }
  work(0);
  if (active > 1) {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [&] { return busy_ == 0; });
  }
  for (auto& err : errors_)
    if (err) std::rethrow_exception(err);
}

}  // namespace tessera
