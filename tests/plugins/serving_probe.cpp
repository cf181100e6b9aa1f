// tessera_serving_probe: one configuration of a scenario at one serving point through a serving
// plugin found on --plugin-path, printed as key=value lines (%.17g). Run by
// out_of_tree_serving_test.cmake against the out-of-tree example docs/examples/serving-plugin:
//   tessera_serving_probe PLUGIN_DIR SCENARIO SERVING ISL OSL BATCH BUDGET TP [KEY=VALUE...]
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "eval/serving_evaluator.hpp"
#include "eval/session.hpp"
#include "host/plugin_registry.hpp"
#include "scenario/scenario_loader.hpp"

int main(int argc, char** argv) {
  using namespace tessera;
  if (argc < 9) {
    std::fprintf(stderr, "usage: %s PLUGIN_DIR SCENARIO SERVING ISL OSL BATCH BUDGET TP [KEY=VALUE...]\n",
                 argv[0]);
    return 2;
  }
  try {
    PluginRegistry registry({argv[1]});
    Scenario sc = load_scenario(argv[2], LoadOptions{});
    sc.workload.mode = Mode::serve;
    sc.workload.input = std::atoll(argv[4]);
    sc.workload.output = std::atoll(argv[5]);
    sc.workload.batch = 1;
    sc.workload.chunk = 0;
    sc.plugins.serving = PluginChoice{};
    sc.plugins.serving.name = argv[3];
    for (int i = 9; i < argc; ++i) {
      const std::string kv = argv[i];
      const auto eq = kv.find('=');
      RawParam p;
      p.key = kv.substr(0, eq);
      p.text = eq == std::string::npos ? "" : kv.substr(eq + 1);
      sc.plugins.serving.params.push_back(p);
    }
    const Session session(sc, registry);
    const ServingEvaluator ev(session, ServingSlo{});
    ParallelConfig c;
    c.tp = std::atoi(argv[8]);
    ServingEvaluation e;
    ev.evaluate(c, ServingPoint{std::atoll(argv[6]), std::atoll(argv[7])}, e);
    const ServingMetrics& m = e.metrics;
    std::printf("ttft_s=%.17g\ntpot_s=%.17g\ntpot_tail_s=%.17g\ne2e_s=%.17g\ntokens_per_s=%.17g\n", m.ttft_s,
                m.tpot_s, m.tpot_tail_s, m.e2e_s, m.tokens_per_s);
    std::printf("chunk=%lld\nmax_batch=%lld\nkv_fits=%d\nrunnable=%d\nreason=%s\n",
                static_cast<long long>(m.chunk), static_cast<long long>(m.max_batch), m.kv_fits ? 1 : 0,
                e.runnable ? 1 : 0, serving_reason(session, e).c_str());
    return 0;
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "error: %s\n", ex.what());
    return 1;
  }
}
