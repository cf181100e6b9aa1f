#include "core/workers/process_executor.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
#include <thread>

#include "core/cancellation.hpp"
#include "core/fd_write.hpp"
#include "core/workers/remote_plan.hpp"
#include "core/workers/unit_protocol.hpp"

extern char** environ;

namespace tessera::workers {

WorkerFailure::WorkerFailure(const std::string& message) : PluginError(message) {}
WorkerFailure::~WorkerFailure() = default;

namespace {

constexpr int kPollMs = 100;       // how often cancellation and the deadlines are looked at
constexpr double kLastWordsS = 1;  // how long a worker stopped at its time limit may take to say where it was

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string ended_how(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return "died by signal " + std::to_string(sig) + " (" + ::strsignal(sig) + ")";
  }
  if (WIFEXITED(status)) return "ended with exit status " + std::to_string(WEXITSTATUS(status));
  return "ended";
}

// A descriptor a worker gets at 3 or 4, moved above them (dup2 onto itself would keep
// close-on-exec; onto the other, would replace it).
int child_end(int fd) {
  if (fd < 0 || fd > 4) return fd;
  const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
  ::close(fd);
  return moved;
}

void reap(ProcessExecutor::Worker& w) {
  if (w.ended || w.pid < 0) return;
  int status = 0;
  while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
  }
  w.ended = true;
  w.status = status;
  if (w.fd >= 0) ::close(w.fd);
  w.fd = -1;
}

// The worker's messages until it ends or `until` passes (its last words, after a kill).
void drain(ProcessExecutor::Worker& w, double until) {
  while (w.fd >= 0) {
    const double left = until - now_s();
    if (left <= 0) return;
    pollfd p{w.fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left * 1000) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return;
    std::optional<Message> m;
    try {
      m = receive_message(w.fd);
    } catch (const std::exception&) {
      return;
    }
    if (!m) return;
    if (m->type == MessageType::call) w.last_call = std::move(m->payload);
  }
}

// A `progress` payload ("DONE TOTAL PHASE") to `to`; nothing when it is not one.
void report_progress(const std::string& payload,
                     const std::function<void(std::uint64_t, std::uint64_t, const std::string&)>& to) {
  std::uint64_t done = 0, total = 0;
  int phase_at = 0;
  if (std::sscanf(payload.c_str(), "%" SCNu64 " %" SCNu64 " %n", &done, &total, &phase_at) < 2 ||
      phase_at <= 0)
    return;
  to(done, total, payload.substr(static_cast<std::size_t>(phase_at)));
}

}  // namespace

ProcessExecutor::ProcessExecutor(WorkerLaunch launch) : launch_(std::move(launch)) {
  workers_.resize(launch_.whole ? 1 : std::max(1u, launch_.workers));
  try {
    for (std::size_t w = 0; w < workers_.size(); ++w) start(w);
    if (!launch_.whole) wait_ready("while preparing the study (before its first work unit)", true);
  } catch (...) {
    stop_all();
    throw;
  }
}

ProcessExecutor::~ProcessExecutor() { stop_all(); }

void ProcessExecutor::start(std::size_t index) {
  Worker& w = workers_[index];
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    throw Error(std::string("cannot start a worker process: socketpair: ") + std::strerror(errno));
  const int theirs = child_end(fds[1]);
  // This process's end never on 0-2 (when they are closed here), which a worker would inherit.
  if (fds[0] <= 2) fds[0] = child_end(fds[0]);
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, kWorkerVariable, std::strlen(kWorkerVariable)) != 0) env.emplace_back(*e);
  env.push_back(std::string(kWorkerVariable) + "=3:" + std::to_string(::getpid()) +
                (launch_.whole ? ":whole" : ""));

  std::vector<char*> argv, envp;
  for (std::string& a : launch_.arguments) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  // The settings in a memory file on descriptor 4.
  const int settings = child_end(::memfd_create("tessera-worker-settings", MFD_CLOEXEC));
  if (settings < 0 || !write_fully(settings, launch_.settings) || ::lseek(settings, 0, SEEK_SET) != 0) {
    const int err = errno;
    if (settings >= 0) ::close(settings);
    ::close(theirs);
    ::close(fds[0]);
    throw Error(std::string("cannot start a worker process: its settings: ") + std::strerror(err));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // The results' descriptor first: it may be 3 or 4 in this process. Closed here (stdout closed):
  // one the worker cannot write to either, so that it fails as this process would.
  if (launch_.results_fd >= 0 && ::fcntl(launch_.results_fd, F_GETFD) >= 0)
    posix_spawn_file_actions_adddup2(&actions, launch_.results_fd, 1);
  else
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", launch_.results_fd >= 0 ? O_RDONLY : O_WRONLY,
                                     0);
  posix_spawn_file_actions_adddup2(&actions, theirs, 3);
  posix_spawn_file_actions_adddup2(&actions, settings, 4);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  // Nothing of this process but its socket, its settings and stderr: no output file, pipe or
  // other worker's socket leaks into a worker (descriptors opened without close-on-exec included).
  posix_spawn_file_actions_addclosefrom_np(&actions, 5);
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, launch_.executable.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(theirs);
  ::close(settings);
  if (rc != 0) {
    ::close(fds[0]);
    throw Error("cannot start a worker process (" + launch_.executable + "): " + std::strerror(rc) +
                "; run the study in this process instead with --no-isolate (Python: isolate=False)");
  }
  w.pid = pid;
  w.fd = fds[0];
}

