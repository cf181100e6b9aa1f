#include "progress_bar.hpp"

#include "core/workers/mpi_job.hpp"
#include "studies/plugin_isolation.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace tessera::cli {

namespace {
ProgressEvent g_last;
std::string g_last_phase;
bool g_any = false;

// COLUMNS, else stderr's terminal width, else 80.
std::size_t terminal_columns() {
  if (const char* c = std::getenv("COLUMNS")) {
    char* end = nullptr;
    const long w = std::strtol(c, &end, 10);
    if (end != c && *end == '\0' && w > 0 && w < 100000) return static_cast<std::size_t>(w);
  }
  winsize ws{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

std::string format(const char* fmt, auto... args) {
  char buf[256];
  const int n = std::snprintf(buf, sizeof buf, fmt, args...);
  return n <= 0 ? std::string()
                : std::string(buf, std::min<std::size_t>(static_cast<std::size_t>(n), sizeof buf - 1));
}

}  // namespace

ProgressBar::ProgressBar(bool enabled, std::size_t width)
    : enabled_(enabled && ::isatty(2) && !workers::in_mpi_job()), width_(width) {}

std::string progress_line(const ProgressEvent& e, double rate, double eta_s, std::size_t width) {
  const auto done = static_cast<unsigned long long>(e.done), total = static_cast<unsigned long long>(e.total);
  const std::size_t room = width == 0 ? std::string::npos : width - 1;
  std::string line;
  if (e.total == 0) {
    line = format("%llu %s", done, e.phase);
    const std::string tail = format("  %.0f/s", rate);
    if (line.size() + tail.size() <= room) line += tail;
  } else {
    const std::string counts = format("%llu/%llu %s", done, total, e.phase);
    const std::string tail = format("  %.0f/s  ETA %.0f s", rate, eta_s);
    const double f = std::min(1.0, static_cast<double>(e.done) / static_cast<double>(e.total));
    // The bar "[" marks "] ": 30 marks, fewer (down to 10) when the line would not fit.
    auto bar = [&](std::size_t marks) {
      const auto n = static_cast<std::size_t>(f * static_cast<double>(marks));
      return "[" + std::string(n, '#') + std::string(marks - n, ' ') + "] ";
    };
    std::size_t marks = 30;
    const std::size_t full = marks + 3 + counts.size() + tail.size();
    if (full > room) marks = full - room >= 20 ? 10 : 30 - (full - room);
    if (marks + 3 + counts.size() + tail.size() <= room)
      line = bar(marks) + counts + tail;
    else if (marks + 3 + counts.size() <= room)
      line = bar(marks) + counts;
    else
      line = counts;
  }
  if (line.size() > room) line.resize(room);
  return line;
}

ProgressBar::~ProgressBar() {
  if (shown_) std::fprintf(stderr, "\r\033[K");
}

ProgressCallback ProgressBar::callback() {
  return [this](const ProgressEvent& e) { update(e); };
}

void ProgressBar::update(const ProgressEvent& e) {
  studies::worker_progress(e.done, e.total, e.phase);  // a whole study's worker: to its parent
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
  const double eta = rate > 0 && e.done < e.total ? static_cast<double>(e.total - e.done) / rate : 0;
  const std::string line = progress_line(e, rate, eta, width_ ? width_ : terminal_columns());
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
}

void note_progress(std::uint64_t done, std::uint64_t total, const std::string& phase) {
  g_any = true;
  g_last.done = done;
  g_last.total = total;
  g_last_phase = phase;
  g_last.phase = g_last_phase.c_str();
}

std::string progress_summary() {
  if (!g_any) return "";
  std::string s = std::to_string(g_last.done);
  if (g_last.total > 0) s += " of " + std::to_string(g_last.total);
  return s + " " + g_last_phase;
}

}  // namespace tessera::cli
