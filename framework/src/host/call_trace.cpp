#include "host/call_trace.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "core/workers/unit_protocol.hpp"
#include "tessera/plugin/descriptor.hpp"

namespace tessera {

bool g_trace_calls = false;
bool g_count_calls = false;
thread_local CallTrace g_call_trace;

namespace {

int g_report_fd = -1;
constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};

// A message built in place, without allocation (signal handlers).
struct Line {
  char text[4096];
  std::size_t size = 0;
  void add(const char* s) {
    for (; s && *s && size < sizeof text; ++s) text[size++] = *s;
  }
  void add_raw(const void* p, std::size_t n) {
    if (size + n > sizeof text) return;
    std::memcpy(text + size, p, n);
    size += n;
  }
};

// The `call` payload: 'X' (exit) or 'S' (signal), the plugin's words, NUL, then the raw
// configuration when one is being evaluated.
void send_trace(char how) {
  const CallTrace t = g_call_trace;
  if (g_report_fd < 0 || !t.plugin) return;
  Line line;
  const char head[2] = {how, '\0'};
  line.add_raw(head, 2);
  const PluginDescriptor* d = t.plugin->descriptor;
  line.add("plugin ");
  line.add(d ? plugin_kind_name(d->kind) : "?");
  line.add("/");
  line.add(d ? d->name : "?");
  if (d && d->version) {
    line.add(" ");
    line.add(d->version);
  }
  line.add(" (");
  line.add(t.plugin->absolute_path.c_str());
  line.add("), call ");
  line.add(t.call ? t.call : "?");
  const char nul = '\0';
  line.add_raw(&nul, 1);
  if (t.config) line.add_raw(t.config, sizeof *t.config);
  // Waits briefly for another thread's message to end (a whole study's progress), never longer.
  workers::send_message_exclusive(g_report_fd, workers::MessageType::call, 0,
                                  std::string_view(line.text, line.size), 0.2);
}

// The first thread with a fatal signal reports and ends the process; another one that gets
// one meanwhile (threads of a whole study failing at once) waits for that end, so that the
// report is not cut short by its default action.
std::atomic<bool> g_dying{false};

void on_fatal_signal(int sig) {
  if (g_dying.exchange(true))
    for (;;) ::pause();
  send_trace('S');
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void on_exit_called() { send_trace('X'); }

std::array<CallCount, 512> g_call_counts;  // this_thread_calls' slots
std::atomic<std::size_t> g_call_counts_used{0};

}  // namespace

CallCount& this_thread_calls() noexcept {
  thread_local CallCount* mine = nullptr;
  if (!mine) {
    const std::size_t i = g_call_counts_used.fetch_add(1, std::memory_order_relaxed);
    mine = &g_call_counts[std::min(i, g_call_counts.size() - 1)];
  }
  return *mine;
}

void count_plugin_calls() noexcept { g_count_calls = true; }

bool plugin_calls_moved() noexcept {
  static std::uint64_t seen = 0;
  std::uint64_t entered = 0;
  bool in_call = false;
  const std::size_t used = std::min(g_call_counts_used.load(std::memory_order_relaxed), g_call_counts.size());
  for (std::size_t i = 0; i < used; ++i) {
    entered += g_call_counts[i].entered.load(std::memory_order_relaxed);
    in_call = in_call || g_call_counts[i].depth.load(std::memory_order_relaxed) > 0;
  }
  const bool moved = !in_call || entered != seen;
  seen = entered;
  return moved;
}

bool exit_called_in_plugin_call() noexcept {
  if (g_report_fd < 0 || !g_trace_calls || !g_call_trace.plugin) return false;
  send_trace('X');
  return true;
}

void trace_plugin_calls(int report_fd) {
  g_report_fd = report_fd;
  g_trace_calls = true;
  struct sigaction sa {};
  sa.sa_handler = &on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_NODEFER;
  for (const int sig : kFatalSignals) ::sigaction(sig, &sa, nullptr);
  std::atexit(&on_exit_called);
}

TracedCall read_traced_call(std::string_view payload, const MachineSpec& machine) {
  TracedCall r;
  if (payload.size() < 2) return r;
  r.exit_called = payload[0] == 'X';
  const std::string_view rest = payload.substr(2);
  const std::size_t end = rest.find('\0');
  r.where = "in " + std::string(rest.substr(0, end));
  if (end != std::string_view::npos && rest.size() - end - 1 == sizeof(ParallelConfig)) {
    ParallelConfig c;
    std::memcpy(&c, rest.data() + end + 1, sizeof c);
    r.where += ", configuration " + format_config(c, machine);
  }
  return r;
}

}  // namespace tessera