void ProcessExecutor::wait_ready(const std::string& stage, bool prepared) {
  const double deadline = now_s() + static_cast<double>(launch_.unit_seconds);
  for (;;) {
    std::vector<pollfd> polled;
    std::vector<Worker*> who;
    for (Worker& w : workers_)
      if (!(prepared ? w.prepared : w.ready) && !w.ended) {
        polled.push_back(pollfd{w.fd, POLLIN, 0});
        who.push_back(&w);
      }
    if (polled.empty()) return;
    if (launch_.on_wait) launch_.on_wait();
    throw_if_cancelled();
    if (now_s() > deadline)
      stop_overdue(*who.front(), stage,
                   "passed the time limit of " + std::to_string(launch_.unit_seconds) + " s");
    const int n = ::poll(polled.data(), polled.size(), kPollMs);
    if (n < 0 && errno != EINTR) throw Error(std::string("poll: ") + std::strerror(errno));
    for (std::size_t i = 0; n > 0 && i < polled.size(); ++i) {
      if (polled[i].revents == 0) continue;
      Worker& w = *who[i];
      const std::optional<Message> m = receive_message(w.fd);
      if (m && m->type == MessageType::ready) {
        w.ready = w.prepared = true;
        w.planned = m->unit;
      } else if (m && m->type == MessageType::prepared) {
        w.prepared = true;
      } else if (m && m->type == MessageType::call) {
        w.last_call = m->payload;
      } else if (m && m->type == MessageType::failed && m->unit == kNoUnit) {
        w.error = failed_text(m->payload);
      } else if (m) {
        throw Error("the unit protocol: a worker said something unexpected before its plan");
      } else {
        reap(w);
        // A worker that failed as this process will (a bad scenario: exit 2, a plugin's error:
        // 1) leaves the report to it; one that died in plugin code is reported now.
        const bool plain = WIFEXITED(w.status) && WEXITSTATUS(w.status) <= 2;
        const bool bad_input = WIFEXITED(w.status) && WEXITSTATUS(w.status) == 2;
        if (!plain || !w.last_call.empty() || (prepared && launch_.require_prepared && !bad_input))
          fail_worker(w, stage, ended_how(w.status));
      }
    }
  }
}

void ProcessExecutor::fail_worker(Worker& w, const std::string& during, const std::string& how) {
  stop_all();
  // A worker that ended because this study is being stopped (SIGTERM or SIGHUP to the process
  // group, whose handler here may run a moment after the worker died): interrupted, not failed.
  if (WIFSIGNALED(w.status) && (WTERMSIG(w.status) == SIGTERM || WTERMSIG(w.status) == SIGHUP))
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  throw_if_cancelled();
  bool exit_called = false;
  std::string where;
  if (!w.last_call.empty() && launch_.read_call) where = launch_.read_call(w.last_call, exit_called);
  std::string text = "a worker process (pid " + std::to_string(w.pid) + ") ";
  if (exit_called && WIFEXITED(w.status))
    text += "ended by exit() from plugin code (exit status " + std::to_string(WEXITSTATUS(w.status)) + ")";
  else if (WIFEXITED(w.status) && WEXITSTATUS(w.status) == 0)
    text += "ended (exit status 0) without finishing its work";
  else
    text += how;
  text += " " + during;
  if (!where.empty())
    text += ", " + where;
  else if (w.error.empty())
    text +=
        "; the plugin call it was in is unknown (a process ended by _exit() or a signal it cannot catch "
        "leaves no trace)";
  if (!w.error.empty()) {
    constexpr std::string_view kPrefix = "tessera: error: ";
    text += "; it said: " + (w.error.starts_with(kPrefix) ? w.error.substr(kPrefix.size()) : w.error);
  }
  text += "; the study was stopped and no result was written";
  throw WorkerFailure(text);
}

