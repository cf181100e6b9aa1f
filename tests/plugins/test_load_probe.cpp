// The load probe (host/load_probe.hpp): with it on, a library whose static initialiser throws
// is opened by a child process first and becomes a load failure instead of ending this process.
#include <catch2/catch.hpp>

#include "fixture_paths.hpp"
#include "host/load_probe.hpp"
#include "host/plugin_registry.hpp"

using namespace tessera;
using tessera::test::fixture_dir;
using tessera::test::fixture_lib;

namespace {

struct ProbeOn {
  ProbeOn() { set_plugin_load_probe(true); }
  ~ProbeOn() { set_plugin_load_probe(false); }
  ProbeOn(const ProbeOn&) = delete;
  ProbeOn& operator=(const ProbeOn&) = delete;
};

}  // namespace

TEST_CASE("with the probe a throwing static initialiser is a load failure") {
  const ProbeOn probe;
  PluginRegistry reg({fixture_dir("static_throw"), fixture_dir("good")}, false);
  reg.discover();
  REQUIRE(reg.failures().size() == 1);
  const std::string lib = fixture_lib("static_throw", "latency_static_throw");
  CHECK(reg.failures()[0].path == lib);
  CHECK(reg.failures()[0].message == "cannot load " + lib +
                                         ": a static initialiser of the library threw 'fixture: static "
                                         "initialiser failed' (seen when a child process opened it first); "
                                         "the library was not loaded");
  CHECK(reg.failures()[0].message.find(kInitialiserFailure) != std::string::npos);
  // The good fixtures (one of each kind) load in this process as without the probe.
  CHECK(reg.plugins().size() == 4);
  CHECK(reg.find(PluginKind::latency, "fixture") != nullptr);
}

TEST_CASE("the probe is off unless a host turns it on") { CHECK_FALSE(plugin_load_probe()); }
