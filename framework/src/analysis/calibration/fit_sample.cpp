#include "analysis/calibration/fit_sample.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_set>

namespace tessera::calibration {

FitSample fit_sample(const std::vector<const FitRow*>& rows, std::size_t limit) {
  const DistinctRows d = distinct_predictions(rows);
  FitSample s;
  s.of = d.rows.size();
  if (s.of <= limit) {
    s.rows = rows;
    s.predictions = s.of;
    return s;
  }
  // Per group (the loss's: source and profile), its distinct predictions in order of first row.
  std::map<std::string, std::size_t> group_of;
  std::vector<std::vector<std::size_t>> groups;  // in order of first row
  std::unordered_set<std::size_t> seen;          // group x prediction
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto [it, fresh] =
        group_of.try_emplace(rows[i]->source + "\x1f" + rows[i]->profile_key(), groups.size());
    if (fresh) groups.emplace_back();
    if (seen.insert(it->second * d.rows.size() + d.of_row[i]).second)
      groups[it->second].push_back(d.of_row[i]);
  }
  // The share t: the largest with sum over groups of min(size, t) <= limit (at least 1).
  auto used = [&](std::size_t t) {
    std::size_t n = 0;
    for (const auto& g : groups) n += std::min(g.size(), t);
    return n;
  };
  std::size_t lo = 1, hi = std::max<std::size_t>(limit, 1);
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo + 1) / 2;
    if (used(mid) <= limit)
      lo = mid;
    else
      hi = mid - 1;
  }
  std::vector<char> picked(d.rows.size(), 0);
  const std::size_t n_groups = groups.size();
  if (n_groups > limit) {
    // More groups than the limit: `limit` groups, evenly spaced, their first prediction each (the
    // loss weighs every group the same, so these are a sample of it too).
    for (std::size_t j = 0; j < limit; ++j) picked[groups[(2 * j + 1) * n_groups / (2 * limit)].front()] = 1;
  } else {
    for (const auto& g : groups) {
      const std::size_t n = g.size(), q = std::min(n, lo);
      for (std::size_t j = 0; j < q; ++j) picked[g[(2 * j + 1) * n / (2 * q)]] = 1;
    }
  }
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (picked[d.of_row[i]]) s.rows.push_back(rows[i]);
  s.predictions = static_cast<std::size_t>(std::count(picked.begin(), picked.end(), 1));
  return s;
}

}  // namespace tessera::calibration
