#pragma once
// Shared by the benchmark programs: the tests' fixture (the plugin registry of this build tree,
// scenarios from the source tree, the heap-allocation counter: tests/shared/) and the process's
// peak resident set.
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <vector>
#include "tessera_build_paths.hpp"

#include "alloc_counter.hpp"
#include "search_fixture.hpp"

namespace tessera::bench {

// The plugin registry (loaded once per process, on the main thread, before any evaluation, and
// never destroyed), scenarios and a scenario ready to evaluate: the tests' own fixture
// (tests/shared/search_fixture.hpp).
using test::load;
using test::Prepared;
using test::registry;

// A field of /proc/self/status in bytes ("VmHWM", "VmRSS"); -1 when unreadable.
inline double proc_status_bytes(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) != 0) continue;
    return std::stod(line.substr(field.size() + 1)) * 1024.0;  // reported in kB
  }
  return -1;
}

// Resets the peak RSS to the current RSS (Linux >= 4.0); false when not permitted.
inline bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  if (!out) return false;
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

// Heap allocations (operator new calls, every thread) since the program started: the tests'
// counter (tests/shared/alloc_counter.cpp), linked by the programs that call it.
using test::allocation_count;

}  // namespace tessera::bench

namespace tessera::bench {

// A synthetic sweep for the scaling and memory runs, documented in docs/performance.md: the
// default scenario (Llama-3.1-70B, decode, 128K, batch 1, overlap/standard, objectives latency,
// pes, efficiency) on the cube-sip machine enlarged to `systems` systems of 8 SIPs of 16 PEs,
// sweeping cp over 1..n_cp, tp over {1, 2, 4, 8, 16, 32, 64}, pp over 1..n_pp, dp over 1..n_dp
// and every discrete knob at every value (kv split/replicate, three FFN scopes, tp and cp on
// the PE's cube or across cubes, rings kv/qoml/tree). Only the sizes grow: the physics is
// the default scenario's.
inline Scenario synthetic(int n_cp, int n_pp, int n_dp, std::int64_t systems) {
  Scenario sc = load("scenarios/llama3.1-70b-decode-128k.yaml");
  sc.machine.levels.back().fanout = systems;
  const auto range = [](int n) {
    std::vector<std::int32_t> v;
    for (int i = 1; i <= n; ++i) v.push_back(i);
    return v;
  };
  sc.sweep.cp = range(n_cp);
  sc.sweep.tp = {1, 2, 4, 8, 16, 32, 64};
  sc.sweep.pp = range(n_pp);
  sc.sweep.dp = range(n_dp);
  sc.sweep.ep = {1};
  sc.sweep.kv_shard_mode = {KvShardMode::split, KvShardMode::replicate};
  sc.sweep.ffn_shard_scope = {FfnShardScope::tp, FfnShardScope::tp_cp, FfnShardScope::tp_cp_dp};
  sc.sweep.tp_placement = {0, 1};
  sc.sweep.cp_placement = {1, 0};
  sc.sweep.cp_ring_variant = {CpRingVariant::kv, CpRingVariant::qoml, CpRingVariant::tree};
  return sc;
}

}  // namespace tessera::bench
