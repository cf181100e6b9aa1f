#pragma once
// Draws the progress a study reports (core/progress.hpp) on stderr: done/total, rate and ETA,
// at most a few times a second, only when stderr is a terminal and the run has taken more than
// a second; silent in pipes and with -q. The line fits the terminal: --width N when given, else
// COLUMNS, else the terminal's own width (TIOCGWINSZ of stderr), else 80 (progress_line).
// Remembers the last event of the process for the "interrupted: ..." line.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/progress.hpp"

namespace tessera::cli {

class ProgressBar {
 public:
  // `width`: the columns to fit (--width N); 0 = the terminal's (COLUMNS, TIOCGWINSZ, 80).
  explicit ProgressBar(bool enabled, std::size_t width = 0);
  ~ProgressBar();  // clears the line
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // A callback drawing on this bar (valid while the bar lives).
  ProgressCallback callback();
  void update(const ProgressEvent& e);

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  std::size_t width_;
  bool shown_ = false;
  std::string phase_;
  Clock::time_point phase_start_ = Clock::now(), start_ = Clock::now(), last_draw_{};
};

// The progress line of `e` ("[####      ] 123/7331 configurations  950/s  ETA 7 s"; without a
// total "123 configurations  950/s") in at most width - 1 columns (the cursor stays off the
// last one, so the line never wraps): the bar shrinks to 10 marks, then the rate and ETA go,
// then the bar, then the end of the line is cut. width 0: the full line.
std::string progress_line(const ProgressEvent& e, double rate, double eta_s, std::size_t width);

// "123456 of 7331000 configurations" from the last progress event ("" when none).
std::string progress_summary();
// Progress reported elsewhere (a worker that runs the whole study), for progress_summary().
void note_progress(std::uint64_t done, std::uint64_t total, const std::string& phase);

}  // namespace tessera::cli
