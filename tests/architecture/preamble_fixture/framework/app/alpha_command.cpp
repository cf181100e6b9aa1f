// Fixture of option_preamble_check_test.py: a command whose preamble beta_command.cpp repeats.
int alpha_command(const Args& args) {
  return run_guarded([&]() -> int {
    CommonOptions common;
    po::options_description desc("Options");
    add_common_options(desc, common, kOptAll);
    std::string scenario_path;
    std::vector<std::string> scopes_raw;  // a comment is not part of a statement
    add_scopes_option(desc, scopes_raw);
    if (!parse_or_help(args, desc, po::options_description(), "scenario", 1, common, kUsage, kExamples))
      return kExitOk;
    return kExitOk;
  });
}
