// Discovery and loading: every load step's exact message, and a registry that keeps running
// with the good plugins when others are broken.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include "tessera_build_paths.hpp"

#include "fixture_paths.hpp"
#include "host/plugin_discovery.hpp"
#include "host/plugin_registry.hpp"

using namespace tessera;
using tessera::test::fixture_dir;
using tessera::test::fixture_lib;

namespace {

std::string only_failure(const std::string& c) {
  PluginRegistry reg({fixture_dir(c)}, false);
  reg.discover();
  REQUIRE(reg.failures().size() == 1);
  CHECK(reg.plugins().empty());
  return reg.failures()[0].message;
}

}  // namespace

TEST_CASE("good fixtures of every kind load from an extra folder") {
  PluginRegistry reg({fixture_dir("good")}, false);
  REQUIRE(reg.search_path() == std::vector<std::string>{fixture_dir("good")});
  reg.discover();
  CHECK(reg.failures().empty());
  REQUIRE(reg.plugins().size() == 4);
  for (PluginKind k : {PluginKind::latency, PluginKind::memory, PluginKind::search, PluginKind::objective}) {
    const LoadedPlugin* p = reg.find(k, "fixture");
    REQUIRE(p != nullptr);
    CHECK(p->id() == std::string(plugin_kind_name(k)) + "/fixture");
    CHECK(p->library != nullptr);
    CHECK(p->descriptor->abi_version == kAbiVersion);
  }
  const LoadedPlugin* lat = reg.find(PluginKind::latency, "fixture");
  CHECK(lat->path == fixture_lib("good", "latency_fixture"));
  CHECK(std::string(lat->descriptor->version) == "1.2.3");
  CHECK(reg.find(PluginKind::latency, "nope") == nullptr);
  CHECK(reg.names(PluginKind::search) == std::vector<std::string>{"fixture"});
}

TEST_CASE("a folder listed twice is scanned once - discover twice loads nothing twice") {
  PluginRegistry reg({fixture_dir("good"), fixture_dir("good") + "/", fixture_dir("good") + "/../good"},
                     false);
  CHECK(reg.search_path().size() == 1);
  reg.discover();
  reg.discover();
  CHECK(reg.failures().empty());
  CHECK(reg.plugins().size() == 4);
  CHECK(reg.load_file(fixture_lib("good", "memory_fixture")));  // already loaded: fine, no duplicate
  CHECK(reg.failures().empty());
}

TEST_CASE("search path order: --plugin-path - TESSERA_PLUGIN_PATH - build tree - next to the executable") {
  ::setenv("TESSERA_PLUGIN_PATH", "/nonexistent/a::/nonexistent/b", 1);
  PluginRegistry reg({fixture_dir("good")}, true);
  ::setenv("TESSERA_PLUGIN_PATH", "", 1);
  const auto& path = reg.search_path();
  REQUIRE(path.size() >= 4);
  CHECK(path[0] == fixture_dir("good"));
  CHECK(path[1] == "/nonexistent/a");
  CHECK(path[2] == "/nonexistent/b");
  // The tests run from <build>/bin, so <exe>/../lib/tessera/plugins is the build tree's
  // plugin folder: listed once.
  CHECK(path[3] == std::string(TESSERA_BINARY_DIR) + "/lib/tessera/plugins");
  CHECK(std::count(path.begin(), path.end(), path[3]) == 1);
}

TEST_CASE("wrong ABI is refused naming both versions") {
  CHECK(only_failure("bad_abi") == fixture_lib("bad_abi", "latency_bad_abi") +
                                       ": plugin latency/bad_abi was built for ABI 999, host has ABI 3: "
                                       "rebuild it against this SDK");
}

TEST_CASE("a plugin built against SDK v1 is refused naming ABI 1 and the host ABI 3") {
  CHECK(only_failure("abi_v1") == fixture_lib("abi_v1", "latency_abi_v1") +
                                      ": plugin latency/abi_v1 was built for ABI 1, host has ABI 3: "
                                      "rebuild it against this SDK");
}

TEST_CASE("a shared library without the entry is not a plugin") {
  CHECK(only_failure("no_entry") ==
        fixture_lib("no_entry", "no_entry") + " is not a Tessera plugin: no tessera_plugin_entry");
}

TEST_CASE("a library that fails to load reports dlerror") {
  const std::string m = only_failure("unresolved");
  const std::string prefix = "cannot load " + fixture_lib("unresolved", "latency_unresolved") + ": ";
  CHECK(m.rfind(prefix, 0) == 0);
  CHECK_THAT(m, Catch::Contains("undefined symbol: tessera_fixture_symbol_nobody_defines"));
}

