#pragma once
// Which plugin call a worker process is in (docs/architecture.md "Isolated workers"), so that
// its parent can name the plugin, its version and path, the call and the configuration when the
// worker dies in it: by a signal (a segfault, abort()), by exit() from plugin code, or killed
// past its per-unit time limit. Off by default: the barrier (plugin_barrier.hpp) and the
// evaluator then pay one predictable branch per call. A worker turns it on before any plugin
// call. The trace is per thread (a worker running a whole study evaluates on several): a fatal
// signal a plugin raises, and its exit(), are handled on the thread that made the call.
#include <string>
#include <string_view>

#include "host/plugin_registry.hpp"
#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"

namespace tessera {

struct CallTrace {
  const LoadedPlugin* plugin = nullptr;    // the plugin being called (null: none)
  const char* call = nullptr;              // "time_step"
  const ParallelConfig* config = nullptr;  // the configuration being evaluated (null: none yet)
};

TESSERA_API extern bool g_trace_calls;
TESSERA_API extern thread_local CallTrace g_call_trace;

// The call in progress for the length of a scope (the one before restored after it).
class CallMark {
 public:
  CallMark(const LoadedPlugin& plugin, const char* call) {
    if (g_trace_calls) [[unlikely]] {
      before_ = g_call_trace;
      g_call_trace.plugin = &plugin;
      g_call_trace.call = call;
      marked_ = true;
    }
  }
  ~CallMark() {
    if (marked_) [[unlikely]] {
      g_call_trace.plugin = before_.plugin;
      g_call_trace.call = before_.call;
    }
  }
  CallMark(const CallMark&) = delete;
  CallMark& operator=(const CallMark&) = delete;

 private:
  CallTrace before_;
  bool marked_ = false;
};

// The configuration the evaluator is on (kept until the next).
inline void mark_config(const ParallelConfig& c) {
  if (g_trace_calls) [[unlikely]]
    g_call_trace.config = &c;
}

// Turns tracing on and installs, in this (worker) process, handlers for the fatal signals
// (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS) and an exit() hook that send
// `report_fd` a unit-protocol `call` message naming the plugin call in progress, if any, before
// the process dies as it would have. Allocation-free in the handlers.
TESSERA_API void trace_plugin_calls(int report_fd);

// In a worker, inside a plugin call: sends the parent the `call` message of an exit() (as the
// exit hook would) and returns true - the caller then ends the process with _exit. False
// anywhere else. Allocation-free (app/plugin_exit.cpp calls it from exit()).
TESSERA_API bool exit_called_in_plugin_call() noexcept;

// The parent's reading of a `call` message: "in plugin latency/x 1.0.0 (/path/x.so), call
// time_step, configuration cp=1,tp=8,..." (the configuration formatted for `machine`), and how
// the worker left: "exit() called from plugin code", or "" for a signal.
struct TracedCall {
  std::string where;
  bool exit_called = false;
};
TESSERA_API TracedCall read_traced_call(std::string_view payload, const MachineSpec& machine);

}  // namespace tessera
