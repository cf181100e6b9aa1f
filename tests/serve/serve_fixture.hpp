#pragma once
// A serving scenario set up in code (Llama-3.1-70B on DGX H100, 4K/1K, serving/static), the
// study run with every row kept, and small helpers.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/serving/serve_study.hpp"
#include "eval/host_step_timer.hpp"
#include "search_fixture.hpp"

namespace tessera::test {

// Llama-3.1-70B on DGX H100 at ISL 4096 / OSL 1024: tp 1..8, pp 1..2, dp 1..2 (tp on the GPU
// or the node), batches {1, 8, 64}, token budgets {none, 2048}, TTFT <= 1 s, TPOT <= 50 ms,
// serving/static, objectives [throughput, pes] (any two do: the study ranks by the first).
inline Scenario serve_scenario() {
  Scenario s = load("llama3.1-70b-decode-4k-h100.yaml");
  s.name = "llama3.1-70b-serve-test";
  s.workload.mode = Mode::serve;
  s.workload.input = 4096;
  s.workload.output = 1024;
  s.workload.context = 4096;
  s.workload.batch = 1;
  s.workload.chunk = 0;
  s.plugins.serving = choice("static");
  s.plugins.objectives = {choice("throughput"), choice("pes")};
  s.sweep.cp = {1};
  s.sweep.tp = {1, 2, 4, 8};
  s.sweep.pp = {1, 2};
  s.sweep.dp = {1, 2};
  s.sweep.ep = {1};
  s.sweep.serving_batch = {1, 8, 64};
  s.sweep.serving_token_budget = {0, 2048};
  s.serving.slo.ttft_s = 1.0;
  s.serving.slo.tpot_s = 0.050;
  return s;
}

// Every shipped machine file (machines/*.yaml), sorted.
inline std::vector<std::string> shipped_machine_files() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(TESSERA_SOURCE_DIR) + "/machines"))
    if (e.path().extension() == ".yaml") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// A decode scenario (4K context, batch 1) of shipped `model` on machine file `machine` under
// latency plugin `latency`, loaded as the CLI would.
inline Scenario decode_scenario_on(const std::string& model, const std::string& machine,
                                   const std::string& latency) {
  const std::string src = TESSERA_SOURCE_DIR;
  const std::string text =
      "schema_version: 1\nkind: scenario\nname: step-costs\nmodel: " + src + "/models/" + model +
      ".yaml\nmachine: " + machine +
      "\nworkload: {mode: decode, context: 4K, batch: 1}\nplugins: {latency: " + latency + "}\n";
  return load_scenario_text(text, "<step-costs>", src, LoadOptions{});
}

// Calls f(timer, latency, where) for every latency plugin x shipped machine x {Llama-3.1-8B,
// Mixtral-8x7B} at one PE (every model's smallest step), through the host's StepTimer; `where`
// names the three for messages. sram_tier runs on the machines that declare an SRAM tier only.
template <class F>
void for_each_one_pe_timer(F&& f) {
  for (const std::string& machine : shipped_machine_files())
    for (const std::string model : {"llama3.1-8b", "mixtral-8x7b"})
      for (const std::string& latency : registry().names(PluginKind::latency)) {
        if (latency == "sram_tier" && machine.find("sram") == std::string::npos) continue;
        const Scenario sc = decode_scenario_on(model, machine, latency);
        const Session session(sc, registry());
        const Evaluator& ev = session.evaluator();
        Evaluation holder, scratch;
        const ParallelConfig c;
        ev.layout_for(c, holder);
        REQUIRE(holder.layout.valid);
        HostStepTimer t(ev, c, holder.layout, scratch);
        f(t, latency, latency + " on " + std::filesystem::path(machine).filename().string() + ", " + model);
      }
}

struct StudyRun {
  ServeResult result;
  std::vector<ServeRecord> rows;  // every evaluated point, in the study's order
};

// `batch`: points per round (small: several rounds even on a small study).
inline StudyRun study(const Session& session, unsigned threads = 2, std::size_t top = 20,
                      std::int64_t max_pes = -1, std::size_t batch = 7) {
  StudyRun run;
  ServeStudyOptions o;
  o.threads = threads;
  o.top = top;
  o.max_pes = max_pes;
  o.batch = batch;
  o.on_point = [&](const ServeRecord& r) { run.rows.push_back(r); };
  run.result = run_serve_study(session, o);
  return run;
}

}  // namespace tessera::test
