#pragma once
// A scenario that runs the broken latency fixture (tests/plugins/fixtures/broken_latency.cpp),
// for the tests of what a plugin cannot do to the host (test_signals.cpp, test_isolation.cpp).
#include <fstream>
#include <string>

#include "output_test_util.hpp"
#include "tessera_build_paths.hpp"

namespace tessera::test {

// A scenario in `d` running Llama-3.1-8B on DGX H100 with the broken latency fixture failing with
// `fault`: `body` its workload, sweep and serving lines, then `more` YAML lines.
inline std::string write_fault_scenario(const TempDir& d, const std::string& name, const std::string& body,
                                        const std::string& fault, const std::string& more) {
  const std::string path = d / (name + ".yaml");
  std::ofstream f(path);
  f << "schema_version: 1\nkind: scenario\nname: " << name << "\nmodel: " << TESSERA_SOURCE_DIR
    << "/models/llama3.1-8b.yaml\nmachine: " << TESSERA_SOURCE_DIR << "/machines/dgx-h100.yaml\n"
    << body << "plugins: {latency: {name: broken_latency, fault: " << fault
    << "}, memory: standard, search: exhaustive}\n"
    << more;
  return path;
}

// Decode at 4K context, batch 1.
inline std::string fault_scenario(const TempDir& d, const std::string& name, const std::string& fault,
                                  const std::string& more) {
  return write_fault_scenario(d, name, "workload: {mode: decode, context: 4K, batch: 1}\n", fault, more);
}

// The same as a serving study (workload.mode: serve): 1K in, 256 out, TP 1-8 at three batches,
// SLO TTFT 1 s / TPOT 50 ms within 8 GPUs; `sweep_more` lines of its sweep (indented two spaces),
// `serving_more` entries of its serving block (", requests: {...}"), `more` YAML lines.
inline std::string serve_fault_scenario(const TempDir& d, const std::string& name, const std::string& fault,
                                        const std::string& more, const std::string& sweep_more = "",
                                        const std::string& serving_more = "") {
  return write_fault_scenario(d, name,
                              "workload: {mode: serve, input: 1K, output: 256}\n"
                              "sweep:\n  parallelism: {tp: [1, 2, 4, 8], tp_placement: [gpu]}\n"
                              "  serving: {batch: [1, 8, 64], token_budget: [2K]}\n" +
                                  sweep_more + "serving: {slo: {ttft: 1 s, tpot: 50 ms}, max_pes: 8" +
                                  serving_more + "}\n",
                              fault, more);
}

// The fixture's folder, for --plugin-path.
inline std::string broken_plugin_dir() { return std::string(TESSERA_TEST_PLUGIN_DIR) + "/broken"; }

}  // namespace tessera::test
