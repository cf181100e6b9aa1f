// Fixture of option_preamble_check_test.py: a thin command (the façade's shape); the statements
// after the parse call are not its preamble.
int gamma_command(const Args& args) {
  return run_guarded([&]() -> int {
    StudyCommandOptions o;
    declare_study_options(o, {.charts = "the gamma chart"});
    if (!parse_study_options(args, o, kUsage, kExamples)) return kExitOk;
    po::options_description desc("Options");
    add_common_options(desc, common, kOptAll);
    std::string scenario_path;
    std::vector<std::string> scopes_raw;
    return kExitOk;
  });
}
