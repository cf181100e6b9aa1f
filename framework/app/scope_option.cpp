#include "scope_option.hpp"

#include "name_list.hpp"
#include "tessera/error.hpp"

namespace tessera::cli {

void add_scopes_option(boost::program_options::options_description& desc, std::vector<std::string>& raw) {
  desc.add_options()(
      "scopes",
      boost::program_options::value<std::vector<std::string>>(&raw)->composing()->value_name("LIST"),
      "also study these scopes (full, attention; comma-separated) for the report, which flips "
      "between them, and --json's by_scope (default: the scenario's report.scopes)");
}

std::vector<Scope> listed_scopes(const std::vector<std::string>& raw, const Scenario& scenario) {
  if (raw.empty()) return scenario.report.scopes;
  std::vector<Scope> out;
  for (const std::string& name : split_names(raw)) {
    if (name == "full")
      out.push_back(Scope::full);
    else if (name == "attention")
      out.push_back(Scope::attention);
    else
      throw InputError("--scopes: " + name + ": expected full or attention");
  }
  return out;
}

}  // namespace tessera::cli