TEST_CASE("an unsupported kind interface version is refused") {
  CHECK(only_failure("bad_kind") ==
        fixture_lib("bad_kind", "latency_bad_kind") +
            ": plugin latency/bad_kind was built for latency interface version 42, "
            "host supports version " +
            std::to_string(kLatencyInterfaceVersion) + ": rebuild it against this SDK");
}

TEST_CASE("a default outside its own range is refused") {
  CHECK(only_failure("bad_default") ==
        fixture_lib("bad_default", "latency_bad_default") +
            ": plugin latency/bad_default: default '-1' of parameter 'alpha' is "
            "outside its range [0, 1]");
}

TEST_CASE("a duplicate id names both paths and keeps the first") {
  PluginRegistry reg({fixture_dir("dup")}, false);
  reg.discover();
  REQUIRE(reg.plugins().size() == 1);
  CHECK(std::string(reg.plugins()[0].descriptor->version) == "a");
  REQUIRE(reg.failures().size() == 1);
  CHECK(reg.failures()[0].path == fixture_lib("dup", "latency_dup_b"));
  CHECK(reg.failures()[0].message == "duplicate plugin latency/dup: " + fixture_lib("dup", "latency_dup_b") +
                                         " (already loaded from " + fixture_lib("dup", "latency_dup_a") +
                                         "); keeping the first");
}

TEST_CASE("a missing file or folder is harmless") {
  PluginRegistry reg({"/nonexistent/plugins"}, false);
  reg.discover();
  CHECK(reg.plugins().empty());
  CHECK(reg.failures().empty());
  CHECK_FALSE(reg.load_file("/nonexistent/libtessera_x.so"));
  REQUIRE(reg.failures().size() == 1);
  CHECK(reg.failures()[0].message.rfind("cannot load /nonexistent/libtessera_x.so: ", 0) == 0);
}

TEST_CASE("the registry keeps running with the good plugins when others are broken") {
  PluginRegistry reg(
      {fixture_dir("bad_abi"), fixture_dir("no_entry"), fixture_dir("unresolved"), fixture_dir("bad_kind"),
       fixture_dir("bad_default"), fixture_dir("dup"), fixture_dir("good"), fixture_dir("throws")},
      false);
  reg.discover();
  CHECK(reg.failures().size() == 6);
  CHECK(reg.plugins().size() == 6);  // 4 good + dup (first) + throws
  CHECK(reg.names(PluginKind::latency) == std::vector<std::string>{"dup", "fixture", "throws"});
  auto model = reg.create_latency(PluginChoice{"fixture", {}, {}});
  REQUIRE(model != nullptr);
  auto memory = reg.create_memory(PluginChoice{"fixture", {}, {}});
  REQUIRE(memory != nullptr);
}

TEST_CASE("an unknown plugin name lists what is registered and the nearest name") {
  PluginRegistry reg({fixture_dir("good"), fixture_dir("dup")}, false);
  reg.discover();
  const SourceLocation where{"scenario.yaml", 12, 12};
  try {
    reg.require(PluginKind::latency, "fixtrue", where);
    FAIL("no exception");
  } catch (const InputErrors& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].message ==
          "unknown latency plugin 'fixtrue' (did you mean 'fixture'?); registered: dup, fixture");
    CHECK(e.diagnostics()[0].where.line == 12);
    CHECK(std::string(e.what()) ==
          "scenario.yaml:12:12: error: unknown latency plugin 'fixtrue' (did you mean "
          "'fixture'?); registered: dup, fixture");
  }
  PluginRegistry empty({fixture_dir("no_entry")}, false);
  empty.discover();
  CHECK_THROWS_WITH(
      empty.require(PluginKind::search, "random", where),
      Catch::Contains("unknown search plugin 'random'; no search plugins are registered (searched: " +
                      fixture_dir("no_entry") + ")"));
  // A plugin that failed to load is named with its reason.
  PluginRegistry broken({fixture_dir("bad_abi")}, false);
  broken.discover();
  CHECK_THROWS_WITH(broken.require(PluginKind::latency, "bad_abi", where),
                    Catch::Contains(fixture_lib("bad_abi", "latency_bad_abi") +
                                    " failed to load: " + fixture_lib("bad_abi", "latency_bad_abi") +
                                    ": plugin latency/bad_abi was built"));
}

