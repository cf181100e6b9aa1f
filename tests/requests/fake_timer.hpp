#pragma once
// A StepTimer with times simple enough to follow by hand: an iteration costs 10 ms, 1 ms per
// decode token and 0.1 ms per prefill token (contexts play no part).
#include <cstdint>

#include "tessera/kinds/serving_model.hpp"

namespace tessera::test {

class FakeTimer : public StepTimer {
 public:
  double decode_step(std::int64_t batch, double) override {
    ++calls;
    return 0.010 + 0.001 * static_cast<double>(batch);
  }
  double decode_iteration(std::int64_t batch, double context) override { return decode_step(batch, context); }
  double prefill(std::int64_t batch, std::int64_t input, std::int64_t) override {
    return 0.010 + 0.0001 * static_cast<double>(batch * input);
  }
  double prefill_chunk(std::int64_t tokens, std::int64_t, bool) override {
    return 0.010 + 0.0001 * static_cast<double>(tokens);
  }
  double mixed_step(std::int64_t batch, double, std::int64_t prompts, std::int64_t tokens, std::int64_t,
                    bool) override {
    ++calls;
    return 0.010 + 0.001 * static_cast<double>(batch) + 0.0001 * static_cast<double>(prompts * tokens);
  }
  double verify_step(std::int64_t batch, double, std::int64_t tokens) override {
    return 0.010 + 0.001 * static_cast<double>(batch * tokens);
  }
  double draft_step(std::int64_t batch, double) override { return 0.001 * static_cast<double>(batch); }
  bool kv_fits(std::int64_t, std::int64_t) override { return true; }
  long calls = 0;
};

// Every iteration costs `service_s`, whatever it holds: a deterministic server.
class ConstantTimer : public StepTimer {
 public:
  explicit ConstantTimer(double service_s) : s_(service_s) {}
  double decode_step(std::int64_t, double) override { return s_; }
  double decode_iteration(std::int64_t, double) override { return s_; }
  double prefill(std::int64_t, std::int64_t, std::int64_t) override { return s_; }
  double prefill_chunk(std::int64_t, std::int64_t, bool) override { return s_; }
  double mixed_step(std::int64_t, double, std::int64_t, std::int64_t, std::int64_t, bool) override {
    return s_;
  }
  double verify_step(std::int64_t, double, std::int64_t) override { return s_; }
  double draft_step(std::int64_t, double) override { return 0; }
  bool kv_fits(std::int64_t, std::int64_t) override { return true; }

 private:
  double s_;
};

}  // namespace tessera::test
