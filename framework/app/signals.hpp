#pragma once
// SIGINT and SIGTERM for the `tessera` executable: the first sets the library's cancellation
// token (the running study stops before its next batch, temporary outputs are removed, the
// command exits 130 / 143 saying what was lost); a second one removes the temporary outputs
// and ends the process at once with the same status.
namespace tessera::cli {

void install_signal_handlers();
// The signal that requested cancellation (SIGINT, SIGTERM), 0 when none did.
int received_signal() noexcept;

}  // namespace tessera::cli
