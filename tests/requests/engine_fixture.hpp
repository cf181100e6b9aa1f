#pragma once
// What the engine tests share (tests/requests): a stream replaying given requests, and roomy
// engine limits whose timelines are easy to follow by hand with fake_timer.hpp's timers.
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "analysis/requests/request_sim.hpp"
#include "fake_timer.hpp"

namespace tessera::test {

// The requests `rows` (time, input, output, prefix id) as a trace stream, all measured.
inline requests::StreamSpec trace_of(std::vector<requests::TraceRow> rows) {
  requests::StreamSpec s;
  s.arrival.kind = requests::ArrivalKind::trace;
  s.requests = rows.size();
  s.trace = std::make_shared<const std::vector<requests::TraceRow>>(std::move(rows));
  return s;
}

// Eight sequences, a budget of 1000 tokens (chunked), 1000 blocks of 16 tokens, exact statistics.
inline requests::SimOptions roomy() {
  requests::SimOptions o;
  o.limits.max_sequences = 8;
  o.limits.token_budget = 1000;
  o.limits.kv_blocks = 1000;
  o.limits.block_tokens = 16;
  o.exact = true;
  return o;
}

// Every request's outcome of `s` simulated under `o` on a FakeTimer, by id; the result into
// `result` when given.
inline std::map<std::uint64_t, requests::RequestOutcome> outcomes_by_id(
    const requests::StreamSpec& s, requests::SimOptions o, requests::SimResult* result = nullptr) {
  std::map<std::uint64_t, requests::RequestOutcome> out;
  o.on_request = [&](const requests::RequestOutcome& r) { out[r.request.id] = r; };
  FakeTimer timer;
  const requests::SimResult res = requests::simulate(s, timer, o);
  if (result) *result = res;
  return out;
}

}  // namespace tessera::test
