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

// What a study's workers compute.
enum class WorkerShare : std::uint8_t {
  units,  // its planned work units (run: slices of the space; explore: hardware points)
  // The whole study, in one worker that writes the results itself (the studies without unit
  // codecs: serve, compare, sensitivity, explain); this process makes no plugin call.
  whole,
  units_for_step,  // explore: a step scenario's hardware points as units, a serve scenario whole
};

// Thrown by StudyWorkers::before_session once a worker has run the whole study: its command's
// exit status is this command's, `message` its error (empty when it succeeded); the worker
// wrote the results and this process writes nothing more.
class TESSERA_API StudyRanInWorker : public std::exception {
 public:
  StudyRanInWorker(int status, std::string message, std::string error = {})
      : status_(status), message_(std::move(message)), error_(std::move(error)) {}
  ~StudyRanInWorker() override;
  const char* what() const noexcept override { return message_.c_str(); }
  int status() const { return status_; }
  const std::string& message() const { return message_; }
  // The worker's exception as bytes (studies/worker_error.hpp; empty when none was sent).
  const std::string& error() const { return error_; }

 private:
  int status_;
  std::string message_;
  std::string error_;
};

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
  WorkerShare share = WorkerShare::units;
  // A WorkerShare::whole study that hands work units with codecs to executor() (serve): across MPI
  // ranks those go to every rank; a whole study without (compare, explain, ...) is rank 0's alone.
  bool mpi_units = false;
  // Python: started by an MPI launcher, this process joins the job at its first study (never at
  // import), and every rank ends with the study's results (make_mpi_executor's `everywhere`).
  bool results_everywhere = false;
  // Where a whole study's worker writes its results (its descriptor 1; -1: nowhere): the CLI's
  // results descriptor, or a memory file the embedding process reads.
  int results_fd = -1;
  // Called at least every 100 ms while the parent waits for its workers (Python checks Ctrl-C
  // there: core/workers/process_executor.hpp WorkerLaunch::on_wait).
  std::function<void()> on_wait;
  // A whole study's progress as its worker reports it (WorkerLaunch::on_progress); may be null.
  std::function<void(std::uint64_t done, std::uint64_t total, const std::string& phase)> on_progress;
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
  // reached its first plan (a worker that died in a plugin's setup is a WorkerFailure). A whole
  // study: runs it in a worker, then throws StudyRanInWorker (or a WorkerFailure).
  void before_session(const Scenario& scenario, bool added_plugins);
  // The same for a command without a scenario (validate-data, calibrate: WorkerShare::whole),
  // `added_plugins` whether a plugin it uses comes from outside the shipped folder.
  void before_command(bool added_plugins);
  // A worker: tells its parent that the study's setup has made its plugin calls (creating them,
  // the search's separable()), so that the parent makes them too and goes on at the same time.
  // Nothing in the parent.
  void prepared();
  // The executor of the study's work units: this worker's (a worker process), the workers'
  // (isolated), or null (threads of this process).
  Executor* executor() const;

 private:
  // Starts the workers (`whole`: runs the study in one and throws StudyRanInWorker); `machine`
  // formats a traced configuration.
  void start(bool whole, const MachineSpec& machine);

  WorkerCommand command_;
  std::unique_ptr<Executor> pool_;
};

// A whole study for an embedding process (Python's Scenario.serve, .sensitivity, .explain,
// compare): `tessera STUDY` with the scenario's options, then `extra` (which must ask for
// `--json -`), its document written to `results_fd`.
TESSERA_API WorkerCommand whole_worker_command(const std::string& study, const ScenarioOptions& options,
                                               Isolation isolation, const std::vector<std::string>& extra,
                                               int results_fd);
// Before an embedding process creates a scenario's plugins (the first in-process study of a
// Python Scenario): when one comes from outside the shipped folder, a `tessera run` (or `serve`)
// worker creates them first and is then stopped; one that dies doing so is a WorkerFailure
// naming the plugin and the call, and this process never makes the call. Nothing for shipped
// plugins or in a worker.
// `on_wait`: as WorkerCommand's (Python checks Ctrl-C there). A worker that cannot be started
// (no `tessera` executable beside the module) leaves the check out, with a warning.
// `study` and `extra`: the worker's command (`tessera STUDY ... EXTRA`) when not run or serve
// (Python's compare: `compare --latency A,B`, whose models are not the scenario's).
TESSERA_API void probe_plugin_setup(const ScenarioOptions& options, const Scenario& scenario,
                                    bool added_plugins, const std::function<void()>& on_wait = {},
                                    const std::string& study = {},
                                    const std::vector<std::string>& extra = {});
// In a worker: the scenario text and HF config its parent passed as settings, put into `options`.
TESSERA_API void apply_worker_scenario(ScenarioOptions& options);

// Whether a study with `isolation` runs in workers: on, or automatic with `added_plugins` (never
// in a worker itself).
TESSERA_API bool runs_isolated(Isolation isolation, bool added_plugins);

// A yes/no the parent decides and its workers are told (a WorkerCommand setting): in a worker,
// what its parent said; otherwise `mine`, recorded in `command` for its workers.
TESSERA_API bool shared_setting(WorkerCommand& command, const std::string& name, bool mine);

// Makes this process a worker when its parent said so (the environment): its plugin calls
// traced, its SIGINT left to the parent, ended with its parent. Call first thing.
// Returns whether this process is a worker.
TESSERA_API bool become_unit_worker();
// A worker computing work units (its outputs are its parent's to write).
TESSERA_API bool is_unit_worker();
// A worker running a whole study (it writes the outputs; WorkerShare::whole).
TESSERA_API bool is_whole_worker();
// A worker whose command failed (`status` its exit status, `text` what it would print): told to
// the parent, which says it (a unit worker's: when its own study did not fail the same way).
// `error`: the exception itself (studies/worker_error.hpp), which an embedding parent rethrows.
TESSERA_API void report_worker_failure(int status, const std::string& text, const std::string& error = {});
// A whole study's worker: a temporary output `path` created (`created`) or committed/removed,
// told to the parent (which removes what is left when the worker dies). Nothing otherwise.
TESSERA_API void worker_temp_output(const char* path, bool created);
// A whole study's worker: its study's progress, told to the parent (which reports it: Python's
// progress callback). Nothing otherwise.
TESSERA_API void worker_progress(std::uint64_t done, std::uint64_t total, const char* phase);
// A whole study's worker, at its end: its command finished with `status`, its results written.
TESSERA_API void worker_finished(int status);
// exit() called inside a plugin call in a worker: the parent told where (host/call_trace.hpp),
// true - the caller (app/plugin_exit.cpp) then ends the process with _exit. False elsewhere.
TESSERA_API bool plugin_exit_in_worker() noexcept;
// A setting the parent passed (WorkerCommand::settings); "" when none.
TESSERA_API std::string worker_setting(const std::string& name);

}  // namespace tessera::studies
