#pragma once
// Shared by the tests and the benchmarks: the build tree's plugins, scenarios from the source
// tree, a scenario ready to evaluate, searches by name.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>
#include "tessera_build_paths.hpp"

#include "analysis/search/search_driver.hpp"
#include "eval/grid_space.hpp"
#include "eval/session.hpp"
#include "host/plugin_registry.hpp"
#include "scenario/scenario_loader.hpp"

namespace tessera::test {

inline PluginRegistry& registry() {
  static PluginRegistry* reg = [] {
    auto* r = new PluginRegistry();
    r->discover();
    return r;
  }();
  return *reg;
}

inline std::string scenario_path(const std::string& name) {
  return std::string(TESSERA_SOURCE_DIR) + "/scenarios/" + name;
}

// A scenario by its file name under scenarios/, or by a path relative to the source tree
// ("scenarios/x.yaml", as the benchmarks name them).
inline Scenario load(const std::string& name, std::vector<std::string> set = {}) {
  LoadOptions o;
  o.set = std::move(set);
  const bool relative = name.find('/') != std::string::npos;
  return load_scenario(relative ? std::string(TESSERA_SOURCE_DIR) + "/" + name : scenario_path(name), o);
}

// A scenario ready to evaluate: its session and its sweep grid.
struct Prepared {
  Scenario scenario;
  std::unique_ptr<Session> session;
  std::unique_ptr<GridSpace> space;
  explicit Prepared(Scenario sc) : scenario(std::move(sc)) {
    session = std::make_unique<Session>(scenario, registry());
    space = std::make_unique<GridSpace>(session->scenario().sweep, session->model(), session->machine(),
                                        session->workload());
  }
};

inline PluginChoice choice(const std::string& name,
                           std::vector<std::pair<std::string, std::string>> params = {}) {
  PluginChoice c;
  c.name = name;
  for (auto& [k, v] : params) {
    RawParam p;
    p.key = k;
    p.text = v;
    c.params.push_back(p);
  }
  return c;
}

// With every record kept (the tests look at all of them); keep_records = false streams.
inline SearchResult search(const Session& s, const PluginChoice& strategy, unsigned threads = 2,
                           bool keep_records = true) {
  const auto st = registry().create_search(strategy);
  SearchOptions o;
  o.threads = threads;
  o.keep_records = keep_records;
  return run_search(s, *st, o);
}

inline std::vector<std::string> scenario_files() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(TESSERA_SOURCE_DIR) + "/scenarios"))
    if (e.path().extension() == ".yaml") out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tessera::test
