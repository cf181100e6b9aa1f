#pragma once
// The grid index in pages (eval/grid_space.hpp): a page holds, for a run of consecutive numeric
// tuples, where each tuple's valid configurations start and each one's offset in the
// discrete block. A grid whose whole index fits kResidentIndexBytes keeps every page; a larger
// one keeps only where each page starts (8 bytes per page) and rebuilds a page from the
// validity rules when it is read, holding a few recently read pages per thread and a few
// shared, so that memory does not grow with the space (docs/performance.md "Memory").
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace tessera {

// Above this many bytes of index the grid is paged (its pages rebuilt when read).
inline constexpr std::size_t kResidentIndexBytes = std::size_t{4} << 20;
// A page holds at most this many discrete-block slots (grid points) of its tuples.
inline constexpr std::uint64_t kPageGridPoints = 65536;

struct GridPage {
  std::uint64_t first_tuple = 0;
  std::uint64_t first = 0;                 // position of the page's first valid configuration
  std::vector<std::uint32_t> tuple_first;  // per tuple of the page, then its end: relative to `first`
  std::vector<std::uint16_t> slot16;       // per valid configuration: its offset in the block
  std::vector<std::uint32_t> slot32;       // the same when the block is wider than 65536
  std::uint32_t slot(std::uint64_t i) const { return slot32.empty() ? slot16[i] : slot32[i]; }
};

// The pages a paged grid read lately, shared by the threads: a thread that misses its own
// cache looks here before it rebuilds a page.
class GridPageCache {
 public:
  static constexpr std::size_t kShared = 16;
  std::shared_ptr<const GridPage> find(std::uint64_t page) const;
  void keep(std::uint64_t page, std::shared_ptr<const GridPage> p) const;

 private:
  struct Entry {
    std::uint64_t page = ~std::uint64_t{0};
    std::uint64_t used = 0;
    std::shared_ptr<const GridPage> p;
  };
  mutable std::mutex mutex_;
  mutable std::array<Entry, kShared> entries_{};
  mutable std::uint64_t clock_ = 0;
};

// The calling thread's last pages of the grid `space` (a process-unique id): null when absent.
const GridPage* thread_page(std::uint64_t space, std::uint64_t page);
// Keeps `p` as the calling thread's page `page` of `space` (evicting its oldest).
const GridPage* keep_thread_page(std::uint64_t space, std::uint64_t page, std::shared_ptr<const GridPage> p);
// A process-unique id for a new grid.
std::uint64_t new_grid_id();

}  // namespace tessera
