#pragma once
// SIGINT, SIGTERM and SIGHUP for the `tessera` executable: the first sets the library's
// cancellation token (the running study stops before its next batch, temporary outputs are
// removed, the command exits 130 / 143 / 129 saying what was lost); a second one removes the
// temporary outputs and ends the process at once with the same status. SIGXFSZ is ignored, so
// that a file-size limit makes a write fail (exit 1) instead of killing the process.
namespace tessera::cli {

void install_signal_handlers();
// The signal that requested cancellation (SIGINT, SIGTERM, SIGHUP), 0 when none did.
int received_signal() noexcept;

}  // namespace tessera::cli
