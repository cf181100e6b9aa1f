#pragma once
// A study run whole in an isolated `tessera` worker for the Python module
// (studies/plugin_isolation.hpp WorkerShare::whole): Scenario.serve, .sensitivity, .explain,
// compare and a serve scenario's .explore. The worker writes its --json document to a memory file
// this process reads back; a plugin that dies there is a PluginError here, and the interpreter
// goes on.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bindings.hpp"
#include "interruptible.hpp"

namespace tessera::python {

// A memory file a worker writes its results to (its descriptor 1), read back here.
class ResultsFile {
 public:
  ResultsFile();
  ~ResultsFile();
  ResultsFile(const ResultsFile&) = delete;
  ResultsFile& operator=(const ResultsFile&) = delete;
  int fd() const { return fd_; }
  std::string read() const;

 private:
  int fd_;
};

// A new folder under $TMPDIR (or /tmp), removed with what is in it: where a worker writes a file
// this process reads back (serve's request timeline).
class TemporaryFolder {
 public:
  TemporaryFolder();
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Runs `here(workers)` without the GIL (guard.run): `here` starts `workers` for its study
// (StudyWorkers::before_session, directly or through a study's ScenarioOptions) and computes the
// study in this process when they do not run it. When a worker ran it whole (StudyRanInWorker),
// returns the document it wrote, or throws its error as the error the study would have thrown here
// (InputError, PluginError, Error); nullopt when the study ran here.
// The same returning the bytes the worker wrote (evaluate's columns: not JSON).
std::optional<std::string> ran_here_or_in_worker(studies::StudyWorkers& workers, const ResultsFile& results,
                                                 Interruptible& guard,
                                                 const std::function<void(studies::StudyWorkers&)>& here);
std::optional<nlohmann::json> study_here_or_in_worker(
    studies::StudyWorkers& workers, const ResultsFile& results, Interruptible& guard,
    const std::function<void(studies::StudyWorkers&)>& here);

// `command` with Ctrl-C checked and progress reported through `guard`.
studies::StudyWorkers guarded_workers(studies::WorkerCommand command, Interruptible& guard);

// The whole-study workers of `tessera ARGUMENTS` (isolate: "auto", "on", "off"), `--json - -q`
// added, written to `results`; Ctrl-C checked and progress reported through `guard`.
studies::StudyWorkers whole_workers(std::vector<std::string> arguments, const std::string& isolate,
                                    const ResultsFile& results, Interruptible& guard);

// The same for `tessera STUDY` on the scenario of `h`: its options, then `extra`.
studies::StudyWorkers whole_study_workers(const std::string& study, const ScenarioHandle& h,
                                          const std::string& isolate, std::vector<std::string> extra,
                                          const ResultsFile& results, Interruptible& guard);

}  // namespace tessera::python
