#pragma once
// One function per subcommand; each parses its own options (Boost.Program_options) and
// returns the exit status: 0 ok, 1 failed while running, 2 bad input.
#include <string>
#include <vector>

namespace tessera::cli {

using Args = std::vector<std::string>;  // the arguments after the subcommand name

int run_command(const Args& args);
int serve_command(const Args& args);
int explain_command(const Args& args);
int compare_command(const Args& args);
int sensitivity_command(const Args& args);
int explore_command(const Args& args);
int plugins_command(const Args& args);
int validate_command(const Args& args);
int validate_data_command(const Args& args);
int calibrate_command(const Args& args);
int schema_command(const Args& args);
int report_command(const Args& args);
// Not listed: the worker process of Python's isolated evaluate() (evaluate_batch_command.cpp).
int evaluate_batch_command(const Args& args);

}  // namespace tessera::cli
