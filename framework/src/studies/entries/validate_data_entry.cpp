#include "studies/entries/validate_data_entry.hpp"

#include <algorithm>
#include <filesystem>

#include "host/plugin_defaults.hpp"
#include "host/plugin_roles.hpp"
#include "studies/documents/accuracy_document.hpp"
#include "studies/json/provenance.hpp"
#include "tessera/error.hpp"

namespace tessera::studies {

const char* default_validation_serving() { return plugin_defaults::kValidationServing; }

ValidateDataEntry::ValidateDataEntry(const std::vector<std::string>& plugin_paths,
                                     const std::vector<std::string>& overrides)
    : registry_(std::make_shared<PluginRegistry>(plugin_paths, true, overrides)) {}

ValidateDataEntry::ValidateDataEntry(std::shared_ptr<PluginRegistry> registry)
    : registry_(std::move(registry)) {}

accuracy::ValidateOptions ValidateDataEntry::plan(const ValidateDataOptions& o) const {
  accuracy::ValidateOptions vo;
  vo.on_progress = o.on_progress;
  vo.latency = o.latency;
  if (vo.latency.empty()) {
    vo.latency = registry_->names(PluginKind::latency);
    if (o.measured_last)
      std::stable_partition(vo.latency.begin(), vo.latency.end(), [&](const std::string& n) {
        return fallback_of(*registry_, n).empty();  // a model with a fallback after the rest
      });
  }
  if (vo.latency.empty()) throw Error(o.who + ": no latency plugin found");
  vo.latency_only = o.latency_only;
  vo.aliases = o.aliases;
  vo.serving = o.serving == "none" ? "" : o.serving;
  vo.simulate = o.simulate;
  // The data root (models/, machines/, data/) is the folder of the default scenarios/.
  vo.data_root = std::filesystem::path(default_scenario_path(o.load)).parent_path().parent_path().string();
  return vo;
}

std::vector<accuracy::ModelReport> ValidateDataEntry::compute(const std::string& csv,
                                                              const accuracy::ValidateOptions& plan) const {
  const auto rows = accuracy::read_measurements(csv);
  return accuracy::validate_data(rows, *registry_, plan);
}

nlohmann::json ValidateDataEntry::document(const std::vector<accuracy::ModelReport>& reports,
                                           const std::optional<std::string>& command) const {
  nlohmann::json j = accuracy::reports_document(reports);
  if (command) j["command"] = *command;           // the command that produced it
  j["provenance"] = provenance_json(*registry_);  // what produced it (docs/report.md)
  return j;
}

}  // namespace tessera::studies
