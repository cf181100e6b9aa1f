#pragma once

namespace tessera::cli {
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;         // failed while running (a plugin threw, I/O failed)
inline constexpr int kExitBadInput = 2;       // bad input: a scenario, a flag, a value
inline constexpr int kExitInterrupted = 130;  // SIGINT: 128 + 2
inline constexpr int kExitTerminated = 143;   // SIGTERM: 128 + 15
inline constexpr int kExitHangup = 129;       // SIGHUP: 128 + 1
}  // namespace tessera::cli
