// The limit table (docs/limits.md): parsing of --limit NAME=N, the standard diagnostic tail,
// and that every limit is documented with its default.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <fstream>
#include <sstream>
#include <string>

#include "tessera/error.hpp"
#include "tessera/limits.hpp"

using namespace tessera;

TEST_CASE("limits: --limit NAME=N sets exactly that field", "[limits]") {
  Limits l;
  apply_limit_setting(l, "yaml.nodes=5000000");
  CHECK(l.yaml_nodes == 5000000);
  CHECK(l.yaml_depth == Limits{}.yaml_depth);
  apply_limit_setting(l, "max_configs=1e8");
  CHECK(l.max_configs == 100000000);
  apply_limit_setting(l, "threads=3");
  CHECK(l.threads == 3);
}

TEST_CASE("limits: bad settings are input errors that name the nearest limit", "[limits]") {
  Limits l;
  try {
    apply_limit_setting(l, "yaml.nods=3");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) ==
          "--limit: no limit named 'yaml.nods' (did you mean 'yaml.nodes'?); "
          "docs/limits.md lists them");
  }
  CHECK_THROWS_AS(apply_limit_setting(l, "yaml.nodes"), InputError);
  CHECK_THROWS_AS(apply_limit_setting(l, "yaml.nodes=0"), InputError);
  CHECK_THROWS_AS(apply_limit_setting(l, "yaml.nodes=-1"), InputError);
  CHECK_THROWS_AS(apply_limit_setting(l, "yaml.nodes=1.5"), InputError);
  CHECK_THROWS_AS(apply_limit_setting(l, "yaml.nodes=1e300"), InputError);
  CHECK_THROWS_AS(apply_limit_setting(l, "yaml.nodes=ten"), InputError);
  CHECK(l.yaml_nodes == Limits{}.yaml_nodes);  // nothing applied by a refused setting
}

TEST_CASE("limits: the diagnostic tail names the limit and its value and flag", "[limits]") {
  const Limits saved = current_limits();
  CHECK(limit_exceeded("yaml.nodes") ==
        "exceeds the limit yaml.nodes (1000000); raise it with --limit yaml.nodes=N");
  CHECK(limit_exceeded("max_configs") ==
        "exceeds the limit max_configs (10000000); raise it with --max-configs N or --limit max_configs=N");
  Limits raised = saved;
  raised.yaml_nodes = 7;
  set_limits(raised);
  CHECK(limit_value("yaml.nodes") == 7);
  CHECK(limit_exceeded("yaml.nodes").find("(7)") != std::string::npos);
  set_limits(saved);
}

TEST_CASE("limits: every limit is documented in docs/limits.md with its default", "[limits]") {
  std::ifstream in(std::string(TESSERA_SOURCE_DIR) + "/docs/limits.md");
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  const Limits defaults;
  for (const auto& l : limit_table()) {
    INFO("limit " << l.name);
    const std::string row = "| `" + std::string(l.name) + "` | " + std::to_string(defaults.*(l.field));
    CHECK(doc.find(row) != std::string::npos);
  }
}
