// Scenario plugins' parameters as hardware axes (docs/scenario-format.md): sweep.hardware and
// sensitivity --hardware accept plugins.latency.<name>.<param> (and plugins.memory.<param>, ...),
// each point re-creating the plugin with the value, typed and ranged by the plugin's schema.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "../outputs/output_test_util.hpp"
#include "analysis/explore/exploration.hpp"
#include "analysis/search/sensitivity.hpp"
#include "scenario/sweeps/hardware_points.hpp"
#include "search_fixture.hpp"
#include "tessera/error.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

// Llama-3.1-70B decode at batch 64 on DGX H100 with TP all-reduces overlapped in chunks: the chunk
// count (an integer parameter of latency/overlap) moves the step time when TP > 1.
const char* kScenario = "llama3.1-70b-decode-4k-h100.yaml";
const std::vector<std::string> kBase{"workload.batch=64", "sweep.parallelism.cp=[1]",
                                     "sweep.parallelism.dp=[1]",
                                     "plugins.latency={name: overlap, tp_overlap: chunked, "
                                     "tp_overlap_min_chunk_tokens: 1}"};

// Llama-3.1-8B prefill of 8K tokens in one chunk on DGX H100, TP all-reduces chunked
// (docs/physics.md §7.1's example), TP and PP swept.
const char* kPrefill = "llama3.1-8b-prefill-8k-h100.yaml";
std::vector<std::string> prefill(std::vector<std::string> extra) {
  std::vector<std::string> v{"workload.chunk=8K", "sweep.parallelism.cp=[1]",
                             "sweep.parallelism.tp=[1, 2, 4]", "sweep.parallelism.pp=[1, 2]",
                             "plugins.latency={name: overlap, tp_overlap: chunked}"};
  v.insert(v.end(), extra.begin(), extra.end());
  return v;
}

std::vector<std::string> with(std::vector<std::string> extra) {
  std::vector<std::string> v = kBase;
  v.insert(v.end(), extra.begin(), extra.end());
  return v;
}

ConfigRecord best_of(const Session& s) {
  const SearchResult r = search(s, choice("exhaustive"));
  REQUIRE(r.best);
  return r.records[*r.best];
}

