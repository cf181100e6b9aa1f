// Magnitudes and arithmetic at load time (docs/limits.md): the integer limits can be raised,
// every check after them still holds, and --set values meet the same quantity ranges.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <string>
#include <vector>

#include "scenario/scenario_loader.hpp"
#include "tessera/limits.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_magnitudes {

using namespace tessera;

namespace {
std::string fixture(const std::string& name) { return std::string(TESSERA_TEST_DIR) + "/fixtures/" + name; }

std::vector<std::string> errors_of(std::vector<std::string> set) {
  LoadOptions o;
  o.data_root = fixture("data");
  o.set = std::move(set);
  try {
    load_scenario(fixture("by-path.yaml"), o);
  } catch (const InputErrors& e) {
    std::vector<std::string> out;
    for (const auto& d : e.diagnostics()) out.push_back(d.message);
    return out;
  }
  return {};
}

// Sets limits for one scope and restores the previous ones.
struct LimitScope {
  Limits saved = current_limits();
  explicit LimitScope(const std::string& setting) {
    Limits l = saved;
    apply_limit_setting(l, setting);
    set_limits(l);
  }
  ~LimitScope() { set_limits(saved); }
};
}  // namespace

TEST_CASE("model.dimension bounds every model integer and can be raised", "[magnitude]") {
  // 2^24 + 1 is one past the default.
  const auto e = errors_of({"model.vocab=16777217"});
  REQUIRE(e.size() == 1);
  CHECK(e[0] ==
        "model.vocab: 16777217 (given with --set) exceeds the limit model.dimension (16777216); raise it "
        "with --limit model.dimension=N");
  LimitScope raised("model.dimension=33554432");
  CHECK(errors_of({"model.vocab=16777217"}).empty());
}

TEST_CASE("the parameter count stays within 2^53 whatever model.dimension allows", "[magnitude]") {
  LimitScope raised("model.dimension=9007199254740992");
  // hidden 2^32 x vocab 2^32 alone is 2^64 embedding parameters.
  const auto e = errors_of({"model.hidden=4294967296", "model.vocab=4294967296", "model.heads=1",
                            "model.kv_heads=1", "model.head_dim=1"});
  REQUIRE_FALSE(e.empty());
  CHECK(e[0].find("beyond 2^53") != std::string::npos);
}

TEST_CASE("total PEs: the fanout product is checked even with machine.pes raised", "[magnitude]") {
  LimitScope raised("machine.pes=9007199254740992");
  // 4e6^2 x 2^... : the fixture machine's levels multiplied by two huge fanouts leave int64.
  const auto e = errors_of({"machine.levels.cube.fanout=4000000000", "machine.levels.sip.fanout=4000000000"});
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("PEs, which exceeds the limit machine.pes (9007199254740992)") != std::string::npos);
}

TEST_CASE("set: quantities meet the dimension ranges", "[magnitude]") {
  const auto e = errors_of({"machine.pe.hbm.bandwidth=1e300 EB/s"});
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("expected a bandwidth within 1 kB/s to 1 PB/s") != std::string::npos);
  CHECK(errors_of({"machine.pe.hbm.bandwidth=1 PB/s"}).empty());
}

}  // namespace test_magnitudes
