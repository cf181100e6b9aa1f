#include "core/cancellation.hpp"

#include <atomic>

namespace tessera {

namespace {
std::atomic<bool> g_cancelled{false};
std::atomic<void (*)() noexcept> g_acknowledged{nullptr};
static_assert(std::atomic<bool>::is_always_lock_free, "the cancellation flag must be async-signal-safe");
}  // namespace

Cancelled::Cancelled() : std::runtime_error("cancelled") {}
Cancelled::~Cancelled() = default;

void request_cancellation() noexcept { g_cancelled.store(true, std::memory_order_relaxed); }
bool cancellation_requested() noexcept { return g_cancelled.load(std::memory_order_relaxed); }
void clear_cancellation() noexcept { g_cancelled.store(false, std::memory_order_relaxed); }
void throw_if_cancelled() {
  if (!cancellation_requested()) return;
  if (auto* hook = g_acknowledged.load()) hook();
  throw Cancelled();
}
void set_cancellation_acknowledged(void (*hook)() noexcept) { g_acknowledged.store(hook); }

}  // namespace tessera
