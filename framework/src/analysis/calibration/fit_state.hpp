#pragma once
// The values a calibration is at: per machine family the fitted machine-block values, per
// framework profile the fitted profile values (SI), and the predictor that turns a state and a
// row into the row's predicted value through the latency plugin (the registry creates it with
// the family values as its machine block and the profile values as profile overrides).
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/calibration/fit_parameters.hpp"
#include "analysis/calibration/fit_rows.hpp"
#include "host/plugin_registry.hpp"
#include "tessera/export.hpp"

namespace tessera::calibration {

struct FitState {
  std::map<std::string, std::map<std::string, double>> family;   // family -> name -> value
  std::map<std::string, std::map<std::string, double>> profile;  // profile key -> name -> value
};

class TESSERA_API Predictor {
 public:
  Predictor(const PluginRegistry& registry, std::string latency);
  ~Predictor();
  Predictor(const Predictor&) = delete;
  Predictor& operator=(const Predictor&) = delete;

  // One prediction per row in the row's unit (NaN when the configuration cannot run): the
  // row's family values replace its machine block's, its profile's values (when the state has
  // them) the plugin's profile: a row's prediction depends on `state` only through
  // state.family[row.family] and state.profile[row.profile_key()] (DataTerm relies on it). Rows
  // that predict alike (FitRow::predicts_as) are predicted once; the cancellation token is
  // polled every 64 predictions (throws Cancelled).
  std::vector<double> predict(const std::vector<const FitRow*>& rows, const FitState& state) const;
  // The same for rows already distinct (distinct_predictions' rows): one prediction each.
  std::vector<double> predict_distinct(const std::vector<const FitRow*>& rows, const FitState& state) const;

  const std::string& latency() const { return latency_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string latency_;
};

}  // namespace tessera::calibration
