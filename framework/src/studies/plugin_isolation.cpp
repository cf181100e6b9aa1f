#include "studies/plugin_isolation.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string_view>
#include <thread>

#include <spdlog/spdlog.h>

#include "core/checkpoint/byte_record.hpp"
#include "core/program_location.hpp"
#include "core/workers/mpi_job.hpp"
#include "core/workers/process_executor.hpp"
#include "core/workers/unit_server.hpp"
#include "host/call_trace.hpp"
#include "tessera/limits.hpp"

namespace tessera::studies {

namespace {

std::unique_ptr<workers::UnitServer> g_server;  // set in a worker process computing units
int g_whole_fd = -1;                            // a worker running a whole study: its socket

std::map<std::string, std::string> g_settings;  // a worker's, from its parent (descriptor 4)

// The settings its parent wrote for a worker: NAME=VALUE records, each its length (8 bytes) then
// its bytes (a value holds anything: a scenario file's NUL too).
void read_settings(int fd) {
  std::string bytes;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    bytes.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  ByteReader in(bytes, "this worker's settings");
  try {
    while (!in.done()) {
      const std::string_view record = in.get_view();
      const std::size_t eq = record.find('=');
      if (eq != std::string_view::npos)
        g_settings[std::string(record.substr(0, eq))] = std::string(record.substr(eq + 1));
    }
  } catch (const std::exception&) {
    g_settings.clear();  // not its parent's: the build check below refuses to serve
  }
}

// The file holding this code (libtessera_host): a worker must run the same one.
std::string host_library_path() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<const void*>(&host_library_path), &info) == 0 || !info.dli_fname) return {};
  return info.dli_fname;
}

// Whether `a` and `b` name the same file.
bool same_file(const std::string& a, const std::string& b) {
  struct stat x {
  }, y{};
  return !a.empty() && !b.empty() && ::stat(a.c_str(), &x) == 0 && ::stat(b.c_str(), &y) == 0 &&
         x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

void send_to_parent(workers::MessageType type, std::uint64_t unit, std::string_view payload) {
  workers::send_message_exclusive(g_whole_fd, type, unit, payload);  // its threads' messages, one at a time
}

// A whole study's worker: four times a second, a `progress` heartbeat while its plugin calls
// move (host/call_trace.hpp), so that the parent's time limit counts only a call that stays.
[[noreturn]] void heartbeat() {
  // The parent's SIGABRT at its time limit asks where a plugin call is: never this thread's.
  sigset_t abort_only;
  sigemptyset(&abort_only);
  sigaddset(&abort_only, SIGABRT);
  ::pthread_sigmask(SIG_BLOCK, &abort_only, nullptr);
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    if (plugin_calls_moved()) send_to_parent(workers::MessageType::progress, 0, {});
  }
}

}  // namespace

StudyRanInWorker::~StudyRanInWorker() = default;

bool become_unit_worker() {
  const char* v = std::getenv(workers::kWorkerVariable);
  if (v == nullptr || g_server || g_whole_fd >= 0) return is_unit_worker() || is_whole_worker();
  const std::string_view text(v);
  const std::size_t colon = text.find(':');
  const int fd = std::atoi(std::string(text.substr(0, colon)).c_str());
  const long parent =
      colon == std::string_view::npos ? 0 : std::atol(std::string(text.substr(colon + 1)).c_str());
  const bool whole = text.ends_with(":whole");
  ::unsetenv(workers::kWorkerVariable);  // a program a plugin starts is no worker
  // Only a process a tessera parent started is a worker: its descriptor is a socket and its
  // parent is named. Anything else (a variable left in a shell) is ignored, and said.
  struct stat st {};
  if (parent <= 0 || fd < 3 || ::fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) {
    std::fprintf(stderr, "tessera: warning: ignoring %s (set only by tessera for its worker processes)\n",
                 workers::kWorkerVariable);
    return false;
  }
  // A program a plugin starts does not inherit the socket (it would hold it open past this end).
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  // Ended with the parent, even while a plugin call blocks; gone already: nothing to do.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != static_cast<pid_t>(parent)) std::_Exit(0);
  // Ctrl-C reaches the whole process group: the parent stops its workers itself. SIGTERM and
  // SIGHUP end a worker as they would any program (its parent, signalled too, says the study
  // was interrupted).
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGTERM, SIG_DFL);
  ::signal(SIGHUP, SIG_DFL);
  if (whole)
    g_whole_fd = fd;
  else
    g_server = std::make_unique<workers::UnitServer>(fd);
  read_settings(4);
  if (const std::string parents = worker_setting("host_library"); !same_file(parents, host_library_path())) {
    report_worker_failure(1, "this worker (" + program_bin_dir() + "/tessera) runs " + host_library_path() +
                                 ", its parent " + parents +
                                 ": another build of Tessera; run in one process with --no-isolate, or "
                                 "install the tessera executable of this build");
    worker_finished(1);
    std::_Exit(1);
  }
  trace_plugin_calls(fd);
  if (whole) {
    count_plugin_calls();
    std::thread(&heartbeat).detach();
  }
  return true;
}

