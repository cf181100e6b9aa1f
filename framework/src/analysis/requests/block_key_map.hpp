#pragma once
// A map of 64-bit keys (never 0, already well mixed: prefix_cache.cpp's owner_key) to 64-bit
// values: the prefix cache's index of prefix groups and conversations. Open addressing with linear
// probing in a power-of-two table kept at most half full; entries are never removed. No allocation
// per entry.
#include <cstdint>
#include <vector>

namespace tessera::requests {

class BlockKeyMap {
 public:
  explicit BlockKeyMap(std::size_t expected = 16) {
    std::size_t n = 16;
    while (n < 2 * expected) n *= 2;
    keys_.assign(n, 0);
    values_.assign(n, 0);
  }

  // The value of `key`, or nullptr.
  std::uint64_t* find(std::uint64_t key) {
    for (std::size_t i = key & mask();; i = (i + 1) & mask()) {
      if (keys_[i] == key) return &values_[i];
      if (keys_[i] == 0) return nullptr;
    }
  }
  const std::uint64_t* find(std::uint64_t key) const { return const_cast<BlockKeyMap*>(this)->find(key); }
  bool contains(std::uint64_t key) const { return find(key) != nullptr; }
  // Adds `key` with `value`; false (nothing changed) when it is there.
  bool insert(std::uint64_t key, std::uint64_t value) {
    if (2 * (size_ + 1) > keys_.size()) grow();
    std::size_t i = key & mask();
    for (; keys_[i] != 0; i = (i + 1) & mask())
      if (keys_[i] == key) return false;
    keys_[i] = key;
    values_[i] = value;
    ++size_;
    return true;
  }
  std::size_t size() const { return size_; }

 private:
  std::size_t mask() const { return keys_.size() - 1; }
  void grow() {
    std::vector<std::uint64_t> keys(keys_.size() * 2, 0), values(keys_.size() * 2, 0);
    keys.swap(keys_);
    values.swap(values_);
    size_ = 0;
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i] != 0) insert(keys[i], values[i]);
  }

  std::vector<std::uint64_t> keys_, values_;
  std::size_t size_ = 0;
};

}  // namespace tessera::requests
