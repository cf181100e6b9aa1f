#include "core/executor.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera {

namespace {

// What the workers and the ordered merge share, under `mutex`.
struct UnitBoard {
  explicit UnitBoard(std::size_t count) : done(count, 0), error_unit(count) {}

  std::mutex mutex;
  std::condition_variable changed;
  std::size_t next = 0;    // the next unit to hand out
  std::size_t merged = 0;  // units merged so far (the merge cursor)
  std::vector<std::uint8_t> done;
  std::exception_ptr error;
  std::size_t error_unit;
  bool stop = false;
};

// One worker: takes the next unit while it is fewer than `window` ahead of the merge cursor and
// computes it; a failure stops every worker, the lowest-numbered failed unit's exception kept.
void run_unit_worker(UnitBoard& b, std::size_t count, std::size_t window, const UnitSlot& slot,
                     const Executor::ComputeFn& compute) {
  for (;;) {
    std::size_t u;
    {
      std::unique_lock lock(b.mutex);
      b.changed.wait(lock, [&] { return b.stop || b.next >= count || b.next < b.merged + window; });
      if (b.stop || b.next >= count) return;
      u = b.next++;
    }
    std::exception_ptr failed;
    try {
      compute(u, slot);
    } catch (...) {
      failed = std::current_exception();
    }
    {
      std::lock_guard lock(b.mutex);
      if (failed) {
        b.stop = true;
        if (u < b.error_unit) {
          b.error_unit = u;
          b.error = failed;
        }
      } else {
        b.done[u] = 1;
      }
    }
    b.changed.notify_all();
  }
}

// The ordered merge, on the calling thread: each unit once it and every unit before it are
// computed, until all are merged or a worker or a merge failed.
void merge_units_in_order(UnitBoard& b, std::size_t count, const Executor::MergeFn& merge) {
  for (;;) {
    {
      std::unique_lock lock(b.mutex);
      b.changed.wait(lock, [&] { return b.stop || b.merged >= count || b.done[b.merged] != 0; });
      if (b.stop || b.merged >= count) break;
    }
    try {
      merge(b.merged);
    } catch (...) {
      std::lock_guard lock(b.mutex);
      b.stop = true;
      b.error_unit = 0;  // a merge's failure comes first
      b.error = std::current_exception();
    }
    {
      std::lock_guard lock(b.mutex);
      if (b.stop) break;
      ++b.merged;
    }
    b.changed.notify_all();
  }
}

}  // namespace

ThreadExecutor::ThreadExecutor(unsigned threads)
    : threads_(threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency())) {}

void ThreadExecutor::execute(std::size_t count, const ComputeFn& compute, const MergeFn& merge,
                             const UnitCodec&) {
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

  UnitBoard board(count);
  std::vector<std::thread> pool;
  pool.reserve(workers);
  for (unsigned w = 0; w < workers; ++w)
    pool.emplace_back([&, w] { run_unit_worker(board, count, window, UnitSlot{w, per_unit}, compute); });

  merge_units_in_order(board, count, merge);
  {
    std::lock_guard lock(board.mutex);
    if (board.merged < count) board.stop = true;
  }
  board.changed.notify_all();
  for (std::thread& t : pool) t.join();
  if (board.error) std::rethrow_exception(board.error);
}

}  // namespace tessera