// A worker process, or an MPI rank that computes the units rank 0 hands out (core/workers/mpi_job.hpp).
bool is_unit_worker() { return g_server || (workers::mpi_ranks() > 1 && workers::mpi_rank() > 0); }
bool plugin_exit_in_worker() noexcept { return exit_called_in_plugin_call(); }
bool is_whole_worker() { return g_whole_fd >= 0; }

void report_worker_failure(int status, const std::string& text, const std::string& error) {
  if (g_server) g_server->report_failure(status, text);
  workers::mpi_rank_failed(status, text);
  if (g_whole_fd >= 0)  // the status byte, the text, NUL, the exception
    send_to_parent(workers::MessageType::failed, workers::kNoUnit,
                   std::string(1, static_cast<char>(status)) + text + '\0' + error);
}

void worker_temp_output(const char* path, bool created) {
  if (g_whole_fd < 0 || path == nullptr) return;
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  send_to_parent(workers::MessageType::temp, 0,
                 (created ? "+" : "-") + (ec ? std::string(path) : absolute.string()));
}

void worker_progress(std::uint64_t done, std::uint64_t total, const char* phase) {
  if (g_whole_fd < 0) return;
  static std::atomic<std::int64_t> last_ms{0};
  const std::int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::steady_clock::now().time_since_epoch())
                               .count();
  std::int64_t last = last_ms.load(std::memory_order_relaxed);
  if (done < total && (now - last < 100 || !last_ms.compare_exchange_strong(last, now))) return;
  send_to_parent(workers::MessageType::progress, 0,
                 std::to_string(done) + ' ' + std::to_string(total) + ' ' + (phase ? phase : ""));
}

void worker_finished(int status) {
  if (g_whole_fd >= 0) send_to_parent(workers::MessageType::finished, static_cast<std::uint64_t>(status), {});
}

std::string worker_setting(const std::string& name) {
  const auto it = g_settings.find(name);
  return it == g_settings.end() ? std::string() : it->second;
}

bool shared_setting(WorkerCommand& command, const std::string& name, bool mine) {
  if (g_server) return worker_setting(name) == "1";  // an MPI rank decides as rank 0 does
  command.settings.push_back(name + (mine ? "=1" : "=0"));
  return mine;
}

namespace {

// `tessera STUDY` with the study's scenario (its file, or its text and a model's HF config as
// settings), --set (as settings), --model, --machine, --plugin-path, --plugin-override, then `extra`.
WorkerCommand study_worker_command(const std::string& study, const ScenarioOptions& options,
                                   Isolation isolation, unsigned threads,
                                   const std::vector<std::string>& extra) {
  WorkerCommand w;
  w.isolation = isolation;
  w.workers = threads;
  std::vector<std::string>& a = w.arguments;
  a.push_back(study);
  if (options.text) {
    w.settings.push_back("scenario_text=" + options.text->text);
    w.settings.push_back("scenario_label=" + options.text->label);
    w.settings.push_back("scenario_base_dir=" + options.text->base_dir);
    w.settings.push_back(std::string("scenario_from_file=") + (options.text->from_file ? "1" : "0"));
  } else if (!options.path.empty()) {
    a.push_back(options.path);
  }
  // The overrides as settings (any size; the command line's is bounded), read back in order.
  w.settings.push_back("set.count=" + std::to_string(options.load.set.size()));
  for (std::size_t i = 0; i < options.load.set.size(); ++i)
    w.settings.push_back("set." + std::to_string(i) + "=" + options.load.set[i]);
  if (!options.load.model_override.empty()) a.insert(a.end(), {"--model", options.load.model_override});
  if (!options.load.machine_override.empty()) a.insert(a.end(), {"--machine", options.load.machine_override});
  if (!options.load.model_hf_json.empty()) {
    w.settings.push_back("model_hf_json=" + options.load.model_hf_json);
    w.settings.push_back("model_hf_label=" + options.load.model_hf_label);
  }
  for (const std::string& p : options.plugin_paths) a.insert(a.end(), {"--plugin-path", p});
  for (const std::string& p : options.plugin_overrides) a.insert(a.end(), {"--plugin-override", p});
  a.insert(a.end(), extra.begin(), extra.end());
  return w;
}

}  // namespace

WorkerCommand whole_worker_command(const std::string& study, const ScenarioOptions& options,
                                   Isolation isolation, const std::vector<std::string>& extra,
                                   int results_fd) {
  WorkerCommand w = study_worker_command(study, options, isolation, 0, extra);
  w.share = WorkerShare::whole;
  w.results_fd = results_fd;
  return w;
}

