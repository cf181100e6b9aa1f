#include "signals.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>

#include "core/cancellation.hpp"
#include "core/fd_write.hpp"
#include "output_files.hpp"

namespace tessera::cli {

namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "read from a signal handler");

// A study polls the cancellation flag between batches of configurations; a plugin call that
// blocks never reaches the poll. The watchdog: kWatchdogSeconds after the first signal, unless
// the study acknowledged it (threw Cancelled) by then, the process ends as a second signal ends
// it, saying why.
constexpr unsigned kWatchdogSeconds = 1;

void write_text(const char* s) { write_fully(2, s); }

const char* signal_name(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "a signal";
  }
}

extern "C" void on_watchdog(int) {
  remove_temporary_outputs_now();
  write_text("tessera: interrupted by ");
  write_text(signal_name(g_signal.load()));
  write_text(
      "; the study did not stop within 1 s (a plugin call that does not return?): ended it; no "
      "output written\n");
  ::_exit(128 + g_signal.load());
}

void disarm_watchdog() noexcept { ::alarm(0); }

extern "C" void on_signal(int sig) {
  int none = 0;
  if (g_signal.compare_exchange_strong(none, sig)) {
    request_cancellation();
    ::alarm(kWatchdogSeconds);
    return;
  }
  // The second signal: nothing waits any more.
  remove_temporary_outputs_now();
  ::_exit(128 + g_signal.load());
}

}  // namespace

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking open() of a FIFO returns EINTR
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  ::sigaction(SIGHUP, &sa, nullptr);  // the terminal closed: stop as for SIGTERM, exit 129
  struct sigaction watchdog {};
  watchdog.sa_handler = on_watchdog;
  sigemptyset(&watchdog.sa_mask);
  ::sigaction(SIGALRM, &watchdog, nullptr);
  set_cancellation_acknowledged(&disarm_watchdog);
  // A file-size limit (`ulimit -f`) reached: by default SIGXFSZ kills the process and leaves its
  // temporary files. Ignored, the write fails with EFBIG instead: the command reports the failed
  // write and exits 1, its temporary files removed (docs/limits.md "Outputs").
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGXFSZ, &ignore, nullptr);
}

int received_signal() noexcept { return g_signal.load(); }

}  // namespace tessera::cli
