#pragma once
// Plugins in isolated worker processes, as the front ends use them (docs/architecture.md
// "Isolated workers"; docs/plugin-guide.md "What the host guarantees"). A study whose scenario
// uses a plugin from outside the shipped plugin folder runs its work units in worker processes
// (core/workers/process_executor.hpp) unless told otherwise; each worker is the `tessera`
// executable running the same command, told by its environment that it is a worker.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/executor.hpp"
#include "scenario/scenario.hpp"
#include "studies/scenario_options.hpp"
#include "tessera/export.hpp"

namespace tessera::studies {

// --isolate-plugins / --no-isolate, or neither: isolated when a plugin the scenario uses comes
// from outside the shipped plugin folder.
enum class Isolation : std::uint8_t { automatic, on, off };

// How this study's workers are started.
struct WorkerCommand {
  Isolation isolation = Isolation::automatic;
  // The program each worker runs: "" = the `tessera` executable beside this program
  // (<program bin dir>/tessera: the Python module's); the CLI names itself (/proc/self/exe).
  std::string executable;
  std::vector<std::string> arguments;  // the worker's argv after the executable: the same study
  unsigned workers = 0;                // 0: one per hardware thread
  // Settings the worker cannot derive the way this process does (whether stdout is a
  // terminal, a checkpoint it does not read, Python's scenario text): NAME=VALUE, of any size
  // (a memory file on the worker's descriptor 4), read back with worker_setting().
  std::vector<std::string> settings;
  // Every worker must reach its study's setup (ProcessExecutor's require_prepared): the probe of
  // Python's Scenario.load.
  bool require_prepared = false;
  // The study isolates only a step scenario (explore: a serve scenario's points run on threads).
  bool step_only = false;
  // Called at least every 100 ms while the parent waits for its workers (Python checks Ctrl-C
  // there: core/workers/process_executor.hpp WorkerLaunch::on_wait).
  std::function<void()> on_wait;
};

// The workers of one command: started (or not) when the study's scenario and plugins are known,
// before this process creates any plugin (ScenarioOptions::before_session).
class TESSERA_API StudyWorkers {
 public:
  explicit StudyWorkers(WorkerCommand command);
  ~StudyWorkers();
  StudyWorkers(const StudyWorkers&) = delete;
  StudyWorkers& operator=(const StudyWorkers&) = delete;

  // Starts the workers when the command and the scenario's plugins say so; waits until each has
  // reached its first plan (a worker that died in a plugin's setup is a WorkerFailure).
  void before_session(const Scenario& scenario, bool added_plugins);
  // A worker: tells its parent that the study's setup has made its plugin calls (creating them,
  // the search's separable()), so that the parent makes them too and goes on at the same time.
  // Nothing in the parent.
  void prepared();
  // The executor of the study's work units: this worker's (a worker process), the workers'
  // (isolated), or null (threads of this process).
  Executor* executor() const;
  bool isolated() const { return static_cast<bool>(pool_); }

 private:
  WorkerCommand command_;
  std::unique_ptr<Executor> pool_;
};

// The workers of `run` for a study already open (Python's Scenario.run): `tessera run` with the
// study's scenario (its file, or its text and a model's HF config passed as settings), --set,
// --model, --machine, --plugin-path, --plugin-override, --top when given, and --json - (so that
// it plans the document's searches too), on `threads` workers (0: one per hardware thread).
TESSERA_API WorkerCommand run_worker_command(const ScenarioOptions& options, Isolation isolation,
                                             unsigned threads, std::optional<std::size_t> top);
// The same for `explore` (Python's Scenario.explore): a step scenario's hardware points in
// `tessera explore` workers (WorkerCommand::step_only).
TESSERA_API WorkerCommand explore_worker_command(const ScenarioOptions& options, Isolation isolation,
                                                 unsigned threads);
// Before an embedding process creates a step scenario's plugins (Python's Scenario.load): when
// one comes from outside the shipped folder, a `tessera run` worker creates them first and is
// then stopped; one that dies doing so is a WorkerFailure naming the plugin and the call, and
// this process never makes the call. Nothing for shipped plugins, a serve scenario, or a worker.
// `on_wait`: as WorkerCommand's (Python checks Ctrl-C there). A worker that cannot be started
// (no `tessera` executable beside the module) leaves the check out, with a warning.
TESSERA_API void probe_plugin_setup(const ScenarioOptions& options, const Scenario& scenario,
                                    bool added_plugins, const std::function<void()>& on_wait = {});
// In a worker: the scenario text and HF config its parent passed as settings, put into `options`.
TESSERA_API void apply_worker_scenario(ScenarioOptions& options);

// A yes/no the parent decides and its workers are told (a WorkerCommand setting): in a worker,
// what its parent said; otherwise `mine`, recorded in `command` for its workers.
TESSERA_API bool shared_setting(WorkerCommand& command, const std::string& name, bool mine);

// Makes this process a worker when its parent said so (the environment): its plugin calls
// traced, its SIGINT and SIGTERM left to the parent, ended with its parent. Call first thing.
// Returns whether this process is a worker.
TESSERA_API bool become_unit_worker();
TESSERA_API bool is_unit_worker();
// A worker whose command failed (`status` its exit status, `text` what it would print): told to
// the parent, which says it when its own study did not fail the same way.
TESSERA_API void report_worker_failure(int status, const std::string& text);
// A setting the parent passed (WorkerCommand::settings); "" when none.
TESSERA_API std::string worker_setting(const std::string& name);

}  // namespace tessera::studies
