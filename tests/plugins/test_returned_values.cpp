// The checks of what plugin code returns (host/returned_values.hpp): the hot-path screens and
// the messages that name the offending value.
#include <catch2/catch.hpp>
#include <limits>

#include "host/returned_values.hpp"

using namespace tessera;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

StageList two_stages() {
  StageList out;
  Stage& a = out.push();
  a.name = "attn.qkv";
  a.count = 32;
  a.flops = 1e9;
  a.compute_s = 1e-4;
  a.visible_s = 1e-4;
  Stage& b = out.push();
  b.name = "ffn.up";
  b.count = 32;
  b.hbm_bytes = 5e8;
  b.memory_s = 2e-4;
  b.visible_s = 2e-4;
  return out;
}

MemoryUsage usage() {
  MemoryUsage m;
  m.weights_bytes = 16e9;
  m.kv_bytes = 1e9;
  m.used_bytes = 17e9;
  m.budget_bytes = 80e9;
  m.fits = true;
  return m;
}

}  // namespace

TEST_CASE("returned values: finite non-negative stages pass the screen and describe as fine") {
  const StageList out = two_stages();
  CHECK(stages_plausible(out));
  CHECK(describe_bad_stages(out).empty());
  CHECK(stages_plausible(StageList{}));
}

TEST_CASE("returned values: each bad stage value is caught and named") {
  const auto bad = [](auto set) {
    StageList out = two_stages();
    set(out.items[1]);
    CHECK_FALSE(stages_plausible(out));
    return describe_bad_stages(out);
  };
  CHECK(bad([](Stage& s) { s.visible_s = kNan; }) ==
        "stage 1 ('ffn.up') with visible_s = nan; times, counts and byte counts must be finite and "
        "non-negative");
  CHECK(bad([](Stage& s) { s.compute_s = kInf; }).rfind("stage 1 ('ffn.up') with compute_s = inf;", 0) == 0);
  CHECK(bad([](Stage& s) { s.memory_s = -1e-6; }).rfind("stage 1 ('ffn.up') with memory_s = -1e-06;", 0) ==
        0);
  CHECK(bad([](Stage& s) { s.count = -kInf; }).rfind("stage 1 ('ffn.up') with count = -inf;", 0) == 0);
  CHECK(bad([](Stage& s) { s.comm_bytes = -3; }).rfind("stage 1 ('ffn.up') with comm_bytes = -3;", 0) == 0);
  CHECK(bad([](Stage& s) {
          s.comm_extra_latency = kNan;
        }).rfind("stage 1 ('ffn.up') with comm_extra_latency = nan;", 0) == 0);
  CHECK(bad([](Stage& s) { s.name = nullptr; }) == "stage 1 with a null name");
}

TEST_CASE("returned values: a stage count outside the list's capacity is caught") {
  StageList out = two_stages();
  out.size = StageList::kCapacity + 1;
  CHECK_FALSE(stages_plausible(out));
  CHECK(describe_bad_stages(out) == "33 stages (a StageList holds 0 to 32)");
  out.size = -1;
  CHECK_FALSE(stages_plausible(out));
  CHECK(describe_bad_stages(out) == "-1 stages (a StageList holds 0 to 32)");
}

TEST_CASE("returned values: minus zero makes the screen look closer but is no error") {
  StageList out = two_stages();
  out.items[0].comm_s = -0.0;
  CHECK_FALSE(stages_plausible(out));
  CHECK(describe_bad_stages(out).empty());
  MemoryUsage m = usage();
  m.transient_bytes = -0.0;
  CHECK_FALSE(memory_plausible(m));
  CHECK(describe_bad_memory(m).empty());
}

TEST_CASE("returned values: each bad memory value is caught and named") {
  CHECK(memory_plausible(usage()));
  CHECK(describe_bad_memory(usage()).empty());
  MemoryUsage m = usage();
  m.kv_bytes = kNan;
  CHECK_FALSE(memory_plausible(m));
  CHECK(describe_bad_memory(m) == "kv_bytes = nan; byte counts must be finite and non-negative");
  m = usage();
  m.used_bytes = -1;
  CHECK(describe_bad_memory(m) == "used_bytes = -1; byte counts must be finite and non-negative");
  m = usage();
  m.budget_bytes = kInf;
  CHECK_FALSE(memory_plausible(m));
  CHECK(describe_bad_memory(m) == "budget_bytes = inf; byte counts must be finite and non-negative");
}

TEST_CASE("returned values: an objective is blamed only when what it was handed was finite") {
  StepTotals t;
  t.latency_s = 1e-3;
  t.throughput_tok_s = 1000;
  CHECK(objective_inputs_finite(t, usage()));
  t.compute_util = kInf;  // the host's own physics went non-finite (docs/limits.md)
  CHECK_FALSE(objective_inputs_finite(t, usage()));
  t.compute_util = 0.5;
  MemoryUsage m = usage();
  m.kv_bytes = kNan;
  CHECK_FALSE(objective_inputs_finite(t, m));
}

TEST_CASE("returned values: values print as the messages show them") {
  CHECK(format_returned(kNan) == "nan");
  CHECK(format_returned(-kInf) == "-inf");
  CHECK(format_returned(-1.5) == "-1.5");
  CHECK(format_returned(3e300) == "3e+300");
}
