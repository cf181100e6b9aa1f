#pragma once
// A seeded reservoir sample (Vitter's Algorithm R) of at most `capacity` items of a stream:
// the first `capacity` items are kept, after that item n (0-based) replaces a uniformly drawn
// slot with probability capacity/(n+1). The draws come from SplitMix64 on a fixed seed, so the
// same stream gives the same sample on every platform and thread count. The buffer is
// reserved once: offering an item never allocates.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tessera {

template <class T>
class Reservoir {
 public:
  static constexpr std::uint64_t kDefaultSeed = 0x7e55e7a0d15c0u;

  explicit Reservoir(std::size_t capacity, std::uint64_t seed = kDefaultSeed)
      : capacity_(capacity), state_(seed) {
    items_.reserve(capacity);
  }

  void offer(const T& item) {
    const std::uint64_t n = seen_++;
    if (items_.size() < capacity_) {
      items_.push_back(item);
      return;
    }
    if (capacity_ == 0) return;
    const std::uint64_t slot = next() % (n + 1);
    if (slot < capacity_) items_[static_cast<std::size_t>(slot)] = item;
  }

  std::uint64_t seen() const { return seen_; }        // items offered
  bool sampled() const { return seen_ > capacity_; }  // some were left out
  std::size_t capacity() const { return capacity_; }
  const std::vector<T>& items() const { return items_; }
  std::vector<T> take() { return std::exchange(items_, {}); }
  // The draws' state, and the sample restored to a state read back (a checkpoint,
  // core/checkpoint/study_checkpoint.hpp): offering the rest of the stream then gives the
  // sample an uninterrupted stream gives.
  std::uint64_t draw_state() const { return state_; }
  void restore(std::vector<T> items, std::uint64_t seen, std::uint64_t draw_state) {
    items_ = std::move(items);
    items_.reserve(capacity_);
    seen_ = seen;
    state_ = draw_state;
  }

 private:
  // SplitMix64 (Steele, Lea, Flood 2014).
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
  }

  std::size_t capacity_;
  std::uint64_t state_;
  std::uint64_t seen_ = 0;
  std::vector<T> items_;
};

}  // namespace tessera
