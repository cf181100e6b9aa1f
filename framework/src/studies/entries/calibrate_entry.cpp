#include "studies/entries/calibrate_entry.hpp"

#include <filesystem>

#include "scenario/scenario_loader.hpp"
#include "studies/documents/calibration_document.hpp"
#include "studies/json/provenance.hpp"
#include "tessera/error.hpp"

namespace tessera::studies {

calibration::CalibrateOptions plan_calibration(const CalibrateOptions& options) {
  calibration::CalibrateOptions co = options.study;
  if (options.csv.empty())
    throw InputError("calibrate: name a measurements CSV (e.g. data/measurements.csv)");
  if (options.rounds < 1) throw InputError("calibrate: --rounds: expected an integer >= 1");
  if (options.min_sources < 1) throw InputError("calibrate: --min-sources: expected an integer >= 1");
  if (options.profile_key != "version" && options.profile_key != "framework")
    throw InputError("calibrate: --profile-key '" + options.profile_key + "': expected version or framework");
  co.rows.key_by_version = options.profile_key == "version";
  co.fit.optimizer.rounds = options.rounds;
  co.fit.min_sources = options.min_sources;
  co.latency = options.latency;
  co.rows.target = options.csv;
  const std::string& framework = options.framework;
  if (!framework.empty()) {
    const auto at = framework.find('@');
    co.rows.framework = framework.substr(0, at);
    co.rows.version = at == std::string::npos ? "" : framework.substr(at + 1);
    if (co.rows.framework.empty())
      throw InputError("calibrate: --framework '" + framework + "': expected NAME[@VERSION]");
  }
  if (options.folds) {
    co.folds.clear();
    for (const std::string& f : *options.folds) {
      if (f == "all") {
        co.folds = calibration::all_folds();
        continue;
      }
      calibration::FoldKind k;
      if (!calibration::parse_fold(f, k))
        throw InputError("calibrate: --folds '" + f +
                         "': expected in-sample, source, family, framework-version or all");
      co.folds.push_back(k);
    }
  }
  co.bands = options.bands;
  std::vector<std::string> every = options.csv;
  every.insert(every.end(), co.rows.extra.begin(), co.rows.extra.end());
  for (const std::string& path : every)
    if (!std::filesystem::exists(path)) throw InputError("calibrate: " + path + ": no such file");
  co.rows.data_root =
      std::filesystem::path(default_scenario_path(options.load)).parent_path().parent_path().string();
  return co;
}

CalibrateEntry::CalibrateEntry(const std::vector<std::string>& plugin_paths,
                               const std::vector<std::string>& overrides)
    : registry_(plugin_paths, true, overrides) {}

CalibrateResult CalibrateEntry::compute(const calibration::CalibrateOptions& plan,
                                        const std::optional<std::string>& command) const {
  CalibrateResult result{calibration::calibrate(registry_, plan), nullptr};
  if (command) result.document = calibration::calibration_json(result.calibration, *command, provenance());
  return result;
}

nlohmann::json CalibrateEntry::provenance() const { return provenance_json(registry_); }

std::string CalibrateEntry::provenance_comment() const { return tessera::provenance_comment(registry_); }

}  // namespace tessera::studies
