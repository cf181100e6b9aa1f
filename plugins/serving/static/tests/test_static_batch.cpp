// serving/static by hand: a fixed batch prefilled in chunks of budget / B, then OSL - 1 decode
// steps at ISL + (OSL - 1) / 2 (docs/physics.md §12.1).
#include <catch2/catch.hpp>

#include "serving_model.hpp"

using namespace tessera;

namespace {

// prefill(B, ISL, chunk) = B + ISL / 100 + chunk / 1000; decode_step(B, ctx) = 1 + B / 10 + ctx / 1000.
class LinearTimer final : public StepTimer {
 public:
  double decode_step(std::int64_t b, double context) override {
    context_ = context;
    return 1 + static_cast<double>(b) / 10 + context / 1000;
  }
  double prefill(std::int64_t b, std::int64_t isl, std::int64_t chunk) override {
    chunk_ = chunk;
    return static_cast<double>(b) + static_cast<double>(isl) / 100 + static_cast<double>(chunk) / 1000;
  }
  double prefill_chunk(std::int64_t, std::int64_t, bool) override { return 0; }
  double decode_iteration(std::int64_t, double) override { return 0; }
  double mixed_step(std::int64_t, double, std::int64_t, std::int64_t, std::int64_t, bool) override {
    return 0;
  }
  double verify_step(std::int64_t, double, std::int64_t) override { return 0; }
  double draft_step(std::int64_t, double) override { return 0; }
  bool kv_fits(std::int64_t b, std::int64_t context) override { return b * context <= 5000; }
  double context_ = 0;
  std::int64_t chunk_ = -1;
};

}  // namespace

TEST_CASE("static: B 4 of 1000 in 200 out with a budget of 2000", "[serving][static]") {
  const plugins::StaticServing model;
  LinearTimer t;
  ServingMetrics m;
  model.evaluate(EvalContext{}, ParallelConfig{}, ServingRequest{1000, 200}, ServingPoint{4, 2000}, t, m);
  // chunk 2000 / 4 = 500, 2 chunks: TTFT 4 + 10 + 0.5; TPOT 1 + 0.4 + 1099.5 / 1000.
  CHECK(m.chunk == 500);
  CHECK(m.chunk_iterations == 2);
  CHECK(t.chunk_ == 500);
  CHECK(t.context_ == 1099.5);
  CHECK(m.ttft_s == Approx(14.5));
  CHECK(m.tpot_s == Approx(2.4995));
  CHECK(m.tpot_tail_s == m.tpot_s);
  CHECK(m.e2e_s == Approx(14.5 + 199 * 2.4995));
  CHECK(m.tokens_per_s == Approx(4 * 200 / m.e2e_s));
  CHECK(m.requests_per_s == Approx(4 / m.e2e_s));
  CHECK(m.prefill_time_share == Approx(14.5 / m.e2e_s));
  CHECK(m.kv_tokens_peak == 4 * 1200);
  CHECK(m.kv_tokens_mean == 4 * 1100);
  CHECK(m.kv_fits);  // 4800 <= 5000
  CHECK(m.max_batch == 0);
  CHECK(m.infeasible == nullptr);
  model.evaluate(EvalContext{}, ParallelConfig{}, ServingRequest{1000, 300}, ServingPoint{4, 0}, t, m);
  CHECK_FALSE(m.kv_fits);  // 5200 > 5000
  CHECK(m.chunk == 0);
  CHECK(m.chunk_iterations == 1);
  CHECK(t.chunk_ == 0);
}
