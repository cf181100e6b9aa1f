#pragma once
// Fitting a latency model's family and profile values to rows. Loss: every (source, profile)
// group weighs the same (an --extra group `extra_weight`), the mean over its rows of a Huber
// loss (δ = 0.1) of ln(predicted/measured), plus a steep wall outside each value's documented
// range and a weak pull towards its start (so that values the rows do not constrain stay
// there). A family is fitted when it has rows; a profile when its rows come from at least
// `min_sources` independent sources (a value set by one source alone is not shipped); the
// others keep the plugin's values.
#include <string>
#include <vector>

#include "analysis/calibration/fit_parameters.hpp"
#include "analysis/calibration/fit_rows.hpp"
#include "analysis/calibration/fit_state.hpp"
#include "analysis/calibration/optimizer.hpp"
#include "tessera/export.hpp"

namespace tessera::calibration {

struct FitOptions {
  OptimizerOptions optimizer;
  double extra_weight = 0.5;           // an --extra group's weight (a target group weighs 1)
  double profile_prior_weight = 1e-5;  // a nudge only
  double family_prior_weight = 3e-3;   // keeps the efficiencies physical
  std::size_t min_sources = 2;         // sources a profile's rows must come from to be fitted
};

struct FittedValue {
  ParamOwner owner = ParamOwner::family;
  std::string group;  // the family or the profile key
  std::string name;
  double value = 0;      // SI
  bool on_wall = false;  // at the edge of its documented range: the rows push it further
};

struct FitResult {
  FitState state;
  std::vector<FittedValue> values;  // family values first, in table order
  std::vector<std::string> notes;   // profiles left unfitted and why
  double loss = 0;
  std::size_t parameters() const { return values.size(); }
};

// The fitted parameters `rows` would get, without fitting: refusing a fit with more parameters
// than rows needs the count first.
TESSERA_API std::size_t count_parameters(const std::vector<const FitRow*>& rows,
                                         const std::vector<FitParameter>& table, const FitOptions& o);

TESSERA_API FitResult fit(const std::vector<const FitRow*>& rows, const std::vector<FitParameter>& table,
                          const Predictor& predictor, const FitOptions& o);

// The loss of `state` on `rows` without penalties (the fit's data term).
TESSERA_API double data_loss(const std::vector<const FitRow*>& rows, const FitState& state,
                             const Predictor& predictor, double extra_weight);

}  // namespace tessera::calibration
