// The time and bandwidth units of a measurement row's value (row_units.hpp).
#include "analysis/measurements/row_units.hpp"

#include <algorithm>
#include <cctype>

#include "core/text/input_text.hpp"

namespace tessera::accuracy {

std::optional<double> time_unit_scale(const std::string& unit) {
  const std::string u = lower(trim(unit));
  if (u == "s" || u == "sec" || u == "seconds") return 1.0;
  if (u == "ms" || u == "msec" || u == "milliseconds") return 1e3;
  // micro sign (U+00B5) and Greek small mu (U+03BC): sources write either
  if (u == "us" || u == "\xc2\xb5s" || u == "\xce\xbcs" || u == "usec" || u == "microseconds") return 1e6;
  if (u == "ns" || u == "nanoseconds") return 1e9;
  return std::nullopt;
}

std::optional<double> bandwidth_unit_scale(const std::string& unit) {
  const std::string u = lower(trim(unit));
  if (u == "b/s") return 1.0;
  if (u == "mb/s") return 1e-6;
  if (u == "gb/s") return 1e-9;
  if (u == "tb/s") return 1e-12;
  return std::nullopt;
}

namespace {

// "tokens/s/user" -> "tok/s/user", "tok/sec" -> "tok/s", "tokens per second" -> "tok/s"; blanks
// around `/` dropped.
std::string rate_unit(const std::string& unit) {
  std::string u;
  for (const char c : lower(trim(unit)))
    if (c != ' ') u += c;
  for (const char* tok : {"tokens", "token"})
    if (u.rfind(tok, 0) == 0) u = "tok" + u.substr(std::string(tok).size());
  for (const char* sec : {"/sec", "persecond", "/second"}) {
    const std::size_t at = u.find(sec);
    if (at != std::string::npos) u = u.substr(0, at) + "/s" + u.substr(at + std::string(sec).size());
  }
  for (const char* per : {"per", "/per"}) {
    const std::size_t at = u.find(std::string("/s") + per);
    if (at != std::string::npos) u = u.substr(0, at) + "/s/" + u.substr(at + 2 + std::string(per).size());
  }
  if (u == "requests/s" || u == "request/s" || u == "reqs/s") return "req/s";
  return u;
}

}  // namespace

MetricUnit canonical_metric_unit(const std::string& metric, const std::string& unit) {
  std::string m = trim(metric);
  const std::string ml = lower(m);
  if (ml == "itl" || ml == "mean_itl" || ml == "itl_mean" || ml == "inter_token_latency") m = "itl";
  if (ml == "tpot" || ml == "mean_tpot" || ml == "tpot_mean" || ml == "time_per_output_token") m = "tpot";
  if (ml == "ttft" || ml == "mean_ttft" || ml == "ttft_mean" || ml == "time_to_first_token") m = "ttft";
  if (ml == "output_throughput" || ml == "output_token_throughput") m = "throughput_out";
  std::string u = trim(unit);
  const std::string r = rate_unit(u);
  std::string plain;  // the unit as written, lower case, without blanks
  for (const char c : lower(u))
    if (c != ' ') plain += c;
  const bool rate = r.rfind("tok/s", 0) == 0 || r == "req/s";
  if (rate && r != plain) u = r;  // a synonym; the files' own spellings ("tok/s/GPU") stay as written
  if (r == "tok/s/user") {
    if (m == "throughput_out" || m == "decode_tok_s_per_user" || m == "throughput_out_per_user") {
      m = "decode_tok_s_per_user";
      u = "tok/s";
    }
  } else if (r == "tok/s/gpu") {
    if (m == "throughput_out") m = "throughput_out_per_gpu";
    if (m == "throughput_in") m = "throughput_in_per_gpu";
  }
  const std::string ul = lower(trim(unit));
  if ((m == "tpot" || m == "itl" || m == "tpot_p50" || m == "ms_per_token_amortized") &&
      (ul == "ms/token" || ul == "ms/tok" || ul == "ms per token"))
    u = "ms";
  return {m, u};
}

MetricStatistic split_statistic(const std::string& metric) {
  for (const char* base : {"ttft", "tpot", "itl", "e2e_latency"}) {
    const std::string b = base;
    if (metric.size() <= b.size() + 1 || metric.compare(0, b.size() + 1, b + "_") != 0) continue;
    const std::string suffix = metric.substr(b.size() + 1);
    if (suffix == "mean") return {b, "mean"};
    if (suffix == "median") return {b, "p50"};
    if (suffix.size() >= 2 && suffix[0] == 'p' && std::all_of(suffix.begin() + 1, suffix.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c)) != 0;
        }))
      return {b, suffix};
  }
  return {metric, "mean"};
}

}  // namespace tessera::accuracy
