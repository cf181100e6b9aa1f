#pragma once
// A `tessera` process to signal: started with stdout to /dev/null, stderr to a file and an empty
// TESSERA_PLUGIN_PATH, and waited for with a deadline (the signal tests of tests/outputs and
// tests/calibration).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace tessera::test {

// Starts `args` (args[0] the program) with stdout to /dev/null and stderr to `err_path`.
inline pid_t spawn_quiet(std::vector<std::string> args, const std::string& err_path) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;  // the parent (or -1)
  const int out = ::open("/dev/null", O_WRONLY);
  const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ::dup2(out, 1);
  ::dup2(err, 2);
  ::setenv("TESSERA_PLUGIN_PATH", "", 1);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(argv[0], argv.data());
  ::_exit(127);
}

// Waits up to `seconds` for `pid` to end: its exit status, or -1 (killed by a signal, or still
// running: then killed with SIGKILL).
inline int wait_for(pid_t pid, int seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int st = 0;
  while (std::chrono::steady_clock::now() < until) {
    if (::waitpid(pid, &st, WNOHANG) == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &st, 0);
  return -1;
}

}  // namespace tessera::test
