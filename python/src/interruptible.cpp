#include "interruptible.hpp"

#include "core/cancellation.hpp"

namespace py = pybind11;

namespace tessera::python {

namespace {
thread_local Interruptible* g_running = nullptr;  // the run() in progress on this thread
}  // namespace

Interruptible::Interruptible(py::object progress) : progress_(std::move(progress)) {}

Interruptible::~Interruptible() = default;

void Interruptible::run(const std::function<void()>& body) {
  clear_cancellation();
  bool cancelled = false;
  {
    py::gil_scoped_release release;
    Interruptible* const outer = g_running;
    g_running = this;
    try {
      body();
    } catch (const Cancelled&) {
      cancelled = true;
    } catch (...) {
      g_running = outer;
      throw;
    }
    g_running = outer;
  }
  clear_cancellation();
  if (pending_) {
    py::error_already_set e = std::move(*pending_);
    pending_.reset();
    throw e;
  }
  if (cancelled) throw Cancelled();
}

void Interruptible::poll(std::uint64_t done, std::uint64_t total, const char* unit) {
  last_ = done;
  if (pending_) return;
  py::gil_scoped_acquire acquire;
  try {
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    if (!progress_.is_none()) progress_(done, total, unit);
  } catch (py::error_already_set& e) {
    pending_.emplace(std::move(e));
    request_cancellation();
  }
}

void Interruptible::check_signals() {
  if (pending_) return;
  py::gil_scoped_acquire acquire;
  if (PyErr_CheckSignals() != 0) {
    pending_.emplace(py::error_already_set());
    request_cancellation();
  }
}

void Interruptible::check_signals_here() {
  if (g_running) {
    g_running->check_signals();
    return;
  }
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

void Interruptible::poll_every(std::uint64_t done, std::uint64_t total, const char* unit,
                               std::uint64_t every) {
  if (done - last_ >= every || done == total) poll(done, total, unit);
}

}  // namespace tessera::python
