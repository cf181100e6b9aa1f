#pragma once
// A StepTimer with simple known step times (seconds) for hand-computed cases, counting calls:
//   decode_step(B, ctx)                     = 10 + B + ctx / 10
//   prefill_chunk(tokens, prefix, last)     = 15 + tokens + prefix / 2 + 5 [last]
//   mixed_step(b, ctx, tokens, prefix, last) = 20 + b + tokens + prefix / 2 + 5 [last]
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
  double mixed_step(std::int64_t batch, double context, std::int64_t tokens, std::int64_t prefix,
                    bool last) override {
    ++mixed_calls;
    mixed_batch = batch;
    mixed_context = context;
    return 20.0 + static_cast<double>(batch) + static_cast<double>(tokens) + static_cast<double>(prefix) / 2 +
           (last ? 5 : 0);
  }
  bool kv_fits(std::int64_t batch, std::int64_t context) override {
    kv_batch = batch;
    kv_context = context;
    return batch * context <= capacity;
  }

  std::int64_t capacity = 1'000'000;
  int decode_calls = 0, prefill_calls = 0, chunk_calls = 0, mixed_calls = 0;
  std::int64_t mixed_batch = 0, kv_batch = 0, kv_context = 0;
  double mixed_context = 0, last_decode_context = 0;
};

}  // namespace tessera::test
