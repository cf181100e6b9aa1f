#pragma once
// The data term of a fit: every (source, profile) group weighs the same (an --extra group
// `extra_weight`), the mean over its rows of a Huber loss (δ = 0.1) of ln(predicted/measured); a
// row that cannot be predicted costs as much as a 150x error. Built once per fit, evaluated once
// per optimiser step: rows that predict alike (FitRow::predicts_as) are predicted once, and the
// rows of one group that share a prediction are summed from their sorted ln(measured) with
// prefix sums, so a step costs the distinct predictions, not the rows (a CSV that repeats 300
// rows 700 times costs what the 300 rows do); and a prediction is made again only when the
// values it depends on (its family's and its profile's, Predictor::predict) changed since the
// last step (a coordinate step moves one value: the other families' and profiles' rows keep
// theirs).
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "analysis/calibration/fit_rows.hpp"
#include "analysis/calibration/fit_state.hpp"
#include "tessera/export.hpp"

namespace tessera::calibration {

class TESSERA_API DataTerm {
 public:
  DataTerm(const std::vector<const FitRow*>& rows, double extra_weight);

  // The loss of `state`; polls the cancellation token (Predictor::predict). Keeps the
  // predictions for the next call (one Predictor per DataTerm).
  double operator()(const FitState& state, const Predictor& predictor);

  std::size_t predictions() const { return distinct_.size(); }

 private:
  // The rows of one group with one prediction.
  struct Cell {
    std::size_t prediction = 0;  // index into distinct_
    std::size_t rows = 0;
    double measured = 0;          // rows == 1: the row's value (the loss as one row's)
    std::vector<double> ln;       // rows > 1: ln(measured) - ln.front(), sorted
    std::vector<double> sum, sq;  // their prefix sums and sums of squares (size rows + 1)
    double offset = 0;            // ln.front() before the shift
    double loss(double predicted) const;
  };
  // Distinct predictions that depend on the same values: one family's and one profile's.
  struct Slice {
    std::string family, profile;
    std::vector<std::size_t> rows;  // indices into distinct_
    bool known = false;             // `values` and the rows' predictions are from an earlier call
    std::map<std::string, double> family_values, profile_values;
    bool has_profile = false;
  };
  std::vector<const FitRow*> distinct_;
  std::vector<double> predicted_;  // per distinct_
  std::vector<Slice> slices_;
  std::vector<Cell> cells_;  // by group, in the order of each cell's first row
  // Groups in the order of their key (source, profile): cells_[end[g - 1], end[g]) are group g's.
  std::vector<std::size_t> group_end_;
  std::vector<double> group_weight_, group_rows_;
};

}  // namespace tessera::calibration
