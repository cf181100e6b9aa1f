#pragma once
// A StepTimer with simple known step times (seconds) for hand-computed cases, counting calls:
//   decode_step(B, ctx)                     = 10 + B + ctx / 10
//   prefill_chunk(tokens, prefix, last)     = 15 + tokens + prefix / 2 + 5 [last]
//   decode_iteration(B, ctx)                = decode_step(B, ctx) / pipeline (1: no pipeline)
//   mixed_step(b, ctx, k, tokens, prefix, last) = 20 + b + k tokens + k prefix / 2 + 5 [last]
//   verify_step(B, ctx, q)                   = 10 + B q + ctx / 10
//   draft_step(B, ctx)                       = draft (a constant)
//   kv_fits(B, ctx)                          = B * ctx <= capacity
#include <cstdint>

#include "tessera/kinds/serving_model.hpp"

namespace tessera::test {

class FakeStepTimer final : public StepTimer {
 public:
  double decode_step(std::int64_t batch, double context) override {
    ++decode_calls;
    last_decode_context = context;
    return 10.0 + static_cast<double>(batch) + context / 10;
  }
  double prefill(std::int64_t, std::int64_t, std::int64_t) override {
    ++prefill_calls;
    return 0;
  }
  double prefill_chunk(std::int64_t tokens, std::int64_t prefix, bool last) override {
    ++chunk_calls;
    return 15.0 + static_cast<double>(tokens) + static_cast<double>(prefix) / 2 + (last ? 5 : 0);
  }
  double decode_iteration(std::int64_t batch, double context) override {
    ++iteration_calls;
    const double t = 10.0 + static_cast<double>(batch) + context / 10;
    last_decode_context = context;
    return t / pipeline;
  }
  double mixed_step(std::int64_t batch, double context, std::int64_t prompts, std::int64_t tokens,
                    std::int64_t prefix, bool last) override {
    ++mixed_calls;
    mixed_batch = batch;
    mixed_prompts = prompts;
    mixed_context = context;
    const double k = static_cast<double>(prompts);
    return 20.0 + static_cast<double>(batch) + k * static_cast<double>(tokens) +
           k * static_cast<double>(prefix) / 2 + (last ? 5 : 0);
  }
  double verify_step(std::int64_t batch, double context, std::int64_t tokens) override {
    ++verify_calls;
    verify_tokens = tokens;
    return 10.0 + static_cast<double>(batch * tokens) + context / 10;
  }
  double draft_step(std::int64_t, double) override {
    ++draft_calls;
    return draft;
  }
  bool kv_fits(std::int64_t batch, std::int64_t context) override {
    kv_batch = batch;
    kv_context = context;
    return batch * context <= capacity;
  }

  std::int64_t capacity = 1'000'000;
  double pipeline = 1;  // decode_iteration's speed-up over decode_step (a full pipeline)
  double draft = 2;     // draft_step's time
  int verify_calls = 0, draft_calls = 0;
  std::int64_t verify_tokens = 0;
  int decode_calls = 0, iteration_calls = 0, prefill_calls = 0, chunk_calls = 0, mixed_calls = 0;
  std::int64_t mixed_batch = 0, mixed_prompts = 0, kv_batch = 0, kv_context = 0;
  double mixed_context = 0, last_decode_context = 0;
};

}  // namespace tessera::test
