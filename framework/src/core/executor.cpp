#include "core/executor.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera {

ThreadExecutor::ThreadExecutor(unsigned threads)
    : threads_(threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency())) {}

void ThreadExecutor::execute(std::size_t count, const ComputeFn& compute, const MergeFn& merge) {
  if (count == 0) return;
  const unsigned workers = static_cast<unsigned>(std::min<std::size_t>(threads_, count));
  const UnitSlot inline_slot{0, threads_};
  if (workers <= 1) {
    for (std::size_t u = 0; u < count; ++u) {
      compute(u, inline_slot);
      merge(u);
    }
    return;
  }
  const unsigned per_unit = std::max(1u, threads_ / workers);
  const std::size_t window = 2 * static_cast<std::size_t>(workers);

  std::mutex mutex;
  std::condition_variable changed;
  std::size_t next = 0;    // the next unit to hand out
  std::size_t merged = 0;  // units merged so far (the merge cursor)
  std::vector<std::uint8_t> done(count, 0);
  std::exception_ptr error;
  std::size_t error_unit = count;
  bool stop = false;

  const auto worker = [&](unsigned w) {
    const UnitSlot slot{w, per_unit};
    for (;;) {
      std::size_t u;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return stop || next >= count || next < merged + window; });
        if (stop || next >= count) return;
        u = next++;
      }
      std::exception_ptr failed;
      try {
        compute(u, slot);
      } catch (...) {
        failed = std::current_exception();
      }
      {
        std::lock_guard lock(mutex);
        if (failed) {
          stop = true;
          if (u < error_unit) {
            error_unit = u;
            error = failed;
          }
        } else {
          done[u] = 1;
        }
      }
      changed.notify_all();
    }
  };

  std::vector<std::thread> pool;
  pool.reserve(workers);
  for (unsigned w = 0; w < workers; ++w) pool.emplace_back(worker, w);

  // The ordered merge, on the calling thread.
  for (;;) {
    {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return stop || merged >= count || done[merged] != 0; });
      if (stop || merged >= count) break;
    }
    try {
      merge(merged);
    } catch (...) {
      std::lock_guard lock(mutex);
      stop = true;
      error_unit = 0;  // a merge's failure comes first
      error = std::current_exception();
    }
    {
      std::lock_guard lock(mutex);
      if (stop) break;
      ++merged;
    }
    changed.notify_all();
  }
  {
    std::lock_guard lock(mutex);
    if (merged < count) stop = true;
  }
  changed.notify_all();
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace tessera
