#pragma once
// Work units in isolated worker processes (docs/architecture.md "Isolated workers"). Each worker
// is a new program started with exec (never fork: a forked copy of a threaded process, of a
// Python interpreter or of an MPI rank is unsafe) that runs the same study with the worker's
// executor (unit_server.hpp); the parent plans, hands out units, carries each unit's outcome
// back through the study's UnitCodec and merges in plan order, as ThreadExecutor does: the result
// is the same, byte for byte.
//
// The workers are started by the constructor, which returns once each has said its study's
// setup made its plugin calls (`prepared`, or its first plan's `ready`) or ended: the parent
// makes a plugin call only after a worker has made the same call and lived (the plugins' setup:
// loading, create, the search's separable()); what comes after (the space's index) the parent
// and the workers build at the same time. A worker that
// dies - by a signal, an exit() from plugin code, any exit while it holds a unit - or holds one
// unit past `unit_seconds` (killed then) ends the study with a WorkerFailure (a PluginError:
// exit status 1) that names how it died, the unit and, from the worker's trace
// (host/call_trace.hpp), the plugin, its version and path, the call and the configuration; the
// other workers are stopped. An exception a unit throws in a worker is thrown here as the same
// kind of error (InputError or PluginError) with the same message. Cancellation (Ctrl-C) stops
// every worker. The destructor ends every worker still running.
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/executor.hpp"
#include "core/workers/unit_protocol.hpp"
#include "tessera/error.hpp"
#include "tessera/export.hpp"

namespace tessera::workers {

// Environment variable that makes a process a worker: "FD:PARENT_PID" (its socket, its parent),
// "FD:PARENT_PID:whole" for a worker that runs the whole study.
inline constexpr const char* kWorkerVariable = "TESSERA_UNIT_WORKER";

struct WorkerLaunch {
  std::string executable;              // the program each worker runs
  std::vector<std::string> arguments;  // its argv, argv[0] included: the same study
  // What the worker reads on descriptor 4 when it starts (its settings: a memory file, so that
  // its size is not bounded by the environment's); "" = nothing.
  std::string settings;
  // Every worker must reach `prepared` (a worker that ends before it, but for a bad input, which
  // this process reports itself, is a WorkerFailure with what it said).
  bool require_prepared = false;
  unsigned workers = 1;
  std::uint64_t unit_seconds = 600;  // a unit's time limit in a worker (plugin.unit_seconds's default)
  std::string limit_name;            // the limit's name in messages ("plugin.unit_seconds")
  // A worker's `call` message read for the report: where it was ("in plugin ... call ...,
  // configuration ..."), and whether it ended by exit() from plugin code.
  std::function<std::string(std::string_view payload, bool& exit_called)> read_call;
  // Called on the parent's thread at least every 100 ms while it waits for its workers (an
  // embedding host checks its own interrupts there and requests cancellation); may be null.
  std::function<void()> on_wait;
  // One worker runs the whole study (run_whole()): the constructor does not wait for it, and its
  // descriptor 1 is `results_fd` (-1: /dev/null), where it writes the study's results itself.
  bool whole = false;
  int results_fd = -1;
  // The whole study's progress as its worker reports it (done, total, phase); may be null.
  std::function<void(std::uint64_t done, std::uint64_t total, const std::string& phase)> on_progress;
};

class TESSERA_API WorkerFailure : public PluginError {
 public:
  explicit WorkerFailure(const std::string& message);
  ~WorkerFailure() override;
};

class TESSERA_API ProcessExecutor final : public Executor {
 public:
  explicit ProcessExecutor(WorkerLaunch launch);
  ~ProcessExecutor() override;
  ProcessExecutor(const ProcessExecutor&) = delete;
  ProcessExecutor& operator=(const ProcessExecutor&) = delete;

  using Executor::execute;
  unsigned workers() const override { return static_cast<unsigned>(workers_.size()); }
  bool remote() const override { return true; }
  // A plan of fewer units than the workers planned is the end of theirs (a resumed checkpoint
  // skips a prefix): unit u here is the workers' unit (theirs - count + u).
  void execute(std::size_t count, const ComputeFn& compute, const MergeFn& merge,
               const UnitCodec& codec) override;
  // WorkerLaunch::whole: waits until the worker has run its whole study, and returns the exit
  // status its command finished with and its error message (`failed`; empty when none). Its
  // time limit counts from its last `progress`: a plugin call that stays in progress that long. A worker that
  // dies before it says `finished` is a WorkerFailure as in execute(); the temporary outputs it said it
  // created are removed.
  struct WholeExit {
    int status = 0;
    std::string message;
    std::string error;  // the exception as the worker saved it (after the text's NUL), if any
  };
  WholeExit run_whole();

  struct Worker {
    pid_t pid = -1;
    int fd = -1;
    bool prepared = false;      // said `prepared` (or `ready`)
    bool ready = false;         // said `ready` for the current plan
    std::uint64_t planned = 0;  // its plan's unit count
    bool busy = false;
    std::size_t unit = 0;   // the local unit it holds
    double deadline = 0;    // steady seconds
    std::string last_call;  // its `call` message's payload, if one came
    std::string error;      // what it said when its command failed outside a unit (its message)
    bool ended = false;
    int status = 0;  // waitpid's, once ended
  };

 private:
  struct PlanState;
  void start(std::size_t w);
  void hand_out(PlanState& plan);
  void stop_past_deadline(const PlanState& plan);
  // `what`: what took too long, in the message ("passed the per-unit time limit of 600 s").
  [[noreturn]] void stop_overdue(Worker& w, const std::string& during, const std::string& what);
  void receive(PlanState& plan);
  // Until every worker has said `ready` (`prepared`: or `prepared`) or ended.
  void wait_ready(const std::string& stage, bool prepared = false);
  [[noreturn]] void fail_worker(Worker& w, const std::string& during, const std::string& how);
  void stop_all() noexcept;

  WorkerLaunch launch_;
  std::vector<Worker> workers_;
  Message received_;                // the last message read (its buffer reused)
  std::vector<std::string> temps_;  // a whole study's temporary outputs not yet committed
};

}  // namespace tessera::workers
