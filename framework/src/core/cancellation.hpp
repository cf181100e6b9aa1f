#pragma once
// The cancellation token of a process: one flag that anything may set (a signal handler: it
// is a lock-free atomic, async-signal-safe) and that long studies poll between batches of
// configurations (one atomic load per batch). A study that sees it set throws Cancelled; the
// caller (the `tessera` executable, later the Python module) decides what that means.
#include <stdexcept>

#include "tessera/export.hpp"

namespace tessera {

// Thrown by a study that stopped because cancellation was requested. Not a tessera::Error, so
// that no `catch (const Error&)` turns it into an ordinary failure.
class TESSERA_API Cancelled : public std::runtime_error {
 public:
  Cancelled();
  ~Cancelled() override;
};

// Sets the flag. Async-signal-safe; idempotent.
TESSERA_API void request_cancellation() noexcept;
// Whether the flag is set.
TESSERA_API bool cancellation_requested() noexcept;
// Clears the flag (before a new study in the same process).
TESSERA_API void clear_cancellation() noexcept;
// Throws Cancelled when the flag is set, after calling the acknowledgement hook.
TESSERA_API void throw_if_cancelled();
// Called when a study acknowledges a cancellation (just before throw_if_cancelled throws): the
// executable's watchdog is disarmed there (framework/app/signals.cpp). Null: none.
TESSERA_API void set_cancellation_acknowledged(void (*hook)() noexcept);

}  // namespace tessera
