#pragma once
// `serving.requests`: the request stream a serving simulation offers (docs/physics.md §12.5,
// docs/scenario-format.md): arrivals, prompt and output lengths, shared prefixes, how many, the
// warm-up, the seed and the router across replicas. Read by scenario/schemas/requests_schema.cpp (a
// trace file by scenario/trace_file.cpp); drawn by analysis/requests/request_stream.hpp.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tessera/error.hpp"

namespace tessera::requests {

enum class ArrivalKind { poisson, gamma, constant, concurrency, trace };

struct ArrivalSpec {
  ArrivalKind kind = ArrivalKind::poisson;
  double rate_per_s = 1;         // poisson, gamma, constant: requests per second
  double cv = 1;                 // gamma: the coefficient of variation of the gaps
  std::int64_t concurrency = 1;  // concurrency: clients
  // trace: its timestamps divided by this (a capacity search's load: the trace replayed faster
  // or slower, analysis/capacity/capacity_search.hpp); not a scenario key
  double time_scale = 1;
};

enum class LengthKind { fixed, uniform, lognormal, table };

struct LengthSpec {
  LengthKind kind = LengthKind::fixed;
  std::int64_t value = 1;                              // fixed
  std::int64_t min = 1, max = 1;                       // uniform; lognormal's clamp (max 0: none)
  double median = 1, sigma = 0;                        // lognormal
  std::vector<std::pair<std::int64_t, double>> table;  // table: (tokens, weight > 0)
};

// Shared prefixes: each request starts with the prefix of one of `groups` groups (drawn
// uniformly), `tokens` long, counted in its input. groups = 0: none.
struct PrefixSpec {
  std::int64_t groups = 0;
  std::int64_t tokens = 0;
};

// Conversations: `turns` requests each, a later one sent `think_s` (mean, exponential) after the
// one before finished, its prompt the history (the turn before's prompt and output) and a new
// message of `message` tokens (not given: drawn as the first prompt is). turns 1: none (every
// request on its own).
struct ConversationSpec {
  std::int64_t turns = 1;
  double think_s = 0;
  bool message_given = false;
  LengthSpec message;
};

struct TraceRow {
  double time_s = 0;
  std::int64_t input = 0, output = 0;
  std::int64_t prefix_id = -1;
};

struct StreamSpec {
  ArrivalSpec arrival;
  LengthSpec input, output;
  PrefixSpec prefix;
  ConversationSpec conversation;
  // priority classes with their weights (class, weight > 0), drawn per request from their own
  // stream of the seed; empty: every request class 0
  std::vector<std::pair<std::int64_t, double>> priorities;
  std::uint64_t requests = 1000;  // how many are sent (a trace: at most its rows)
  std::uint64_t warmup = 0;       // the first this many are simulated, not measured
  std::uint64_t seed = 1;
  // trace: its rows, sorted by time (shared: a scenario is copied, its trace is not)
  std::shared_ptr<const std::vector<TraceRow>> trace;
};

// round_robin: the i-th request to replica i mod R. least_outstanding: to the replica with the
// fewest requests waiting or running (the lowest index among equals).
enum class Router { round_robin, least_outstanding };

// What an engine does when its KV blocks run out (docs/physics.md §12.5 "Preemption"):
// recompute (vLLM V1, SGLang's retract), swap to host memory (vLLM V0's PreemptionMode.SWAP),
// no_evict (TensorRT-LLM's GUARANTEED_NO_EVICT admission: nothing is ever preempted).
enum class Preemption : std::uint8_t { recompute, swap, no_evict };

// The columns a trace file is read by (scenario/trace_file.hpp).
enum class TraceFormat { tessera, azure, burstgpt, mooncake };

}  // namespace tessera::requests

namespace tessera {

// serving.requests as the scenario gives it.
struct RequestsSpec {
  bool given = false;  // the block is present: `serve` simulates requests
  requests::StreamSpec stream;
  requests::Router router = requests::Router::round_robin;
  bool input_given = false, output_given = false;  // absent: fixed at workload.input / .output
  std::string trace_file;                          // resolved path ("" without a trace)
  requests::TraceFormat trace_format = requests::TraceFormat::tessera;
  std::uint64_t trace_skipped = 0;  // rows of failed requests (no output tokens) left out
  bool warmup_given = false;        // absent: a tenth of the requests sent
  // serving.requests.preemption (absent: the framework's, else recompute) and swap's host link:
  // each PE's bandwidth to host memory (B/s) and one copy's latency (s)
  bool preemption_given = false;
  requests::Preemption preemption = requests::Preemption::recompute;
  double swap_bandwidth = 0;
  double swap_latency_s = 0;
  SourceLocation where;  // the `requests:` key
  SourceLocation trace_where, warmup_where;
};

}  // namespace tessera
