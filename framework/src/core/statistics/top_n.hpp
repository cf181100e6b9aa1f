#pragma once
// The best n of a stream of items by a strict weak order: a bounded max-heap with the worst kept
// on top, so each offer costs O(log n) and the memory stays n items.
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace tessera {

template <class T, class Less>
class TopN {
 public:
  // n 0 is taken as 1.
  TopN(std::size_t n, Less less) : n_(std::max<std::size_t>(1, n)), less_(std::move(less)) {
    heap_.reserve(n_);
  }
  void offer(const T& item) {
    if (heap_.size() == n_) {
      if (!less_(item, heap_.front())) return;
      std::pop_heap(heap_.begin(), heap_.end(), less_);
      heap_.back() = item;
    } else {
      heap_.push_back(item);
    }
    std::push_heap(heap_.begin(), heap_.end(), less_);
  }
  // The items held, in no particular order (offered again, they give the same collection).
  const std::vector<T>& items() const { return heap_; }
  // Best first; the collection is left empty.
  std::vector<T> take() {
    std::sort(heap_.begin(), heap_.end(), less_);
    return std::move(heap_);
  }

 private:
  std::size_t n_;
  Less less_;
  std::vector<T> heap_;
};

}  // namespace tessera
