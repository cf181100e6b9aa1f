#include "analysis/calibration/fit_sample.hpp"

#include <algorithm>
#include <map>
#include <set>
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
  // Per group (the loss's source and profile, split by the family and whether its GEMMs are 8-bit:
  // the fitted values each of those owns), its distinct predictions in order of first row.
  std::map<std::string, std::size_t> group_of;
  std::vector<std::vector<std::size_t>> groups;  // in order of first row
  std::vector<std::vector<std::string>> owners;  // per group: the value sets its rows inform
  std::unordered_set<std::size_t> seen;          // group x prediction
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const FitRow& r = *rows[i];
    const std::string bits = eight_bit_gemms(r) ? "8" : "";
    const auto [it, fresh] = group_of.try_emplace(
        r.source + "\x1f" + r.profile_key() + "\x1f" + r.family + "\x1f" + bits, groups.size());
    if (fresh) {
      groups.emplace_back();
      owners.push_back(
          {"profile " + r.profile_key(), "family " + r.family, "family " + r.family + " " + bits});
    }
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
    // loss weighs every group the same, so these are a sample of it too), then the first
    // prediction of the first group of each profile, family and 8-bit family left out (every
    // fitted value keeps rows that inform it).
    std::set<std::string> covered;
    std::vector<char> taken(n_groups, 0);
    for (std::size_t j = 0; j < limit; ++j) taken[(2 * j + 1) * n_groups / (2 * limit)] = 1;
    for (std::size_t g = 0; g < n_groups; ++g)
      if (taken[g]) covered.insert(owners[g].begin(), owners[g].end());
    for (std::size_t g = 0; g < n_groups; ++g)
      for (const std::string& o : owners[g])
        if (!taken[g] && !covered.count(o)) {
          taken[g] = 1;
          covered.insert(owners[g].begin(), owners[g].end());
        }
    for (std::size_t g = 0; g < n_groups; ++g)
      if (taken[g]) picked[groups[g].front()] = 1;
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
