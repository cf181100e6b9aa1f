// `tessera explore` runs the scenario's own search plugin at every hardware point and says what
// it evaluated there: the executable, end to end, on the DeepSeek-V3 explore scenario.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "tessera_build_paths.hpp"

namespace {

nlohmann::json explore_json(const std::string& scenario, const std::string& search) {
  const std::string cmd = std::string(TESSERA_BINARY_DIR) + "/bin/tessera explore " + TESSERA_SOURCE_DIR +
                          "/scenarios/" + scenario +
                          " --no-sensitivity -q -j 2 --json - --set plugins.search=" + search + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int rc = ::pclose(p);
  INFO(cmd << "\n" << out.substr(0, 2000));
  REQUIRE(rc == 0);
  return nlohmann::json::parse(out);
}

}  // namespace

TEST_CASE("explore honours plugins.search and reports per point what it evaluated", "[search][explore]") {
  const std::string file = "deepseek-v3-decode-32k-hypothetical-explore.yaml";
  const nlohmann::json ex = explore_json(file, "exhaustive");
  const nlohmann::json ts = explore_json(file, "two_stage");
  CHECK(ex["search"] == "exhaustive");
  CHECK(ts["search"] == "two_stage");
  // 3 HBM bandwidths x 4 domain link bandwidths.
  REQUIRE(ex["points"].size() == 12);
  REQUIRE(ts["points"].size() == 12);
  for (std::size_t i = 0; i < 12; ++i) {
    const auto& e = ex["points"][i];
    const auto& t = ts["points"][i];
    INFO("point " << i + 1);
    CHECK(e["hardware"] == t["hardware"]);
    const auto valid = e["search"]["valid"].get<std::uint64_t>();
    CHECK(valid > 0);
    CHECK(e["search"]["evaluated"].get<std::uint64_t>() == valid);
    CHECK(t["search"]["valid"].get<std::uint64_t>() == valid);
    CHECK(t["search"]["evaluated"].get<std::uint64_t>() < valid);
    REQUIRE(e["feasible"] == t["feasible"]);
    if (!e["feasible"].get<bool>()) continue;
    const double le = e["best"]["latency_s"].get<double>(), lt = t["best"]["latency_s"].get<double>();
    CHECK(std::fabs(lt - le) <= 1e-9 * std::fabs(le));
  }
}
