#include "progress_bar.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace tessera::cli {

namespace {
ProgressEvent g_last;
std::string g_last_phase;
bool g_any = false;
}  // namespace

ProgressBar::ProgressBar(bool enabled) : enabled_(enabled && ::isatty(2)) {}

ProgressBar::~ProgressBar() {
  if (shown_) std::fprintf(stderr, "\r\033[K");
}

ProgressCallback ProgressBar::callback() {
  return [this](const ProgressEvent& e) { update(e); };
}

void ProgressBar::update(const ProgressEvent& e) {
  g_any = true;
  g_last = e;
  if (g_last_phase != e.phase) g_last_phase = e.phase;
  if (!enabled_) return;
  const Clock::time_point now = Clock::now();
  if (phase_ != e.phase) {
    phase_ = e.phase;
    phase_start_ = now;
  }
  if (now - start_ < std::chrono::seconds(1)) return;
  if (now - last_draw_ < std::chrono::milliseconds(200) && e.done < e.total) return;
  last_draw_ = now;
  shown_ = true;
  const double s = std::chrono::duration<double>(now - phase_start_).count();
  const double rate = s > 0 ? static_cast<double>(e.done) / s : 0;
  if (e.total > 0) {
    const double f = std::min(1.0, static_cast<double>(e.done) / static_cast<double>(e.total));
    const int width = 30;
    const int n = static_cast<int>(f * width);
    const double eta = rate > 0 && e.done < e.total ? static_cast<double>(e.total - e.done) / rate : 0;
    std::fprintf(stderr, "\r\033[K[%.*s%*s] %llu/%llu %s  %.0f/s  ETA %.0f s", n,
                 "##############################", width - n, "", static_cast<unsigned long long>(e.done),
                 static_cast<unsigned long long>(e.total), e.phase, rate, eta);
  } else {
    std::fprintf(stderr, "\r\033[K%llu %s  %.0f/s", static_cast<unsigned long long>(e.done), e.phase, rate);
  }
  std::fflush(stderr);
}

std::string progress_summary() {
  if (!g_any) return "";
  std::string s = std::to_string(g_last.done);
  if (g_last.total > 0) s += " of " + std::to_string(g_last.total);
  return s + " " + g_last_phase;
}

}  // namespace tessera::cli
