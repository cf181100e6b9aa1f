#pragma once
// The CLI's side of a study's preamble (studies/study_context.hpp holds the preamble itself, the
// same under Python): the scenario options built from the parsed command line, and the study's
// two report files.
#include <string>

#include "common_options.hpp"
#include "output_files.hpp"
#include "studies/plugin_isolation.hpp"
#include "studies/study_context.hpp"

namespace tessera::cli {

using studies::StudyKind;
using Study = studies::StudyContext;

// The scenario (SCENARIO or the default; --set, --model, --machine) and the plugins
// (--plugin-path, --plugin-override) of the command line.
studies::ScenarioOptions scenario_options(const CommonOptions& common, const std::string& scenario_path);

// The study of the command line, its mode checked against `kind` (studies::StudyContext):
// errors propagate to run_guarded (exit codes).
// `workers`: where the study's isolated workers are started (null: none).
Study open_study(const CommonOptions& common, const std::string& scenario_path, const Study::Edit& edit = {},
                 StudyKind kind = StudyKind::step, studies::StudyWorkers* workers = nullptr);

// The study's two report files, added to `outputs` (checked, their temporary files created):
// --csv / --json when given, else the scenario's report.csv / report.json (relative to the
// scenario file). nullptr for one that is not written.
struct ReportOutputs {
  OutputFile* csv = nullptr;
  OutputFile* json = nullptr;
};
ReportOutputs add_report_outputs(Outputs& outputs, const CommonOptions& common, const Study& study);

}  // namespace tessera::cli
