#pragma once
// The results' own descriptor (docs/plugin-guide.md §9 "What the host guarantees"): at start the
// executable keeps the descriptor standard output had (`result_fd()`), and std::cout writes
// there; descriptor 1 becomes a pipe whose lines a thread forwards to stderr marked
// "tessera: plugin stdout: ". So a plugin's printf (or std::cout from another runtime copy)
// never lands in `--json -` or the text. Terminal checks (width, plot) look at result_fd().
namespace tessera::cli {

// At the start of main, before any output. Does nothing when standard output is closed.
void separate_result_stream();
// The descriptor the results go to (1 when not separated).
int result_fd();
// The results go nowhere (an MPI rank but rank 0: rank 0 writes them).
void discard_results();
// Before main returns: flushes std::cout and the C library's stdout, ends the pipe and waits for
// the forwarder to pass on what plugins wrote.
void finish_result_stream();

}  // namespace tessera::cli
