#pragma once
// --isolate-plugins / --no-isolate (docs/plugin-guide.md "What the host guarantees"): whether a
// study's work units run in isolated worker processes (studies/plugin_isolation.hpp). Neither
// given: isolated when a plugin the scenario uses comes from outside the shipped plugin folder.
#include <boost/program_options.hpp>
#include <string>

#include "commands.hpp"
#include "studies/plugin_isolation.hpp"

namespace tessera::cli {

namespace po = boost::program_options;

struct IsolationFlags {
  bool on = false;
  bool off = false;
};

void add_isolation_options(po::options_description_easy_init add, IsolationFlags& flags);

// The workers of `command` (its arguments `args`): each runs `tessera COMMAND ARGS`, on `threads`
// workers (0: one per hardware thread), computing `share` (a whole study's worker writes to this
// process's results descriptor). Both flags given: an InputError.
studies::WorkerCommand worker_command(const IsolationFlags& flags, const std::string& command,
                                      const Args& args, unsigned threads,
                                      studies::WorkerShare share = studies::WorkerShare::units);

}  // namespace tessera::cli
