#include "eval/grid_pages.hpp"

#include <atomic>

namespace tessera {

std::shared_ptr<const GridPage> GridPageCache::find(std::uint64_t page) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  for (Entry& e : entries_)
    if (e.p && e.page == page) {
      e.used = ++clock_;
      return e.p;
    }
  return nullptr;
}

void GridPageCache::keep(std::uint64_t page, std::shared_ptr<const GridPage> p) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  Entry* oldest = &entries_[0];
  for (Entry& e : entries_) {
    if (e.p && e.page == page) return;  // another thread kept it first
    if (!e.p || e.used < oldest->used) oldest = &e;
    if (!oldest->p) break;
  }
  oldest->page = page;
  oldest->used = ++clock_;
  oldest->p = std::move(p);
}

namespace {

// Four pages per thread: a work unit's slice and the proposals it evaluates cross at most a
// page boundary or two at a time.
struct ThreadPages {
  struct Entry {
    std::uint64_t space = 0;
    std::uint64_t page = 0;
    std::shared_ptr<const GridPage> p;
  };
  std::array<Entry, 4> entries;
  unsigned next = 0;
};
thread_local ThreadPages t_pages;

}  // namespace

const GridPage* thread_page(std::uint64_t space, std::uint64_t page) {
  for (const auto& e : t_pages.entries)
    if (e.space == space && e.page == page && e.p) return e.p.get();
  return nullptr;
}

const GridPage* keep_thread_page(std::uint64_t space, std::uint64_t page, std::shared_ptr<const GridPage> p) {
  auto& e = t_pages.entries[t_pages.next];
  t_pages.next = (t_pages.next + 1) % t_pages.entries.size();
  e.space = space;
  e.page = page;
  e.p = std::move(p);
  return e.p.get();
}

std::uint64_t new_grid_id() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1);
}

}  // namespace tessera