void ProcessExecutor::stop_all() noexcept {
  for (Worker& w : workers_) {
    if (w.ended || w.pid < 0) continue;
    if (w.fd >= 0) ::close(w.fd);
    w.fd = -1;
    ::kill(w.pid, SIGKILL);
    reap(w);
  }
  // What a whole study's worker left half-written.
  for (const std::string& path : temps_) ::unlink(path.c_str());
  temps_.clear();
}

// What a plan's loop keeps: which units are done, the merge cursor, the first failure.
struct ProcessExecutor::PlanState : RemotePlan {
  using RemotePlan::RemotePlan;
};

void ProcessExecutor::execute(std::size_t count, const ComputeFn&, const MergeFn& merge,
                              const UnitCodec& codec) {
  if (!codec) throw std::logic_error("a study without a unit codec cannot run in worker processes");
  wait_ready("before its study's next plan");
  for (Worker& w : workers_)
    if (w.ended)
      throw WorkerFailure("a worker process " + ended_how(w.status) +
                          " before its study's plan, which this process reached" +
                          (w.error.empty() ? std::string(": the study is not the same in both (a plugin that "
                                                         "behaves differently from run to run?)")
                                           : "; it said: " + w.error));
  const std::uint64_t planned = workers_.front().planned;
  for (const Worker& w : workers_)
    if (w.planned != planned || planned < count)
      throw std::logic_error("the worker processes planned another study (" + std::to_string(w.planned) +
                             " work units, this process " + std::to_string(count) + ")");
  PlanState plan(count, planned - count, planned, codec);
  for (;;) {
    // Merge what is in order first: the window of units handed out moves with the merge.
    while (!plan.error && plan.merged < count && plan.done[plan.merged]) {
      try {
        merge(plan.merged);
      } catch (...) {
        plan.fail(count, std::current_exception());
        break;
      }
      ++plan.merged;
    }
    hand_out(plan);
    const bool busy = std::any_of(workers_.begin(), workers_.end(), [](const Worker& w) { return w.busy; });
    if (plan.merged == count || (plan.error && !busy)) break;
    if (launch_.on_wait) launch_.on_wait();
    throw_if_cancelled();
    stop_past_deadline(plan);
    receive(plan);
  }
  for (Worker& w : workers_) {
    w.ready = false;
    if (!send_message(w.fd, MessageType::end, 0)) {
      reap(w);
      if (!plan.error) fail_worker(w, "at the end of its study's plan", ended_how(w.status));
    }
  }
  if (plan.error) std::rethrow_exception(plan.error);
}

// Each idle worker gets the next unit while it is fewer than 2 x workers ahead of the merge.
void ProcessExecutor::hand_out(PlanState& plan) {
  const std::size_t window = 2 * workers_.size();
  for (Worker& w : workers_) {
    if (plan.error || w.busy || plan.next >= plan.count || plan.next >= plan.merged + window) continue;
    if (!send_message(w.fd, MessageType::unit, plan.offset + plan.next)) {
      reap(w);
      fail_worker(w, plan.unit_words(plan.next), ended_how(w.status));
    }
    w.busy = true;
    w.unit = plan.next++;
    w.deadline = now_s() + static_cast<double>(launch_.unit_seconds);
  }
}

// A worker past its unit's time limit.
void ProcessExecutor::stop_past_deadline(const PlanState& plan) {
  for (Worker& w : workers_)
    if (w.busy && now_s() > w.deadline)
      stop_overdue(w, plan.unit_words(w.unit),
                   "passed the per-unit time limit of " + std::to_string(launch_.unit_seconds) + " s");
}

// A worker past a time limit: asked where it is (SIGABRT: its handler names the call), killed
// 1 s later, and reported.
void ProcessExecutor::stop_overdue(Worker& w, const std::string& during, const std::string& what) {
  ::kill(w.pid, SIGABRT);
  drain(w, now_s() + kLastWordsS);
  ::kill(w.pid, SIGKILL);
  reap(w);
  fail_worker(w, during,
              what + " (the limit " + launch_.limit_name + "; raise it with --limit " + launch_.limit_name +
                  "=SECONDS) and was stopped");
}

