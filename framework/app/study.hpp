#pragma once
#include <cstdint>
// The shared preamble of the scenario commands (run, explain, compare, sensitivity, explore):
// the scenario (SCENARIO or the default; --set, --model, --machine applied), an optional edit
// of it by the command (a --latency choice), its mode checked against the command's StudyKind
// (exit 2 at `workload.mode`), the plugins (--plugin-path) and the session on
// its first latency model, in that order (so a bad scenario is reported before a missing
// plugin, both before any output is checked). Every plugin problem of the scenario (names,
// parameters, the machine's efficiency block) is reported together, at the scenario's lines,
// before any plugin is created. Errors propagate to run_guarded (exit codes).
#include <functional>
#include <memory>
#include <string>

#include "common_options.hpp"
#include "eval/session.hpp"
#include "host/plugin_registry.hpp"
#include "output_files.hpp"
#include "scenario/scenario.hpp"
#include "tessera/kinds/search_strategy.hpp"

namespace tessera::cli {

// Which scenarios a command studies: one step (run, explain, compare, sensitivity, explore:
// `workload.mode: serve` refused, "use `tessera serve`"), or requests (`tessera serve`: only
// `workload.mode: serve`).
// `either`: explore, which studies a serve scenario's hardware grid with the serving study.
enum class StudyKind : std::uint8_t { step, serve, either };

class Study {
 public:
  using Edit = std::function<void(Scenario&)>;
  Study(const CommonOptions& common, const std::string& scenario_path, const Edit& edit = {},
        StudyKind kind = StudyKind::step);
  Study(const Study&) = delete;
  Study& operator=(const Study&) = delete;

  const std::string& scenario_path() const { return path_; }  // as given, or the default's
  const Scenario& scenario() const { return scenario_; }
  const PluginRegistry& registry() const { return registry_; }
  const Session& session() const { return session_; }
  // The scenario's search plugin (plugins.search).
  std::shared_ptr<SearchStrategy> create_search() const;

 private:
  std::string path_;
  Scenario scenario_;
  PluginRegistry registry_;
  Session session_;
};

// The study's two report files, added to `outputs` (checked, their temporary files created):
// --csv / --json when given, else the scenario's report.csv / report.json (relative to the
// scenario file). nullptr for one that is not written.
struct ReportOutputs {
  OutputFile* csv = nullptr;
  OutputFile* json = nullptr;
};
ReportOutputs add_report_outputs(Outputs& outputs, const CommonOptions& common, const Study& study);

}  // namespace tessera::cli
