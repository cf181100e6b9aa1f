#include "analysis/serving/serve_record_bytes.hpp"

#include <mutex>
#include <set>
#include <string>
#include <type_traits>

namespace tessera {

namespace {

static_assert(std::is_trivially_copyable_v<ServedPoint> && std::is_trivially_copyable_v<ServingMetrics> &&
                  std::is_trivially_copyable_v<ServePoint> && std::is_trivially_copyable_v<ServeCounts>,
              "a serving record's parts travel as bytes");

// A reason text read back, kept for the process's lifetime (ServingMetrics::infeasible points at
// static text): one copy per distinct text.
const char* kept_text(std::string text) {
  static std::mutex mutex;
  static std::set<std::string>* kept = new std::set<std::string>;  // never freed: pointers outlive statics
  std::lock_guard lock(mutex);
  return kept->insert(std::move(text)).first->c_str();
}

}  // namespace

void write_serve_record(ByteWriter& w, const ServeRecord& r) {
  w.put(static_cast<const ServedPoint&>(r));
  ServingMetrics m = r.metrics;
  m.infeasible = nullptr;
  w.put(m);
  w.put<std::uint8_t>(r.metrics.infeasible != nullptr ? 1 : 0);
  if (r.metrics.infeasible != nullptr) w.put_text(r.metrics.infeasible);
  w.put(r.verdict);
  w.put(r.runnable);
  w.put(r.slo_miss);
  w.put(r.slo_value);
  w.put(r.slo_limit);
  w.put(r.slo_ratio);
  w.put(r.invalid_reason);
  w.put(r.tokens_per_s);
  w.put(r.axis_values);
  w.put(r.score);
  w.put(r.tie_values);
  w.put<std::uint64_t>(r.axes);
  w.put(r.weights_bytes);
  w.put(r.kv_bytes);
  w.put(r.used_bytes);
  w.put(r.budget_bytes);
  w.put_text(r.reason);
}

ServeRecord read_serve_record(ByteReader& in) {
  ServeRecord r;
  static_cast<ServedPoint&>(r) = in.get<ServedPoint>();
  r.metrics = in.get<ServingMetrics>();
  if (in.get<std::uint8_t>() != 0) r.metrics.infeasible = kept_text(in.get_text());
  r.verdict = in.get<ServingVerdict>();
  r.runnable = in.get<bool>();
  r.slo_miss = in.get<SloMetric>();
  r.slo_value = in.get<double>();
  r.slo_limit = in.get<double>();
  r.slo_ratio = in.get<double>();
  r.invalid_reason = in.get<InvalidReason>();
  r.tokens_per_s = in.get<double>();
  r.axis_values = in.get<decltype(r.axis_values)>();
  r.score = in.get<double>();
  r.tie_values = in.get<decltype(r.tie_values)>();
  r.axes = static_cast<std::size_t>(in.get<std::uint64_t>());
  if (r.axes > r.axis_values.size()) in.fail();
  r.weights_bytes = in.get<double>();
  r.kv_bytes = in.get<double>();
  r.used_bytes = in.get<double>();
  r.budget_bytes = in.get<double>();
  r.reason = in.get_text();
  return r;
}

void write_serve_records(ByteWriter& w, const std::vector<ServeRecord>& records) {
  w.put<std::uint64_t>(records.size());
  for (const ServeRecord& r : records) write_serve_record(w, r);
}

std::vector<ServeRecord> read_serve_records(ByteReader& in) {
  const auto n = in.get<std::uint64_t>();
  std::vector<ServeRecord> out;
  for (std::uint64_t i = 0; i < n; ++i) out.push_back(read_serve_record(in));
  return out;
}

}  // namespace tessera
