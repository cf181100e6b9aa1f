#pragma once
// `--scopes LIST` (full, attention; comma-separated or repeated), else the scenario's
// report.scopes: the scopes a study's report flips between (docs/report.md "Both scopes in one
// page"). The study runs once more per listed scope other than the scenario's own, on a copy of
// the scenario with that workload.scope, for --json's by_scope and the HTML report
// (studies/documents/scope_documents.hpp); the text tables and --csv stay of the scenario's own scope.
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "studies/study_context.hpp"
#include "tessera/workload.hpp"

namespace tessera::cli {

// Adds --scopes to `desc`, its names into `raw`.
void add_scopes_option(boost::program_options::options_description& desc, std::vector<std::string>& raw);

// The listed scopes: --scopes when given (InputError on a name other than full or attention),
// else the scenario's report.scopes.
std::vector<Scope> listed_scopes(const std::vector<std::string>& raw, const Scenario& scenario);

using studies::with_scope;

}  // namespace tessera::cli
