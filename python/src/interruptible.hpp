#pragma once
// A long call into the engine from Python: run with the GIL released; on the calling thread,
// between batches of configurations (the engine's progress points), poll() takes the GIL back
// briefly, calls PyErr_CheckSignals() (Ctrl-C: Python's handler raises KeyboardInterrupt) and
// the progress callback. A pending Python exception sets the engine's cancellation token
// (core/cancellation.hpp: the study stops before its next batch and throws Cancelled) and is
// raised once the engine has returned, the GIL held again. No signal handler of the library.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace tessera::python {

class Interruptible {
 public:
  // `progress`: None, or a callable progress(done, total, unit) (unit: "configurations", ...).
  explicit Interruptible(pybind11::object progress);
  Interruptible(const Interruptible&) = delete;
  Interruptible& operator=(const Interruptible&) = delete;
  ~Interruptible();

  // Runs `body` without the GIL; rethrows Python's pending exception (KeyboardInterrupt, the
  // callback's) in place of the engine's Cancelled. Call with the GIL held.
  void run(const std::function<void()>& body);
  // From inside body, on the calling thread (GIL released): signals and progress.
  void poll(std::uint64_t done, std::uint64_t total, const char* unit);
  // Signals only (no progress): while the engine waits for its worker processes.
  void check_signals();
  // Signals, from code that may run inside a run() on this thread (the GIL released: that run's
  // check_signals) or not (the GIL held: a pending KeyboardInterrupt is thrown at once).
  static void check_signals_here();
  // The same, at most every `every` units of work (cheap when not due).
  void poll_every(std::uint64_t done, std::uint64_t total, const char* unit, std::uint64_t every);

 private:
  pybind11::object progress_;
  std::optional<pybind11::error_already_set> pending_;
  std::uint64_t last_ = 0;
};

}  // namespace tessera::python
