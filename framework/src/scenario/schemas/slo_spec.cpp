#include "scenario/schemas/slo_spec.hpp"

#include <algorithm>
#include <charconv>

namespace tessera {

namespace {

// The shortest text that reads back as `p` (99, 99.9).
std::string shortest(double p) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, p);
  return std::string(buf, r.ptr);
}

}  // namespace

const char* slo_latency_key(SloLatency m) {
  switch (m) {
    case SloLatency::ttft:
      return "ttft";
    case SloLatency::tpot:
      return "tpot";
    case SloLatency::e2e:
      return "e2e";
  }
  return "?";
}

const char* slo_latency_label(SloLatency m) {
  switch (m) {
    case SloLatency::ttft:
      return "TTFT";
    case SloLatency::tpot:
      return "TPOT";
    case SloLatency::e2e:
      return "E2E";
  }
  return "?";
}

std::string slo_statistic_key(const SloTarget& t) {
  return t.is_mean() ? "mean" : "p" + shortest(t.percentile);
}

std::string slo_statistic_label(const SloTarget& t) {
  return t.is_mean() ? "mean" : "P" + shortest(t.percentile);
}

std::string slo_target_label(const SloTarget& t) {
  return std::string(slo_latency_label(t.metric)) + " " + slo_statistic_label(t);
}

bool ServingSlo::has_percentiles() const {
  return std::any_of(targets.begin(), targets.end(), [](const SloTarget& t) { return !t.is_mean(); });
}

void ServingSlo::add(const SloTarget& t) {
  targets.push_back(t);
  double& bound = t.metric == SloLatency::ttft ? ttft_s : t.metric == SloLatency::tpot ? tpot_s : e2e_s;
  bound = std::min(bound, t.limit_s);
}

}  // namespace tessera
