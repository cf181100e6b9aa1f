#include "analysis/calibration/data_term.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <unordered_map>

#include "core/cancellation.hpp"

namespace tessera::calibration {

namespace {

constexpr double kDelta = 0.1;
constexpr double kUnpredictable = 5;  // the error of a row that cannot be predicted: a 150x one

double huber(double x, double d = kDelta) {
  const double a = std::abs(x);
  return a <= d ? 0.5 * a * a : d * (a - 0.5 * d);
}

}  // namespace

double DataTerm::Cell::loss(double predicted) const {
  const auto n = static_cast<double>(rows);
  if (!(std::isfinite(predicted) && predicted > 0)) return n * huber(kUnpredictable);
  if (rows == 1) return huber(std::log(predicted / measured));
  // Σ huber(t - u) over the sorted u: linear beyond ±δ, quadratic inside, each part from the
  // prefix sums of the rows below t - δ, within [t - δ, t + δ] and above t + δ.
  const double t = std::log(predicted) - offset;
  const auto a = static_cast<std::size_t>(std::lower_bound(ln.begin(), ln.end(), t - kDelta) - ln.begin());
  const auto b = static_cast<std::size_t>(std::upper_bound(ln.begin(), ln.end(), t + kDelta) - ln.begin());
  const auto na = static_cast<double>(a), nb = static_cast<double>(b - a), nc = static_cast<double>(rows - b);
  const double below = kDelta * (na * (t - 0.5 * kDelta) - sum[a]);
  const double inside = 0.5 * (nb * t * t - 2 * t * (sum[b] - sum[a]) + (sq[b] - sq[a]));
  const double above = kDelta * ((sum[rows] - sum[b]) - nc * (t + 0.5 * kDelta));
  return below + inside + above;
}

DataTerm::DataTerm(const std::vector<const FitRow*>& rows, double extra_weight) {
  const DistinctRows d = distinct_predictions(rows);
  distinct_ = d.rows;
  predicted_.assign(distinct_.size(), 0.0);
  std::map<std::pair<std::string, std::string>, std::size_t> slice_of;
  for (std::size_t i = 0; i < distinct_.size(); ++i) {
    const FitRow& r = *distinct_[i];
    const auto [it, fresh] = slice_of.emplace(std::make_pair(r.family, r.profile_key()), slices_.size());
    if (fresh) {
      Slice sl;
      sl.family = r.family;
      sl.profile = r.profile_key();
      slices_.push_back(std::move(sl));
    }
    slices_[it->second].rows.push_back(i);
  }
  // Groups numbered in the order of their key, as the loss has always summed them.
  std::map<std::string, std::size_t> first_seen;
  std::vector<std::size_t> group_of(rows.size());
  std::vector<double> weight;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const FitRow& r = *rows[i];
    const auto [it, fresh] = first_seen.emplace(r.source + "\x1f" + r.profile_key(), weight.size());
    if (fresh) weight.push_back(0);
    weight[it->second] = r.extra ? extra_weight : 1.0;  // a group's last row decides
    group_of[i] = it->second;
  }
  std::vector<std::size_t> rank(weight.size());
  std::size_t next = 0;
  for (const auto& [key, id] : first_seen) rank[id] = next++;
  // Per group, its cells (one per prediction, in order of first row) with their rows' values.
  struct Building {
    std::size_t prediction;
    std::vector<double> measured;
  };
  std::vector<std::vector<Building>> cells(weight.size());
  std::vector<std::unordered_map<std::size_t, std::size_t>> cell_of(weight.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::size_t g = rank[group_of[i]];
    const auto [it, fresh] = cell_of[g].emplace(d.of_row[i], cells[g].size());
    if (fresh) cells[g].push_back({d.of_row[i], {}});
    cells[g][it->second].measured.push_back(rows[i]->measured);
  }
  group_weight_.resize(weight.size());
  for (const auto& [key, id] : first_seen) group_weight_[rank[id]] = weight[id];
  for (std::size_t g = 0; g < cells.size(); ++g) {
    std::size_t n = 0;
    for (Building& b : cells[g]) {
      Cell c;
      c.prediction = b.prediction;
      c.rows = b.measured.size();
      n += c.rows;
      if (c.rows == 1) {
        c.measured = b.measured.front();
      } else {
        for (double m : b.measured) c.ln.push_back(std::log(m));
        std::sort(c.ln.begin(), c.ln.end());
        c.offset = c.ln.front();
        c.sum.assign(1, 0.0);
        c.sq.assign(1, 0.0);
        for (double& u : c.ln) {
          u -= c.offset;
          c.sum.push_back(c.sum.back() + u);
          c.sq.push_back(c.sq.back() + u * u);
        }
      }
      cells_.push_back(std::move(c));
    }
    group_end_.push_back(cells_.size());
    group_rows_.push_back(static_cast<double>(n));
  }
}

double DataTerm::operator()(const FitState& state, const Predictor& predictor) {
  throw_if_cancelled();  // also when every prediction is kept
  // The slices whose values changed, predicted again in one call.
  static const std::map<std::string, double> kNone;
  std::vector<std::size_t> again;
  std::vector<const FitRow*> rows;
  for (Slice& sl : slices_) {
    const auto f = state.family.find(sl.family);
    const auto p = state.profile.find(sl.profile);
    const auto& fv = f == state.family.end() ? kNone : f->second;
    const bool has_p = p != state.profile.end();
    const auto& pv = has_p ? p->second : kNone;
    if (sl.known && sl.family_values == fv && sl.has_profile == has_p && sl.profile_values == pv) continue;
    sl.known = false;  // until predicted (a cancelled call leaves it unknown)
    for (std::size_t i : sl.rows) {
      again.push_back(i);
      rows.push_back(distinct_[i]);
    }
  }
  const std::vector<double> fresh = predictor.predict_distinct(rows, state);
  for (std::size_t k = 0; k < again.size(); ++k) predicted_[again[k]] = fresh[k];
  for (Slice& sl : slices_) {
    if (sl.known) continue;
    const auto f = state.family.find(sl.family);
    const auto p = state.profile.find(sl.profile);
    sl.family_values = f == state.family.end() ? kNone : f->second;
    sl.has_profile = p != state.profile.end();
    sl.profile_values = sl.has_profile ? p->second : kNone;
    sl.known = true;
  }
  const std::vector<double>& pred = predicted_;
  double total = 0;
  std::size_t c = 0;
  for (std::size_t g = 0; g < group_end_.size(); ++g) {
    double sum = 0;
    for (; c < group_end_[g]; ++c) sum += cells_[c].loss(pred[cells_[c].prediction]);
    total += group_weight_[g] * sum / group_rows_[g];
  }
  return total;
}

}  // namespace tessera::calibration
