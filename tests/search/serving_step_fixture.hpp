#pragma once
// A hand-made serving point for the objective plugins' tests (plugins/objective/*/tests/): a
// machine, a configuration tp = 4, dp = 2 (8 PEs), a decode step, one prompt's prefill and the
// serving plugin's metrics, each with round numbers so that the expected values are computed by
// hand in the tests.
#include "tessera/sdk.hpp"

namespace tessera::test {

struct ServingStepFixture {
  MachineSpec machine;
  EvalContext ctx;
  Workload workload;  // the scenario's: serve, or run_step's mode
  ParallelConfig config;
  StageList stages;
  StepTotals decode;   // the decode step at the mean context: 2 replicas x 32 sequences
  StepTotals prefill;  // one prompt on each of the 2 replicas
  MemoryUsage memory;
  ServingMetrics metrics;

  ServingStepFixture() {
    machine.name = "hand";
    machine.pe.hbm_bandwidth = 3.35e12;
    machine.pe.hbm_capacity = 80e9;
    machine.levels.emplace_back("node", 8, 450e9, 3e-6);
    machine.energy.present = true;
    machine.energy.flop = 1e-12;      // 1 pJ/FLOP
    machine.energy.hbm_byte = 1e-11;  // 10 pJ/B
    machine.energy.static_power = 100;
    ctx.machine = &machine;
    ctx.gemm_peak = 989e12;
    workload.mode = Mode::serve;
    workload.input = 4096;
    workload.output = 101;
    config.tp = 4;
    config.dp = 2;
    decode.flops_all_pes = 1e12;      // 1 J
    decode.hbm_bytes_all_pes = 1e11;  // 1 J
    decode.tokens = 64;
    decode.latency_s = 0.02;
    decode.pes = 8;
    prefill.flops_all_pes = 1e15;      // 1000 J
    prefill.hbm_bytes_all_pes = 1e12;  // 10 J
    prefill.tokens = 2 * 4096;
    prefill.pes = 8;
    metrics.ttft_s = 0.4;
    metrics.tpot_s = 0.025;       // 40 tok/s per user
    metrics.tokens_per_s = 1000;  // per replica
    metrics.batch = 32;
    metrics.kv_fits = true;
  }

  EvaluatedStep serving_step() const {
    return EvaluatedStep{
        .stages = stages, .totals = decode, .memory = memory, .serving = &metrics, .prefill = &prefill};
  }
  EvaluatedStep run_step(Mode mode) {
    workload.mode = mode;
    return EvaluatedStep{.stages = stages, .totals = decode, .memory = memory};
  }
};

}  // namespace tessera::test
