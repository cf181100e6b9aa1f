#include "study.hpp"

#include "eval/plugin_check.hpp"
#include "scenario/scenario_loader.hpp"

namespace tessera::cli {
namespace {

// A serve scenario for a step command, or a step scenario for `tessera serve`: refused at the
// scenario's `workload.mode` (the file alone when the mode's line is unknown).
void require_kind(const Scenario& s, const std::string& path, StudyKind kind) {
  const bool serve = s.workload.mode == Mode::serve;
  if (kind == StudyKind::either || serve == (kind == StudyKind::serve)) return;
  SourceLocation where = s.mode_where;
  if (where.file.empty()) where = SourceLocation{s.file.empty() ? path : s.file, 0, 0};
  throw InputErrors({Diagnostic{where, serve ? "workload.mode is serve: use `tessera serve`"
                                             : "tessera serve needs workload.mode: serve"}});
}

Scenario load_edited(const std::string& path, const LoadOptions& options, const Study::Edit& edit,
                     StudyKind kind) {
  Scenario s = load_scenario(path, options);
  if (edit) edit(s);
  require_kind(s, path, kind);
  return s;
}

// Every plugin problem of the scenario at once (as `validate` reports them), before a session
// creates any plugin.
const PluginRegistry& checked(const PluginRegistry& registry, const Scenario& scenario) {
  require_scenario_plugins(scenario, registry);
  return registry;
}

}  // namespace

Study::Study(const CommonOptions& common, const std::string& scenario_path, const Edit& edit, StudyKind kind)
    : path_(scenario_path.empty() ? default_scenario_path(common.load_options()) : scenario_path),
      scenario_(load_edited(path_, common.load_options(), edit, kind)),
      registry_(common.plugin_paths, true, common.plugin_overrides),
      session_(scenario_, checked(registry_, scenario_)) {}

std::shared_ptr<SearchStrategy> Study::create_search() const {
  return registry_.create_search(scenario_.plugins.search);
}

ReportOutputs add_report_outputs(Outputs& outputs, const CommonOptions& common, const Study& study) {
  const ReportSpec& report = study.scenario().report;
  ReportOutputs r;
  r.csv = !common.csv.empty() ? outputs.add("--csv", common.csv)
                              : outputs.add("report.csv", report.csv, study.scenario_path());
  r.json = !common.json.empty() ? outputs.add("--json", common.json)
                                : outputs.add("report.json", report.json, study.scenario_path());
  return r;
}

}  // namespace tessera::cli
