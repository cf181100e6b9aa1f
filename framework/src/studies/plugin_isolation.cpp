#include "studies/plugin_isolation.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>
#include <thread>

#include "core/program_location.hpp"
#include "core/workers/process_executor.hpp"
#include "core/workers/unit_server.hpp"
#include "host/call_trace.hpp"
#include "tessera/limits.hpp"

namespace tessera::studies {

namespace {

std::unique_ptr<workers::UnitServer> g_server;  // set in a worker process

constexpr const char* kSettingPrefix = "TESSERA_UNIT_WORKER_";

}  // namespace

bool become_unit_worker() {
  const char* v = std::getenv(workers::kWorkerVariable);
  if (v == nullptr || g_server) return static_cast<bool>(g_server);
  const std::string_view text(v);
  const std::size_t colon = text.find(':');
  const int fd = std::atoi(std::string(text.substr(0, colon)).c_str());
  const long parent = colon == std::string_view::npos ? 0 : std::atol(std::string(text.substr(colon + 1)).c_str());
  // Ended with the parent, even while a plugin call blocks; gone already: nothing to do.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (parent > 0 && ::getppid() != static_cast<pid_t>(parent)) std::_Exit(0);
  // Ctrl-C reaches the whole process group: the parent stops its workers itself.
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGTERM, SIG_IGN);
  ::unsetenv(workers::kWorkerVariable);  // a program a plugin starts is no worker
  g_server = std::make_unique<workers::UnitServer>(fd);
  trace_plugin_calls(fd);
  return true;
}

bool is_unit_worker() { return static_cast<bool>(g_server); }

std::string worker_setting(const std::string& name) {
  const char* v = std::getenv((kSettingPrefix + name).c_str());
  return v ? std::string(v) : std::string();
}

StudyWorkers::StudyWorkers(WorkerCommand command) : command_(std::move(command)) {}
StudyWorkers::~StudyWorkers() = default;

void StudyWorkers::before_session(const Scenario& scenario, bool added_plugins) {
  if (is_unit_worker() || pool_) return;
  if (command_.isolation == Isolation::off || (command_.isolation == Isolation::automatic && !added_plugins))
    return;
  workers::WorkerLaunch launch;
  launch.executable = program_bin_dir() + "/tessera";
  launch.arguments.push_back(launch.executable);
  for (const std::string& a : command_.arguments) launch.arguments.push_back(a);
  for (const std::string& s : command_.settings) launch.environment.push_back(kSettingPrefix + s);
  launch.workers = command_.workers > 0 ? command_.workers : std::max(1u, std::thread::hardware_concurrency());
  launch.unit_seconds = current_limits().plugin_unit_seconds;
  launch.limit_name = "plugin.unit_seconds";
  launch.read_call = [machine = scenario.machine](std::string_view payload, bool& exit_called) {
    const TracedCall call = read_traced_call(payload, machine);
    exit_called = call.exit_called;
    return call.where;
  };
  pool_ = std::make_unique<workers::ProcessExecutor>(std::move(launch));
}

Executor* StudyWorkers::executor() const { return g_server ? g_server.get() : pool_.get(); }

}  // namespace tessera::studies
