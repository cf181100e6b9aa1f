#pragma once
// Progress of a long study, reported by the engine through a callback and drawn (or not) by
// the caller: the library never prints it. Called on the thread that started the study, at
// most once per batch of work; a callback may request cancellation (core/cancellation.hpp),
// which the study honours before its next batch.
#include <cstdint>
#include <functional>

namespace tessera {

struct ProgressEvent {
  std::uint64_t done = 0;   // units finished so far in this phase
  std::uint64_t total = 0;  // units in this phase (0 = unknown)
  const char* phase = "";   // what the units are, plural: "configurations", "hardware points", "rows"
};

using ProgressCallback = std::function<void(const ProgressEvent&)>;

// Calls `cb` when it is set.
inline void report_progress(const ProgressCallback& cb, std::uint64_t done, std::uint64_t total,
                            const char* phase) {
  if (cb) cb(ProgressEvent{done, total, phase});
}

}  // namespace tessera
