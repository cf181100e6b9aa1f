// Creating plugin objects: typed objects of every kind, the exception barrier around the
// factory and around calls into plugin code, and object lifetimes beyond the registry's.
#include <catch2/catch.hpp>
#include <memory>

#include "fixture_paths.hpp"
#include "host/guarded_plugins.hpp"
#include "host/plugin_barrier.hpp"
#include "host/plugin_registry.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_plugin_create {

using namespace tessera;
using tessera::test::fixture_dir;
using tessera::test::fixture_lib;

namespace {

RawParam raw(std::string key, std::string text) {
  RawParam r;
  r.key = std::move(key);
  r.text = std::move(text);
  r.where = SourceLocation{"scenario.yaml", 8, 9};
  return r;
}

// One 1 GFLOP, 0.5 GB stage on a 1 TFLOP/s, 1 TB/s PE: 1 ms compute, 0.5 ms memory.
struct OneStage {
  EvalContext ctx;
  Workload workload;
  StepWork work;
  ParallelConfig config;
  Layout layout;
  StepShape shape;
  StageList out;
  StepCall call() const {
    return StepCall{.work = work, .config = config, .layout = layout, .shape = shape, .workload = workload};
  }
  OneStage() {
    ctx.gemm_peak = 1e12;
    ctx.hbm_bw = 1e12;
    StageWork& s = work.push();
    s.name = "ffn.up";
    s.block = StageBlock::ffn;
    s.count = 80;
    s.flops = 1e9;
    s.hbm_bytes = 5e8;
  }
};

std::string throws_prefix() {
  return "plugin latency/throws 1.0.0 (" + fixture_lib("throws", "latency_throws") + ")";
}

}  // namespace

TEST_CASE("objects of every kind are created from validated parameters") {
  PluginRegistry reg({fixture_dir("good")}, false);
  reg.discover();
  auto latency =
      reg.create_latency(PluginChoice{"fixture", {raw("alpha", "10 us"), raw("samples", "4")}, {}});
  REQUIRE(latency);
  OneStage s;
  latency->time_step(s.ctx, s.call(), s.out);
  REQUIRE(s.out.size == 1);
  CHECK(std::string(s.out.items[0].name) == "ffn.up");
  CHECK(s.out.items[0].count == 80);
  CHECK(s.out.items[0].compute_s == Approx(1e-3));
  CHECK(s.out.items[0].memory_s == Approx(5e-4));
  // max(1 ms, 0.5 ms) / efficiency 0.5 + alpha 10 us
  CHECK(s.out.items[0].visible_s == Approx(2e-3 + 10e-6));
  CHECK(s.out.items[0].comm_s == 4);        // samples
  CHECK(s.out.items[0].comm_bytes == 2.5);  // last default weight
  CHECK(reg.create_memory(PluginChoice{"fixture", {}, {}}));
  CHECK(reg.create_search(PluginChoice{"fixture", {raw("samples", "5")}, {}}));
  CHECK(reg.create_objective(PluginChoice{"fixture", {raw("scale", "1")}, {}}));
}

TEST_CASE("invalid parameters are reported before any plugin code runs") {
  PluginRegistry reg({fixture_dir("throws")}, false);
  reg.discover();
  // `throw: error` would throw in create; a bad value stops it before create is called.
  CHECK_THROWS_AS(reg.create_latency(PluginChoice{"throws", {raw("throw", "sometimes")}, {}}), InputErrors);
  CHECK_THROWS_WITH(
      reg.create_latency(PluginChoice{"throws", {raw("throw", "nonee")}, {}}),
      "scenario.yaml:8:9: error: plugin latency/throws: parameter 'throw': expected one of error, "
      "input, std, other, none, null, found 'nonee' (did you mean 'none'?)");
}

TEST_CASE("a factory that throws is reported at creation - naming the plugin") {
  PluginRegistry reg({fixture_dir("throws"), fixture_dir("good")}, false);
  reg.discover();
  auto create = [&](const char* what) {
    return reg.create_latency(PluginChoice{"throws", {raw("throw", what)}, {}});
  };
  SECTION("tessera::Error") {
    try {
      create("error");
      FAIL("no exception");
    } catch (const PluginError& e) {
      CHECK(std::string(e.what()) == throws_prefix() + " failed to create: bad configuration 5");
    }
  }
  SECTION("std::exception") {
    CHECK_THROWS_MATCHES(create("std"), PluginError,
                         Catch::Message(throws_prefix() + " failed to create: logic bad configuration 3"));
  }
  SECTION("not an exception class") {
    CHECK_THROWS_MATCHES(
        create("other"), PluginError,
        Catch::Message(throws_prefix() +
                       " failed to create: unknown exception (not derived from std::exception)"));
  }
  SECTION("InputError stays bad input") {
    try {
      create("input");
      FAIL("no exception");
    } catch (const PluginError&) {
      FAIL("an InputError from the plugin must stay an InputError");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()) ==
            throws_prefix() + " failed to create: option 'throw' cannot be 'input' here");
    }
  }
  SECTION("no object") {
    CHECK_THROWS_MATCHES(
        create("null"), PluginError,
        Catch::Message(throws_prefix() + " failed to create: the factory returned no object"));
  }
  // The registry keeps working after every failure.
  CHECK(reg.create_latency(PluginChoice{"fixture", {}, {}}));
}

TEST_CASE("calls into plugin code go through the barrier") {
  PluginRegistry reg({fixture_dir("throws")}, false);
  reg.discover();
  const LoadedPlugin& p = reg.require(PluginKind::latency, "throws", {});
  auto model = reg.create_latency(PluginChoice{"throws", {raw("throw", "none")}, {}});
  REQUIRE(model);
  OneStage s;
  // The registry's object is the barrier's proxy: a bare call is guarded already.
  CHECK_THROWS_MATCHES(model->time_step(s.ctx, s.call(), s.out), PluginError,
                       Catch::Message(throws_prefix() + ": time_step exploded"));
  REQUIRE(plugin_behind(*model) != nullptr);
  CHECK(plugin_behind(*model)->path == p.path);
  CHECK(call_plugin(p, "test", [] { return 41 + 1; }) == 42);
  int x = 0;
  int& ref = call_plugin(p, "test", [&]() -> int& { return x; });
  CHECK(&ref == &x);
}

TEST_CASE("objects keep their library loaded after the registry is gone") {
  auto reg = std::make_unique<PluginRegistry>(std::vector<std::string>{fixture_dir("good")}, false);
  reg->discover();
  std::weak_ptr<void> library = reg->find(PluginKind::latency, "fixture")->library;
  std::weak_ptr<void> memory_library = reg->find(PluginKind::memory, "fixture")->library;
  auto model = reg->create_latency(PluginChoice{"fixture", {}, {}});
  reg.reset();
  CHECK(memory_library.expired());  // nothing from it is alive: unloaded with the registry
  CHECK_FALSE(library.expired());
  OneStage s;
  model->time_step(s.ctx, s.call(), s.out);  // the plugin's code is still mapped
  CHECK(s.out.items[0].visible_s == Approx(2e-3 + 2e-6));
  model.reset();  // deletes the object first, then releases the library
  CHECK(library.expired());
}

}  // namespace test_plugin_create
