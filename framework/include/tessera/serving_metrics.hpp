#pragma once
// What a `serving` plugin returns for one configuration at one concurrency: request-level
// metrics per replica (docs/physics.md §12 "Serving"). SI units: seconds, tokens/s.
#include <cstdint>

namespace tessera {

struct ServingMetrics {
  double ttft_s = 0;              // mean time to first token (queueing excluded: first come, first served)
  double tpot_s = 0;              // mean time per output token after the first (token-weighted)
  double tpot_tail_s = 0;         // the slowest iteration a decoding sequence waits for (>= tpot_s)
  double e2e_s = 0;               // mean request latency: ttft + (OSL - 1) * tpot
  double tokens_per_s = 0;        // output tokens per second, one replica
  double requests_per_s = 0;      // completed requests per second, one replica
  double prefill_time_share = 0;  // fraction of the replica's time in iterations carrying prefill
  std::int64_t batch = 0;         // sequences in flight the metrics are for
  std::int64_t max_batch = 0;     // largest sustainable batch at this token budget (0: no bound)
  std::int64_t chunk = 0;         // prefill tokens per chunk iteration (0: the whole prompt)
  std::int64_t chunk_iterations = 0;  // iterations carrying one request's prompt
  double kv_tokens_peak = 0;          // KV tokens one replica holds at most (B * (ISL + OSL))
  double kv_tokens_mean = 0;          // mean KV tokens in flight (B * (ISL + OSL / 2))
  bool kv_fits = false;               // the peak fits beside the weights (the memory plugin)
  // Why this point cannot run, a static string ("prefill-bound: ..."); nullptr when it can.
  // The host adds its own reasons (memory, SLO) after the plugin's.
  const char* infeasible = nullptr;
};

}  // namespace tessera
