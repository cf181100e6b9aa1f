#pragma once
// What rank 0's coordinator and a computing rank's server share (core/workers/mpi_job.hpp): the
// units a rank computes on its own threads, and how many at once. Internal to the MPI sources.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/executor.hpp"
#include "core/workers/mpi_job.hpp"

namespace tessera::workers {

// How many units a rank of `ranks` with `threads` threads computes at once in a plan of `count`
// units (its share of the plan, at most one per thread), and the threads each unit gets.
struct RankSlots {
  unsigned units = 1;
  unsigned threads_per_unit = 1;
};
RankSlots rank_slots(std::size_t count, int ranks, unsigned threads);

// A unit computed on this rank's threads.
struct FinishedUnit {
  std::size_t unit = 0;
  std::exception_ptr error;
  std::string outcome;  // the codec's bytes (a pool that saves through one)
};

// Units computed by `slots.units` threads of this process: pushed and collected by the thread
// that joined the job (the only one that speaks MPI), computed by the pool's threads, each
// saved through the codec `save_through` on its thread when one is given. The destructor lets
// the units in progress finish, drops the queued ones and joins the threads.
class UnitPool {
 public:
  UnitPool(RankSlots slots, const Executor::ComputeFn& compute, const UnitCodec* save_through = nullptr);
  ~UnitPool();
  UnitPool(const UnitPool&) = delete;
  UnitPool& operator=(const UnitPool&) = delete;

  void push(std::size_t unit);
  // A finished unit, if one is waiting.
  bool take(FinishedUnit& into);
  // Until a unit finishes or `seconds` pass.
  void wait(double seconds);
  // Units pushed and not yet taken.
  std::size_t held() const;
  unsigned slots() const { return slots_.units; }

 private:
  void work(unsigned worker);

  RankSlots slots_;
  const Executor::ComputeFn& compute_;
  const UnitCodec* codec_;
  mutable std::mutex mutex_;
  std::condition_variable queued_, finished_;
  std::deque<std::size_t> queue_;
  std::deque<FinishedUnit> done_;
  std::size_t held_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

// What both ranks' executors are: `threads` threads of this rank, units for other processes
// (Executor::remote()), and make_mpi_executor's `everywhere`.
class MpiRankExecutor : public Executor {
 public:
  MpiRankExecutor(unsigned threads, bool everywhere) : threads_(threads), everywhere_(everywhere) {}
  using Executor::execute;
  unsigned workers() const override { return threads_; }
  bool remote() const override { return true; }

 protected:
  unsigned threads_;
  bool everywhere_;
};

// rank 0's coordinator.
class MpiExecutor final : public MpiRankExecutor {
 public:
  using MpiRankExecutor::MpiRankExecutor;
  void execute(std::size_t count, const ComputeFn& compute, const MergeFn& merge,
               const UnitCodec& codec) override;

 private:
  std::vector<std::uint8_t> gone_;  // ranks whose command has ended (they answer no plan)
};

// A computing rank's server.
class MpiServer final : public MpiRankExecutor {
 public:
  using MpiRankExecutor::MpiRankExecutor;
  void execute(std::size_t count, const ComputeFn& compute, const MergeFn& merge,
               const UnitCodec& codec) override;
};

// A computing rank told by rank 0 that the job ends (its status): MPI_Finalize, then exit.
[[noreturn]] void stop_rank(int status);

}  // namespace tessera::workers
