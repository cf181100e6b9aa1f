#include "study.hpp"

namespace tessera::cli {

studies::ScenarioOptions scenario_options(const CommonOptions& common, const std::string& scenario_path) {
  studies::ScenarioOptions o;
  o.path = scenario_path;
  o.load = common.load_options();
  o.plugin_paths = common.plugin_paths;
  o.plugin_overrides = common.plugin_overrides;
  studies::apply_worker_scenario(o);  // a worker of Python's Scenario.run: the scenario its parent passed
  return o;
}

Study open_study(const CommonOptions& common, const std::string& scenario_path, const Study::Edit& edit,
                 StudyKind kind, studies::StudyWorkers* workers) {
  studies::ScenarioOptions options = scenario_options(common, scenario_path);
  if (workers)
    options.before_session = [workers](const Scenario& scenario, bool added) {
      workers->before_session(scenario, added);
    };
  return Study(options, edit, kind);
}

ReportOutputs add_report_outputs(Outputs& outputs, const CommonOptions& common, const Study& study) {
  const ReportSpec& report = study.scenario().report;
  // A worker of the Python module writes only the document it is asked for (--json -), never the
  // scenario's report files, as the module's studies in one process do not.
  const bool scenario_files = studies::worker_setting("report_files") != "0";
  ReportOutputs r;
  r.csv = !common.csv.empty()
              ? outputs.add("--csv", common.csv)
              : (scenario_files ? outputs.add("report.csv", report.csv, study.scenario_path()) : nullptr);
  r.json = !common.json.empty()
               ? outputs.add("--json", common.json)
               : (scenario_files ? outputs.add("report.json", report.json, study.scenario_path()) : nullptr);
  return r;
}

}  // namespace tessera::cli
