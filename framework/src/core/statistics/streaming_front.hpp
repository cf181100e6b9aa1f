#pragma once
// The Pareto frontier of a stream of items, exact, in O(frontier + buffer) memory.
//
// Items dominated by a point of the frontier found so far are dropped at once (they cannot be on
// the final frontier: a point dominated in A is dominated in A ∪ B); the others are buffered and
// merged with the frontier once the buffer is as large as the frontier (at least kMinMerge), so
// the work stays O(N log N). Exact: a point dominated in A ∪ B is dominated by a point of
// front(A) ∪ B (dominance is transitive), so front(A ∪ B) = front(front(A) ∪ B); identical points
// do not dominate each other and are all kept, as pareto_front() does over the whole set.
#include <algorithm>
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "core/statistics/pareto.hpp"
#include "tessera/kinds/objective.hpp"

namespace tessera {

// `Values` maps an item to its k objective values (anything indexable: values(item)[j]).
template <class T, class Values>
class StreamingFront {
 public:
  static constexpr std::size_t kMinMerge = 1024;
  // The quick check runs against frontiers up to this size (k compares per point each).
  static constexpr std::size_t kMaxQuickCheck = 64;

  StreamingFront(std::vector<Direction> directions, Values values)
      : dirs_(std::move(directions)), values_of_(std::move(values)) {}

  void offer(const T& item) {
    if (front_.size() <= kMaxQuickCheck)
      for (const T& f : front_)
        if (dominates(f, item)) return;
    pending_.push_back(item);
    if (pending_.size() >= std::max(kMinMerge, front_.size())) merge();
  }
  // The items held (the frontier so far and those not yet merged into it), in no particular
  // order: offered again to an empty collection, they give the same frontier.
  std::vector<T> items() const {
    std::vector<T> all = front_;
    all.insert(all.end(), pending_.begin(), pending_.end());
    return all;
  }
  // The frontier, sorted by `order`; the collection is left empty.
  template <class Order>
  std::vector<T> take(Order order) {
    merge();
    std::sort(front_.begin(), front_.end(), order);
    return std::move(front_);
  }

 private:
  // a no worse in every objective and better in one (directions applied); false with a NaN.
  bool dominates(const T& a, const T& b) const {
    const auto& va = values_of_(a);
    const auto& vb = values_of_(b);
    bool strict = false;
    for (std::size_t j = 0; j < dirs_.size(); ++j) {
      const double x = oriented(va[j], dirs_[j]), y = oriented(vb[j], dirs_[j]);
      if (!(x <= y)) return false;
      if (x < y) strict = true;
    }
    return strict;
  }
  void merge() {
    if (pending_.empty()) return;
    const std::size_t k = dirs_.size();
    front_.insert(front_.end(), pending_.begin(), pending_.end());
    pending_.clear();
    values_.clear();
    values_.reserve(front_.size() * k);
    for (const T& item : front_) {
      const auto& v = values_of_(item);
      for (std::size_t j = 0; j < k; ++j) values_.push_back(v[j]);
    }
    const std::vector<std::size_t> keep = pareto_front(values_, k, dirs_);
    std::size_t w = 0;
    for (std::size_t i : keep) front_[w++] = front_[i];
    front_.resize(w);
  }

  std::vector<Direction> dirs_;
  Values values_of_;
  std::vector<T> front_, pending_;
  std::vector<double> values_;
};

}  // namespace tessera
