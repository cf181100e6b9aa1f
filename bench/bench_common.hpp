#pragma once
// Shared by the benchmark programs: the plugin registry of this build tree, scenarios from
// the source tree, the process's peak resident set, and the heap-allocation counter
// (alloc_counter.cpp replaces the global operator new in the programs that link it).
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <vector>
#include "tessera_build_paths.hpp"

#include "analysis/search/search_driver.hpp"
#include "eval/grid_space.hpp"
#include "eval/session.hpp"
#include "host/plugin_registry.hpp"
#include "scenario/scenario_loader.hpp"

namespace tessera::bench {

// Loaded once per process, on the main thread, before any evaluation (DESIGN: load plugins
// on the main thread, evaluate in parallel after). Never destroyed: plugin objects may
// outlive main's locals in static fixtures.
inline PluginRegistry& registry() {
  static PluginRegistry* reg = [] {
    auto* r = new PluginRegistry();
    r->discover();
    return r;
  }();
  return *reg;
}

inline Scenario load(const std::string& relative_path, std::vector<std::string> set = {}) {
  LoadOptions o;
  o.set = std::move(set);
  return load_scenario(std::string(TESSERA_SOURCE_DIR) + "/" + relative_path, o);
}

// A scenario ready to evaluate: its session and its sweep grid.
struct Prepared {
  Scenario scenario;
  std::unique_ptr<Session> session;
  std::unique_ptr<GridSpace> space;
  explicit Prepared(Scenario sc) : scenario(std::move(sc)) {
    session = std::make_unique<Session>(scenario, registry());
    space = std::make_unique<GridSpace>(session->scenario().sweep, session->model(), session->machine(),
                                        session->workload());
  }
};

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

// Heap allocations (operator new calls, every thread) since the program started. Defined in
// alloc_counter.cpp: only the programs that link it may call it.
std::uint64_t allocation_count();

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
