#include "core/text/nearest_name.hpp"

#include <algorithm>
#include <cctype>

namespace tessera {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> nearest_names(std::string_view name, const std::vector<std::string>& candidates) {
  // Allow about a third of the word to be wrong, at least 2 edits.
  const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(name, c);
    const bool prefix = !name.empty() && c.size() > name.size() && c.compare(0, name.size(), name) == 0;
    if (d <= limit || prefix) scored.emplace_back(prefix ? std::min(d, limit) : d, c);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [d, c] : scored) {
    if (out.size() == 3) break;
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  const auto near = nearest_names(name, candidates);
  if (near.empty()) return "";
  std::string s = " (did you mean '" + near[0] + "'";
  for (std::size_t i = 1; i < near.size(); ++i) s += (i + 1 == near.size() ? " or '" : ", '") + near[i] + "'";
  return s + "?)";
}

}  // namespace tessera
