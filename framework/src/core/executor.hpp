#pragma once
// The executor seam of a study (docs/architecture.md "Studies: plan, work units, merge"): a
// study plans `count` independent work units (a slice of the configuration space, a hardware
// point, later one request simulation), an executor computes them, and the study merges each
// unit's outcome on the calling thread in plan order. A study's result then depends on its
// plan and its merge only, never on how many workers ran the units, in which order they
// finished, or how large a unit was (the merges are exact: counts add, top-N and Pareto
// frontiers of unions are those of the parts' top-N and frontiers, a sample or a stream is fed
// in plan order).
//
// ThreadExecutor runs the units on threads of this process. Worker processes
// (core/workers/process_executor.hpp) and MPI ranks plug in behind the same interface: they
// compute a unit elsewhere, in a process running the same study, and hand its outcome back as
// bytes (the study's UnitCodec) for the same ordered merge.
#include <cstddef>
#include <functional>
#include <string>

#include "core/checkpoint/byte_record.hpp"

#include "tessera/export.hpp"

namespace tessera {

// Where a unit runs: the worker's index in [0, workers()) (a unit may keep per-worker buffers
// indexed by it) and the threads the unit may use itself (a plan of fewer units than workers
// gives each unit several).
struct UnitSlot {
  unsigned worker = 0;
  unsigned threads = 1;
};

// How a computed unit's outcome travels between processes: `save` writes unit `u`'s outcome
// where compute left it (in the process that computed it), `load` puts it back where merge(u)
// reads it (in the process that merges). `describe` names a unit in errors ("configurations
// 16,384-32,767 of the space"; may be null). A study without a codec runs only in-process.
struct UnitCodec {
  std::function<void(std::size_t unit, ByteWriter& out)> save;
  std::function<void(std::size_t unit, ByteReader& in)> load;
  std::function<std::string(std::size_t unit)> describe;
  // Every process running the study merges every unit, not only the one that writes the results:
  // what the study does after the plan depends on the merged result (sensitivity's searches
  // around the best configuration), so that every MPI rank goes on to the same next plan. An
  // executor across processes then sends each outcome to each (core/workers/mpi_job.hpp); the
  // others ignore it. Not with a resumed checkpoint's plan (its prefix is merged in one process only).
  bool everywhere = false;
  explicit operator bool() const { return save && load; }
};

class TESSERA_API Executor {
 public:
  using ComputeFn = std::function<void(std::size_t unit, const UnitSlot& slot)>;
  using MergeFn = std::function<void(std::size_t unit)>;

  virtual ~Executor() = default;
  // How many units may be computed at once (each on its own worker).
  virtual unsigned workers() const = 0;
  // Computes units [0, count): compute(unit, slot), on any worker, in any order, each once; and
  // calls merge(unit) on the calling thread in ascending order, each as soon as it and every
  // unit before it are computed. At most 2 × workers() units are computed ahead of the merge
  // (the memory of outcomes waiting to be merged stays bounded). When a compute or a merge
  // throws, no further unit is started; once every running one has stopped, the exception of
  // the lowest-numbered unit that failed is rethrown (a merge's first).
  // `codec`: how a unit's outcome is carried to the merge when the executor computes it in
  // another process (required there: such an executor refuses a plan without one).
  virtual void execute(std::size_t count, const ComputeFn& compute, const MergeFn& merge,
                       const UnitCodec& codec) = 0;
  void execute(std::size_t count, const ComputeFn& compute, const MergeFn& merge) {
    execute(count, compute, merge, UnitCodec{});
  }
  // Whether units are computed in other processes (each unit's outcome then comes through the
  // codec; a study that keeps its outcome in memory otherwise buffers it for the codec).
  virtual bool remote() const { return false; }
};

// Units on threads of this process. `threads` 0: std::thread::hardware_concurrency() (at
// least 1). One unit, or one thread: the units run on the calling thread, in order, each
// merged at once.
class TESSERA_API ThreadExecutor final : public Executor {
 public:
  explicit ThreadExecutor(unsigned threads);
  using Executor::execute;
  unsigned workers() const override { return threads_; }
  void execute(std::size_t count, const ComputeFn& compute, const MergeFn& merge, const UnitCodec&) override;

 private:
  unsigned threads_;
};

}  // namespace tessera
