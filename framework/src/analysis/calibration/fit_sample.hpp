#pragma once
// The rows a fit runs on when they hold more distinct predictions than the limit
// `calibrate.fit_predictions`: each group — the loss's (source, profile), split by machine family
// and by whether the row's GEMMs are 8-bit, the rows each fitted value rests on — keeps an equal
// share of the limit (a group smaller than its share keeps all of its predictions, the rest go to
// the others), its predictions picked evenly spaced in order of first appearance, with every row
// that shares a picked prediction. Deterministic: the same rows give the same sample.
#include <cstddef>
#include <vector>

#include "analysis/calibration/fit_rows.hpp"
#include "tessera/export.hpp"

namespace tessera::calibration {

struct FitSample {
  std::vector<const FitRow*> rows;  // the rows the fit runs on (all of them when within the limit)
  std::size_t predictions = 0;      // distinct predictions among `rows`
  std::size_t of = 0;               // distinct predictions among every row
  bool sampled() const { return predictions < of; }
};

// At most `limit` distinct predictions (`limit` >= 1). With more groups than `limit`, `limit`
// groups evenly spaced in order of first row, one prediction each, plus one of the first group of
// each profile, family and 8-bit family those leave out.
TESSERA_API FitSample fit_sample(const std::vector<const FitRow*>& rows, std::size_t limit);

}  // namespace tessera::calibration
