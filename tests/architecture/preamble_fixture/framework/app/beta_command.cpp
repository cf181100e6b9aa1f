// Fixture of option_preamble_check_test.py: the same four statements, laid out otherwise.
int beta_command(const Args& args) {
  return run_guarded([&]() -> int {
    std::string top_text;
    po::options_description desc("Options");
    add_common_options(desc, common, kOptAll);
    std::string scenario_path;
    std::vector<std::string> scopes_raw;
    if (!parse_or_help(args, desc, po::options_description(), "scenario", 1, common, kUsage, kExamples))
      return kExitOk;
    return kExitOk;
  });
}
