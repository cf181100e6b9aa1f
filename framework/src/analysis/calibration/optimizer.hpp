#pragma once
// Minimising a loss over transformed parameters: a coordinate search (a coarse scan of each
// parameter's whole range, then a golden-section search around the best scan point, which sees
// past the plateaus of max() terms) followed by Nelder-Mead, repeated until a round stops
// improving.
#include <functional>
#include <vector>

#include "analysis/calibration/fit_parameters.hpp"
#include "tessera/export.hpp"

namespace tessera::calibration {

struct OptimizerOptions {
  int rounds = 4;
  int sweeps = 6;              // coordinate-search sweeps per round
  int evals_per_round = 3000;  // Nelder-Mead evaluations per round
};

using Objective = std::function<double(const std::vector<double>&)>;

// Returns the best point; `best` its value.
TESSERA_API std::vector<double> nelder_mead(const Objective& f, std::vector<double> x0, double step,
                                            int max_evals, double& best);
TESSERA_API std::vector<double> coordinate_search(const Objective& f, std::vector<double> x,
                                                  const std::vector<Transform>& transforms, int sweeps,
                                                  double& best);
TESSERA_API std::vector<double> minimise(const Objective& f, std::vector<double> x,
                                         const std::vector<Transform>& transforms, const OptimizerOptions& o,
                                         double& best);

}  // namespace tessera::calibration