std::string session_error(const Scenario& sc) {
  try {
    const Session s(sc, registry());
  } catch (const InputErrors& e) {
    std::string out;
    for (const auto& d : e.diagnostics()) out += d.format() + "\n";
    return out;
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("explore: a latency plugin parameter swept jointly with parallelism re-creates the plugin",
          "[explore][plugin-axes]") {
  const Scenario sc =
      load(kPrefill, prefill({"sweep.hardware.plugins.latency.overlap.tp_overlap_chunks=[2, 4]"}));
  REQUIRE(sc.sweep.hardware.size() == 1);
  CHECK(sc.sweep.hardware[0].scenario_plugin);
  const Session s(sc, registry());
  const HardwareAxis& axis = s.scenario().sweep.hardware[0];
  CHECK(axis.values == std::vector<double>{2, 4});
  CHECK(axis.integer);
  const HardwarePoint hp = hardware_point(s.scenario().sweep, s.machine(), 1, s.latency_name());
  REQUIRE(hp.plugin_params.size() == 1);
  CHECK(hp.plugin_params[0].plugin == "overlap");
  CHECK(hp.plugin_params[0].param == "tp_overlap_chunks");
  CHECK(hp.plugin_params[0].value == 4);

  const auto st = registry().create_search(sc.plugins.search);
  const auto cost = registry().create_objective(choice("cost"));
  ExploreOptions o;
  o.search.threads = 2;
  o.search.top = 1;
  o.sensitivity = false;
  const ExploreResult r = explore_hardware(s, *st, *cost, o);
  REQUIRE(r.points.size() == 2);
  // Each point is the search on a scenario that sets the parameter (--set), found independently.
  for (std::size_t i = 0; i < 2; ++i) {
    INFO("point " << i);
    const std::string v = i == 0 ? "2" : "4";
    const Scenario at = load(kPrefill, prefill({"plugins.latency.overlap.tp_overlap_chunks=" + v}));
    const Session as(at, registry());
    const ConfigRecord b = best_of(as);
    REQUIRE(r.points[i].feasible);
    CHECK(r.points[i].values == std::vector<double>{i == 0 ? 2.0 : 4.0});
    CHECK(r.points[i].best.latency_s == b.latency_s);
    CHECK(r.points[i].best.config == b.config);
  }
  // The parameter matters here: four chunks hide more of the TP all-reduces than two
  // (docs/physics.md §7.1: at TP 2 on dgx-h100.yaml, TTFT 72.68 ms with four chunks).
  CHECK(r.points[1].best.latency_s < r.points[0].best.latency_s);
  CHECK(r.points[0].best.config.tp > 1);
}

TEST_CASE("sensitivity --hardware perturbs a latency plugin parameter the scenario sets",
          "[sensitivity][plugin-axes]") {
  const Scenario sc = load(kScenario, with({"plugins.latency.overlap.tp_overlap_min_chunk_tokens=64",
                                            "plugins.latency.overlap.tp_overlap_chunks=8"}));
  const Session s(sc, registry());
  const auto knobs = hardware_knobs(s);
  const std::string path = "plugins.latency.overlap.tp_overlap_min_chunk_tokens";
  bool found = false;
  for (const auto& [p, label] : knobs)
    if (p == path) {
      found = true;
      CHECK(label == "overlap tp_overlap_min_chunk_tokens");
    }
  REQUIRE(found);
  const auto st = registry().create_search(sc.plugins.search);
  SearchOptions so;
  so.threads = 2;
  const ConfigRecord best = best_of(s);
  const auto hw = hardware_sensitivity(s, *st, best.config, so);
  const HardwareElasticity* h = nullptr;
  for (const auto& x : hw)
    if (x.path == path) h = &x;
  REQUIRE(h != nullptr);
  CHECK(h->value == 64);
  // The fixed configuration on -10 % (57.6 tokens) and +10 % (70.4), each also set by --set.
  for (int side = 0; side < 2; ++side) {
    const Scenario at = load(kScenario, with({"plugins.latency.overlap.tp_overlap_min_chunk_tokens=" +
                                                  std::string(side == 0 ? "57.6" : "70.4"),
                                              "plugins.latency.overlap.tp_overlap_chunks=8"}));
    const Session as(at, registry());
    Evaluation e;
    as.evaluator().evaluate(best.config, e);
    CHECK((side == 0 ? h->latency_minus_fixed : h->latency_plus_fixed) == e.totals.latency_s);
  }
  CHECK(std::isfinite(h->elasticity_fixed));
}

TEST_CASE("sweep.hardware plugin parameters: units - names - forms checked against the schema",
          "[plugin-axes]") {
  // A byte parameter given a time.
  std::string e =
      session_error(load(kScenario, with({"sweep.hardware.plugins.memory.reserve=[1 GB, 3 us]"})));
  CHECK_THAT(e, Catch::Contains("<command line>: error: sweep.hardware.plugins.memory.reserve") &&
                    Catch::Contains("expected a byte size") && Catch::Contains("\"3 us\", a time"));
  // A misspelled parameter, and a plugin the scenario does not list.
  e = session_error(load(kScenario, with({"sweep.hardware.plugins.latency.overlap.tp_overlap_chunk=[2]",
                                          "sweep.hardware.plugins.latency.overlapp.tp_overlap_chunks=[2]"})));
  CHECK_THAT(e,
             Catch::Contains("sweep.hardware.plugins.latency.overlap.tp_overlap_chunk: latency/overlap has "
                             "no parameter 'tp_overlap_chunk' (did you mean 'tp_overlap_chunks'?)"));
  CHECK_THAT(e, Catch::Contains("sweep.hardware.plugins.latency.overlapp.tp_overlap_chunks: the scenario's "
                                "plugins.latency has no plugin 'overlapp' (did you mean 'overlap'?)"));
  // A range: chunks are 2 to 64.
  e = session_error(load(kScenario, with({"sweep.hardware.plugins.latency.overlap.tp_overlap_chunks=[0]"})));
  CHECK_THAT(
      e, Catch::Contains("tp_overlap_chunks: parameter 'tp_overlap_chunks': expected an integer in [2, 64], "
                         "found '0'"));
  // A machine-block parameter named as a plugin parameter: pointed to its path.
  e = session_error(load("llama3.1-8b-sram-capacity-explore.yaml",
                         {"sweep.hardware.plugins.latency.sram_tier.sram_capacity=[1 GB]"}));
  CHECK_THAT(e, Catch::Contains("latency/sram_tier has no parameter 'sram_capacity'; 'sram_capacity' is a "
                                "parameter of its machine block, swept as "
                                "machine.plugins.sram_tier.sram_capacity"));
  // The form: a latency model's parameter names the model.
  try {
    load(kScenario, with({"sweep.hardware.plugins.latency.tp_overlap_chunks=[2]"}));
    FAIL("expected an error");
  } catch (const InputErrors& x) {
    CHECK_THAT(x.what(), Catch::Contains("a latency plugin parameter is plugins.latency.<name>.<param>"));
  }
}

TEST_CASE("sweep.hardware plugin parameter errors are located at the scenario's line and column",
          "[plugin-axes]") {
  TempDir dir;
  const std::string root = TESSERA_SOURCE_DIR;
  const std::string file = dir / "axes.yaml";
  std::ofstream(file) << "schema_version: 1\nkind: scenario\nname: axes\nmodel: " << root
                      << "/models/llama3.1-8b.yaml\nmachine: " << root
                      << "/machines/dgx-h100.yaml\nworkload: {mode: decode, context: 4K, batch: 1}\n"
                         "plugins: {latency: overlap}\nsweep:\n  hardware:\n"
                         "    plugins.latency.overlap.tp_overlap_chunkz: [2, 4]\n"
                         "    plugins.memory.reserve: [1 GB, 2 s]\n";
  LoadOptions lo;
  const Scenario sc = load_scenario(file, lo);
  const std::string e = session_error(sc);
  CHECK_THAT(e,
             Catch::Contains(file + ":10:5: error: sweep.hardware.plugins.latency.overlap.tp_overlap_chunkz: "
                                    "latency/overlap has no parameter 'tp_overlap_chunkz' (did you mean "
                                    "'tp_overlap_chunks'?)"));
  CHECK_THAT(
      e,
      Catch::Contains(
          file +
          ":11:36: error: sweep.hardware.plugins.memory.reserve: parameter 'reserve': expected a byte size"));
}
