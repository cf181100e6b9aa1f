#include <chrono>

#include "core/checkpoint/byte_record.hpp"
#include "core/workers/mpi_units.hpp"
#include "tessera/error.hpp"

namespace tessera::workers {

UnitPool::UnitPool(RankSlots slots, const Executor::ComputeFn& compute, const UnitCodec* save_through)
    : slots_(slots), compute_(compute), codec_(save_through) {
  threads_.reserve(slots_.units);
  for (unsigned w = 0; w < slots_.units; ++w) threads_.emplace_back([this, w] { work(w); });
}

UnitPool::~UnitPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    queue_.clear();
  }
  queued_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void UnitPool::push(std::size_t unit) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(unit);
    ++held_;
  }
  queued_.notify_one();
}

bool UnitPool::take(FinishedUnit& into) {
  std::lock_guard lock(mutex_);
  if (done_.empty()) return false;
  into = std::move(done_.front());
  done_.pop_front();
  --held_;
  return true;
}

void UnitPool::wait(double seconds) {
  std::unique_lock lock(mutex_);
  finished_.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return !done_.empty(); });
}

std::size_t UnitPool::held() const {
  std::lock_guard lock(mutex_);
  return held_;
}

void UnitPool::work(unsigned worker) {
  const UnitSlot slot{worker, slots_.threads_per_unit};
  for (;;) {
    FinishedUnit f;
    {
      std::unique_lock lock(mutex_);
      queued_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      f.unit = queue_.front();
      queue_.pop_front();
    }
    try {
      compute_(f.unit, slot);
      if (codec_) {
        ByteWriter w;
        codec_->save(f.unit, w);
        f.outcome = w.take();
      }
    } catch (...) {
      f.error = std::current_exception();
    }
    {
      std::lock_guard lock(mutex_);
      done_.push_back(std::move(f));
    }
    finished_.notify_all();
  }
}

}  // namespace tessera::workers