ProcessExecutor::WholeExit ProcessExecutor::run_whole() {
  Worker& w = workers_.front();
  const std::string during = "while running the whole study (in this one worker)";
  double deadline = now_s() + static_cast<double>(launch_.unit_seconds);
  std::string error;
  for (;;) {
    if (launch_.on_wait) launch_.on_wait();
    throw_if_cancelled();
    if (now_s() > deadline)
      stop_overdue(
          w, during,
          "stayed " + std::to_string(launch_.unit_seconds) + " s in a plugin call that did not return");
    pollfd p{w.fd, POLLIN, 0};
    const int n = ::poll(&p, 1, kPollMs);
    if (n < 0 && errno != EINTR) throw Error(std::string("poll: ") + std::strerror(errno));
    if (n <= 0) continue;
    Message& m = received_;
    if (!receive_message(w.fd, m)) {
      reap(w);
      // Its results' reader went away (`| head`): the end a command in one process has too.
      if (WIFSIGNALED(w.status) && WTERMSIG(w.status) == SIGPIPE && w.last_call.empty())
        return WholeExit{128 + SIGPIPE, w.error, error};
      fail_worker(w, during, ended_how(w.status));
    }
    if (m.type == MessageType::call) {
      w.last_call = m.payload;
    } else if (m.type == MessageType::progress) {
      deadline = now_s() + static_cast<double>(launch_.unit_seconds);
      if (!m.payload.empty() && launch_.on_progress) report_progress(m.payload, launch_.on_progress);
    } else if (m.type == MessageType::temp && !m.payload.empty()) {
      const std::string path = m.payload.substr(1);
      const auto at = std::find(temps_.begin(), temps_.end(), path);
      if (m.payload[0] == '+' && at == temps_.end()) temps_.push_back(path);
      if (m.payload[0] == '-' && at != temps_.end()) temps_.erase(at);
    } else if (m.type == MessageType::failed && m.unit == kNoUnit) {
      w.error = failed_text(m.payload);
      if (const std::size_t nul = m.payload.find('\0'); nul != std::string::npos)
        error = m.payload.substr(nul + 1);
    } else if (m.type == MessageType::finished) {
      // Its results are written: it ends now (a thread a plugin left may still crash it, and a
      // process a plugin started may hold its socket open: neither matters any more).
      reap(w);
      return WholeExit{static_cast<int>(m.unit), w.error, error};
    } else {
      throw Error("the unit protocol: a worker running a whole study said something unexpected");
    }
  }
}

// What the workers say within one poll interval: outcomes loaded through the codec, errors
// kept, a worker's end reported.
void ProcessExecutor::receive(PlanState& plan) {
  std::vector<pollfd> polled;
  for (const Worker& w : workers_) polled.push_back(pollfd{w.fd, POLLIN, 0});
  const int n = ::poll(polled.data(), polled.size(), kPollMs);
  if (n < 0 && errno != EINTR) throw Error(std::string("poll: ") + std::strerror(errno));
  for (std::size_t i = 0; n > 0 && i < polled.size(); ++i) {
    if (polled[i].revents == 0) continue;
    Worker& w = workers_[i];
    Message& m = received_;  // its payload's buffer reused from message to message
    if (!receive_message(w.fd, m)) {
      reap(w);
      fail_worker(w, w.busy ? plan.unit_words(w.unit) : "between two work units", ended_how(w.status));
    }
    if (m.type == MessageType::call) {
      w.last_call = m.payload;
      continue;
    }
    if (m.type == MessageType::failed && m.unit == kNoUnit) {  // its command failed (its end follows)
      w.error = failed_text(m.payload);
      continue;
    }
    if (!w.busy || m.unit != plan.offset + w.unit ||
        (m.type != MessageType::done && m.type != MessageType::failed))
      throw Error("the unit protocol: a worker answered a unit it was not given");
    w.busy = false;
    if (m.type == MessageType::failed) {
      plan.fail(w.unit, failed_error(m.payload));
      continue;
    }
    try {
      ByteReader in(m.payload, "the outcome of work unit " + std::to_string(plan.offset + w.unit + 1));
      plan.codec.load(w.unit, in);
      plan.done[w.unit] = 1;
    } catch (...) {
      plan.fail(w.unit, std::current_exception());
    }
  }
}

}  // namespace tessera::workers
