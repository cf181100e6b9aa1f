#include "eval/batch_evaluator.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

#include "core/cancellation.hpp"

namespace tessera {

BatchEvaluator::BatchEvaluator(unsigned threads) {
  if (threads == 0) threads = std::thread::hardware_concurrency();
  if (threads == 0) threads = 1;
  buffers_.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) buffers_.push_back(std::make_unique<Evaluation>());
}

BatchEvaluator::~BatchEvaluator() = default;

void BatchEvaluator::run(std::size_t n, const ChunkFn& chunk, const std::function<void(std::size_t)>& done) {
  const std::size_t threads = std::min(buffers_.size(), std::max<std::size_t>(1, n / kChunk));
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> finished{0};
  std::vector<std::exception_ptr> errors(threads);
  const auto work = [&](std::size_t t) {
    try {
      Evaluation& e = *buffers_[t];
      for (;;) {
        // One atomic load per chunk: a cancelled run is abandoned within a chunk's time.
        if (cancellation_requested()) break;
        const std::size_t begin = next.fetch_add(kChunk, std::memory_order_relaxed);
        if (begin >= n) break;
        const std::size_t end = std::min(n, begin + kChunk);
        chunk(begin, end, e);
        const std::size_t d = finished.fetch_add(end - begin, std::memory_order_relaxed) + (end - begin);
        if (t == 0 && done) done(d);
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

}  // namespace tessera