void probe_plugin_setup(const ScenarioOptions& options, const Scenario& scenario, bool added_plugins,
                        const std::function<void()>& on_wait, const std::string& study,
                        const std::vector<std::string>& extra) {
  if (!added_plugins || is_unit_worker() || is_whole_worker()) return;
  std::vector<std::string> arguments = extra;
  arguments.push_back("-q");
  WorkerCommand command = study_worker_command(!study.empty()                          ? study
                                               : scenario.workload.mode == Mode::serve ? "serve"
                                                                                       : "run",
                                               options, Isolation::on, 1, arguments);
  command.require_prepared = true;
  command.on_wait = on_wait;
  StudyWorkers probe(std::move(command));
  try {
    probe.before_session(scenario, true);  // returns once the worker has created them
  } catch (const workers::WorkerFailure&) {
    throw;
  } catch (const Error& e) {
    spdlog::warn("the plugins of {} are created in this process without a worker creating them first: {}",
                 scenario.name, e.what());
  }
}

void apply_worker_scenario(ScenarioOptions& options) {
  if (!is_unit_worker() && !is_whole_worker()) return;
  if (const std::string text = worker_setting("scenario_text"); !text.empty())
    options.text = ScenarioText{text, worker_setting("scenario_label"), worker_setting("scenario_base_dir"),
                                worker_setting("scenario_from_file") == "1"};
  if (const std::string count = worker_setting("set.count"); !count.empty()) {
    options.load.set.clear();
    for (std::size_t i = 0, n = std::stoul(count); i < n; ++i)
      options.load.set.push_back(worker_setting("set." + std::to_string(i)));
  }
  if (const std::string hf = worker_setting("model_hf_json"); !hf.empty()) {
    options.load.model_hf_json = hf;
    options.load.model_hf_label = worker_setting("model_hf_label");
  }
}

StudyWorkers::StudyWorkers(WorkerCommand command) : command_(std::move(command)) {
  if (command_.results_everywhere && !g_server && !is_whole_worker()) workers::join_mpi_job();
  if (!g_server && (command_.share != WorkerShare::whole || command_.mpi_units))
    pool_ = workers::make_mpi_executor(command_.workers, command_.results_everywhere);
}
StudyWorkers::~StudyWorkers() = default;

bool runs_isolated(Isolation isolation, bool added_plugins) {
  // Across MPI ranks the ranks are the boundary: a rank a plugin kills ends the job, named.
  if (is_unit_worker() || is_whole_worker() || workers::mpi_ranks() > 1) return false;
  return isolation == Isolation::on || (isolation == Isolation::automatic && added_plugins);
}

void StudyWorkers::before_session(const Scenario& scenario, bool added_plugins) {
  // A study without work units for the other MPI ranks (WorkerShare::whole, a serve scenario's
  // explore) is rank 0's alone: the others end here, quiet, and exit as rank 0 does.
  const bool whole = command_.share == WorkerShare::whole ||
                     (command_.share == WorkerShare::units_for_step && scenario.workload.mode == Mode::serve);
  if (whole && !command_.mpi_units && workers::mpi_ranks() > 1 && workers::mpi_rank() > 0)
    throw StudyRanInWorker(0, {});
  if (pool_ || !runs_isolated(command_.isolation, added_plugins)) return;
  start(whole, scenario.machine);
}

void StudyWorkers::before_command(bool added_plugins) {
  if (workers::mpi_ranks() > 1 && workers::mpi_rank() > 0) throw StudyRanInWorker(0, {});
  if (pool_ || !runs_isolated(command_.isolation, added_plugins)) return;
  start(true, MachineSpec{});
}

void StudyWorkers::start(bool whole, const MachineSpec& machine) {
  workers::WorkerLaunch launch;
  launch.whole = whole;
  launch.results_fd = whole ? command_.results_fd : -1;
  launch.executable = command_.executable.empty() ? program_bin_dir() + "/tessera" : command_.executable;
  // A worker of another build (an older `tessera` beside a newer library) refuses to serve.
  ByteWriter settings;  // read_settings' records
  settings.put_text("host_library=" + host_library_path());
  for (const std::string& s : command_.settings) settings.put_text(s);
  launch.settings = settings.take();
  launch.arguments.push_back(launch.executable);
  for (const std::string& a : command_.arguments) launch.arguments.push_back(a);
  launch.require_prepared = command_.require_prepared;
  launch.workers =
      command_.workers > 0 ? command_.workers : std::max(1u, std::thread::hardware_concurrency());
  launch.unit_seconds = current_limits().plugin_unit_seconds;
  launch.limit_name = "plugin.unit_seconds";
  launch.on_wait = command_.on_wait;
  launch.on_progress = command_.on_progress;
  launch.read_call = [machine](std::string_view payload, bool& exit_called) {
    const TracedCall call = read_traced_call(payload, machine);
    exit_called = call.exit_called;
    return call.where;
  };
  if (whole) {
    workers::ProcessExecutor worker(std::move(launch));
    const workers::ProcessExecutor::WholeExit exit = worker.run_whole();
    throw StudyRanInWorker(exit.status, exit.message, exit.error);
  }
  pool_ = std::make_unique<workers::ProcessExecutor>(std::move(launch));
}

void StudyWorkers::prepared() {
  if (g_server) g_server->prepared();
}

Executor* StudyWorkers::executor() const { return g_server ? g_server.get() : pool_.get(); }

}  // namespace tessera::studies