TEST_CASE("an entry that is not the TESSERA_PLUGIN pointer is refused before it is called") {
  const std::string fix = ": define the entry with TESSERA_PLUGIN(descriptor) from <tessera/sdk.hpp>";
  CHECK(only_failure("entry_function") ==
        fixture_lib("entry_function", "latency_entry_function") +
            ": tessera_plugin_entry is a function, not the entry pointer TESSERA_PLUGIN defines" + fix);
  CHECK(only_failure("entry_null") ==
        fixture_lib("entry_null", "latency_entry_null") + ": tessera_plugin_entry is a null pointer" + fix);
  CHECK(only_failure("entry_wrong_size") ==
        fixture_lib("entry_wrong_size", "latency_entry_wrong_size") +
            ": tessera_plugin_entry is a 4-byte object, not the 8-byte entry pointer TESSERA_PLUGIN defines" +
            fix);
}

TEST_CASE("a lookup by id loads only the libraries whose file name may provide it") {
  PluginRegistry reg({fixture_dir("bad_abi"), fixture_dir("unresolved"), fixture_dir("entry_function"),
                      fixture_dir("no_entry"), fixture_dir("good"), fixture_dir("dup")},
                     false);
  CHECK(reg.plugins().empty());  // nothing is loaded before the first lookup
  const LoadedPlugin* lat = reg.find(PluginKind::latency, "fixture");
  REQUIRE(lat != nullptr);
  // libtessera_no_entry.so does not say its kind, so it is opened for every lookup.
  REQUIRE(reg.failures().size() == 1);
  CHECK(reg.failures()[0].path == fixture_lib("no_entry", "no_entry"));
  CHECK(reg.plugins().size() == 1);
  REQUIRE(reg.find(PluginKind::search, "fixture") != nullptr);
  CHECK(reg.plugins().size() == 2);
  CHECK(reg.find(PluginKind::latency, "fixture") == lat);  // still valid after more loads
  // A name no file carries loads the whole kind: latency/dup lives in latency_dup_a and _b.
  const LoadedPlugin* dup = reg.find(PluginKind::latency, "dup");
  REQUIRE(dup != nullptr);
  CHECK(std::string(dup->descriptor->version) == "a");
  CHECK(reg.failures().size() == 5);  // + bad_abi, unresolved, entry_function, dup_b
  CHECK(reg.plugins().size() == 3);
  reg.discover();  // the rest: memory and objective
  CHECK(reg.plugins().size() == 5);
  CHECK(reg.failures().size() == 5);
}

TEST_CASE("a library's file name says which plugins it may provide") {
  CHECK(library_may_provide("/p/libtessera_latency_roofline.so", PluginKind::latency, "roofline"));
  CHECK(library_may_provide("/p/libtessera_latency_roofline.so", PluginKind::latency, ""));
  CHECK_FALSE(library_may_provide("/p/libtessera_latency_roofline.so", PluginKind::latency, "overlap"));
  CHECK_FALSE(library_may_provide("/p/libtessera_latency_roofline.so", PluginKind::memory, ""));
  CHECK_FALSE(library_may_provide("/p/libtessera_objective_cost.so", PluginKind::search, "cost"));
  // Named otherwise (out of tree, not by tessera_add_plugin): may provide anything.
  CHECK(library_may_provide("/p/libtessera_myplugins.so", PluginKind::search, "anneal"));
  CHECK(library_may_provide("/p/libtessera_latency.so", PluginKind::memory, "x"));
  CHECK(library_may_provide("/p/libtessera_latency_.so", PluginKind::memory, "x"));
}

TEST_CASE("plugin kinds parse from their names") {
  CHECK(parse_plugin_kind("latency") == PluginKind::latency);
  CHECK(parse_plugin_kind("objective") == PluginKind::objective);
  CHECK_FALSE(parse_plugin_kind("latencies").has_value());
}

TEST_CASE("the framework's own libraries are never offered as plugins") {
  // The build's lib/ holds libtessera_sdk.so and libtessera_host.so beside the plugin folder:
  // named like plugins (libtessera_*.so), listed by no search of that folder.
  const std::string lib = std::string(TESSERA_BINARY_DIR) + "/lib";
  const std::vector<std::string> files = plugin_files_in(lib);
  for (const std::string& f : files) {
    CHECK_FALSE(f.ends_with("/libtessera_sdk.so"));
    CHECK_FALSE(f.ends_with("/libtessera_host.so"));
  }
  CHECK(is_framework_library("libtessera_sdk.so"));
  CHECK(is_framework_library("libtessera_host.so"));
  CHECK_FALSE(is_framework_library("libtessera_latency_calibrated.so"));
  CHECK(plugin_files_in(TESSERA_BUILD_PLUGIN_DIR).size() >= 20);
}
