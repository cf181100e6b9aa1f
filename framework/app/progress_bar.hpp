#pragma once
// Draws the progress a study reports (core/progress.hpp) on stderr: done/total, rate and ETA,
// at most a few times a second, only when stderr is a terminal and the run has taken more than
// a second; silent in pipes and with -q. Remembers the last event of the process for the
// "interrupted: ..." line.
#include <chrono>
#include <string>

#include "core/progress.hpp"

namespace tessera::cli {

class ProgressBar {
 public:
  explicit ProgressBar(bool enabled);
  ~ProgressBar();  // clears the line
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // A callback drawing on this bar (valid while the bar lives).
  ProgressCallback callback();
  void update(const ProgressEvent& e);

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  bool shown_ = false;
  std::string phase_;
  Clock::time_point phase_start_ = Clock::now(), start_ = Clock::now(), last_draw_{};
};

// "123456 of 7331000 configurations" from the last progress event ("" when none).
std::string progress_summary();

}  // namespace tessera::cli
