#pragma once
// Which plugin call a worker process is in (docs/architecture.md "Isolated workers"), so that
// its parent can name the plugin, its version and path, the call and the configuration when the
// worker dies in it: by a signal (a segfault, abort()), by exit() from plugin code, or killed
// past its per-unit time limit. Off by default: the barrier (plugin_barrier.hpp) and the
// evaluator then pay one predictable branch per call. A worker turns it on before any plugin
// call. The trace is per thread (a worker running a whole study evaluates on several): a fatal
// signal a plugin raises, and its exit(), are handled on the thread that made the call.
#include <atomic>
#include <cstdint>
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
TESSERA_API extern bool g_count_calls;  // a whole study's worker: its watchdog counts the calls
TESSERA_API extern thread_local CallTrace g_call_trace;

// A thread's plugin calls, counted for a worker's watchdog (plugin_calls_moved).
struct CallCount {
  std::atomic<std::uint64_t> entered{0};  // calls entered so far
  std::atomic<std::uint32_t> depth{0};    // calls in progress (nested)
};
// This thread's counter (one of a fixed set; threads past it share the last).
TESSERA_API CallCount& this_thread_calls() noexcept;

// The call in progress for the length of a scope (the one before restored after it).
class CallMark {
 public:
  CallMark(const LoadedPlugin& plugin, const char* call) {
    if (g_trace_calls) [[unlikely]] {
      before_ = g_call_trace;
      g_call_trace.plugin = &plugin;
      g_call_trace.call = call;
      marked_ = true;
      if (g_count_calls) {
        count_ = &this_thread_calls();
        count_->entered.fetch_add(1, std::memory_order_relaxed);
        count_->depth.fetch_add(1, std::memory_order_relaxed);
      }
    }
  }
  ~CallMark() {
    if (marked_) [[unlikely]] {
      g_call_trace.plugin = before_.plugin;
      g_call_trace.call = before_.call;
      if (count_) count_->depth.fetch_sub(1, std::memory_order_relaxed);
    }
  }
  CallMark(const CallMark&) = delete;
  CallMark& operator=(const CallMark&) = delete;

 private:
  CallTrace before_;
  bool marked_ = false;
  CallCount* count_ = nullptr;  // set when counted
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

// A worker's watchdog, every fraction of a second: whether its plugin calls have moved since the
// last look - none in progress, or one entered since. False: every call in progress has stayed
// in it (a call that does not return, when it stays so). One watchdog per process.
TESSERA_API bool plugin_calls_moved() noexcept;
// Turns the counting on (before any plugin call: a whole study's worker).
TESSERA_API void count_plugin_calls() noexcept;

// The parent's reading of a `call` message: "in plugin latency/x 1.0.0 (/path/x.so), call
// time_step, configuration cp=1,tp=8,..." (the configuration formatted for `machine`), and how
// the worker left: "exit() called from plugin code", or "" for a signal.
struct TracedCall {
  std::string where;
  bool exit_called = false;
};
TESSERA_API TracedCall read_traced_call(std::string_view payload, const MachineSpec& machine);

}  // namespace tessera
