#include "study_options.hpp"

#include "scope_option.hpp"

namespace tessera::cli {

void declare_study_options(StudyCommandOptions& o, const StudyOptionSpec& spec, const OwnOptions& own) {
  if (spec.own_first && own) own(o.desc.add_options());
  add_common_options(o.desc, o.common, spec.common_flags);
  po::options_description& scenario_in = spec.scenario_listed ? o.desc : o.hidden;
  if (spec.scenario_listed)
    scenario_in.add_options()("scenario", po::value<std::string>(&o.scenario_path), spec.scenario_help);
  if (!spec.own_first && own) own(o.desc.add_options());
  add_scopes_option(o.desc, o.scopes_raw);
  add_chart_options(o.desc, o.charts, spec.charts);
  add_terminal_options(o.desc, o.term, spec.plot);
  if (!spec.scenario_listed)
    scenario_in.add_options()("scenario", po::value<std::string>(&o.scenario_path), spec.scenario_help);
}

bool parse_study_options(const Args& args, StudyCommandOptions& o, const std::string& usage,
                         const std::string& examples) {
  return parse_or_help(args, o.desc, o.hidden, "scenario", 1, o.common, usage, examples);
}

}  // namespace tessera::cli
