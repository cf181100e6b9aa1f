#include "work_report.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ostream>

#include "studies/scenario_options.hpp"  // loader::kCommandLine
#include "tessera/limits.hpp"

namespace tessera::cli {
namespace {

// A non-negative decimal integer, all of `text`; nullopt otherwise (sign, junk, overflow).
std::optional<std::uint64_t> unsigned_value(const std::string& text) {
  std::uint64_t v = 0;
  const char* first = text.data();
  const char* last = first + text.size();
  if (first == last || *first == '+' || *first == '-') return std::nullopt;
  auto [p, ec] = std::from_chars(first, last, v);
  if (ec != std::errc() || p != last) return std::nullopt;
  return v;
}

std::string seconds_text(double s) {
  char buf[64];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%.2g s", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%.1f min", s / 60);
  else if (s < 86400 * 2)
    std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
  else
    std::snprintf(buf, sizeof buf, "%.3g days", s / 86400);
  return buf;
}

std::string bytes_text(std::uint64_t b) {
  char buf[64];
  const double x = static_cast<double>(b);
  if (x < 1e3)
    std::snprintf(buf, sizeof buf, "%.0f B", x);
  else if (x < 1e6)
    std::snprintf(buf, sizeof buf, "%.0f kB", x / 1e3);
  else if (x < 1e9)
    std::snprintf(buf, sizeof buf, "%.0f MB", x / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.3g GB", x / 1e9);
  return buf;
}

[[noreturn]] void command_line_error(std::string message) {
  throw InputErrors({Diagnostic{SourceLocation{loader::kCommandLine, 0, 0}, std::move(message)}});
}

}  // namespace

unsigned parse_threads(const std::string& text) {
  if (text.empty()) return 0;
  const auto v = unsigned_value(text);
  const std::uint64_t limit = current_limits().threads;
  if (!v || *v == 0)
    command_line_error("--threads: expected a positive integer (at most " + std::to_string(limit) +
                       "), found '" + text + "'");
  if (*v > limit) command_line_error("--threads: " + text + " threads " + limit_exceeded("threads"));
  return static_cast<unsigned>(*v);
}

std::size_t parse_top(const std::string& text, std::int64_t scenario_top) {
  if (text.empty()) return static_cast<std::size_t>(std::max<std::int64_t>(0, scenario_top));
  const auto v = unsigned_value(text);
  if (!v) command_line_error("--top: expected a non-negative integer, found '" + text + "'");
  if (*v > current_limits().report_top)
    command_line_error("--top: " + text + " rows " + limit_exceeded("report.top"));
  return static_cast<std::size_t>(*v);
}

std::size_t parse_simulate_top(const std::string& text) {
  const auto v = unsigned_value(text);
  if (!v)
    command_line_error("--simulate-top: expected a non-negative integer (finalists simulated), found '" +
                       text + "'");
  if (*v > current_limits().report_top)
    command_line_error("--simulate-top: " + text + " finalists " + limit_exceeded("report.top"));
  return static_cast<std::size_t>(*v);
}

std::int64_t parse_max_pes(const std::string& text) {
  if (text.empty()) return -1;
  const auto v = unsigned_value(text);
  if (!v || *v > static_cast<std::uint64_t>(INT64_MAX))
    command_line_error(
        "--max-pes: expected a non-negative integer (PEs of one configuration, all replicas; "
        "0 = no budget), found '" +
        text + "'");
  return static_cast<std::int64_t>(*v);
}

WorkSize plan_study(std::ostream& err, const Scenario& scenario, const PluginRegistry& registry,
                    const std::string& study, const StudyShape& shape, unsigned threads, bool quiet) {
  const studies::WorkPlan plan = studies::plan_work(scenario, registry, study, shape, threads);
  if (quiet) return plan.size;
  err << "tessera: " << study << ": " << plan.description;
  if (plan.size.evaluations > 100'000) {
    const unsigned t = plan.threads;
    err << "; about " << seconds_text(plan.seconds) << " on " << t << (t == 1 ? " thread" : " threads")
        << ", grid index at most " << bytes_text(plan.index_bytes);
  }
  err << '\n';
  return plan.size;
}

}  // namespace tessera::cli
