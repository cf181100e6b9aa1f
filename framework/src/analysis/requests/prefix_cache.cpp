#include "analysis/requests/prefix_cache.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace tessera::requests {

namespace {

// SplitMix64's output function over (kind, id): an owner's key in the index (never 0).
std::uint64_t owner_key(std::uint64_t kind, std::uint64_t id) {
  std::uint64_t z = kind * 0x9e3779b97f4a7c15u ^ (id + 0x632be59bd9b4e019u) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  z ^= z >> 31;
  return z == 0 ? 1 : z;
}

}  // namespace

PrefixCache::PrefixCache(std::int64_t blocks, std::int64_t block_tokens, std::vector<OffloadTier> tiers,
                         bool write_through)
    : block_tokens_(block_tokens), write_through_(write_through), tiers_(std::move(tiers)) {
  if (blocks <= 0 || blocks > (std::int64_t{1} << 31) - 2 || block_tokens <= 0)
    throw std::invalid_argument("prefix cache: blocks must be from 1 to 2^31 - 2");
  if (tiers_.size() > 2) throw std::invalid_argument("prefix cache: at most two offload tiers");
  slots_.resize(static_cast<std::size_t>(blocks));
  for (std::int32_t s = 0; s < static_cast<std::int32_t>(blocks); ++s) push_back(s);
  tier_order_.resize(tiers_.size());
  tier_count_.assign(tiers_.size(), 0);
  loaded_blocks_.assign(tiers_.size(), 0);
}

std::int32_t PrefixCache::owner_of(std::uint64_t key, bool create) {
  if (const std::uint64_t* o = owner_index_.find(key)) return static_cast<std::int32_t>(*o);
  if (!create) return -1;
  owners_.emplace_back();
  owner_index_.insert(key, owners_.size() - 1);
  return static_cast<std::int32_t>(owners_.size() - 1);
}

PrefixCache::Owners PrefixCache::owners(const Request& r, bool create) {
  Owners w;
  if (r.prefix_id >= 0) {
    w.group_blocks = r.prefix_tokens / block_tokens_;
    w.group = owner_of(owner_key(1, static_cast<std::uint64_t>(r.prefix_id)), create);
  }
  if (r.conversation >= 0)
    w.conversation = owner_of(owner_key(2, static_cast<std::uint64_t>(r.conversation)), create);
  return w;
}

void PrefixCache::probe(const Request& r, std::int64_t tokens, CacheProbe& out) {
  out.hbm = out.evictable = 0;
  out.tier.assign(tiers_.size(), 0);
  const std::int64_t most = tokens > 0 ? (tokens - 1) / block_tokens_ : 0;
  const Owners w = owners(r, false);
  std::int64_t i = 0;
  for (; i < most; ++i) {
    const std::int32_t o = w.at(i);
    const std::int32_t s = o < 0 ? -1 : slot_of(o, i);
    if (s < 0) break;
    ++out.hbm;
    if (slots_[static_cast<std::size_t>(s)].refs == 0) ++out.evictable;
  }
  // Past the HBM hits, the tiers' leading blocks in turn (a block in any tier continues the run).
  for (; i < most; ++i) {
    const std::int32_t o = w.at(i);
    if (o < 0) return;
    std::size_t t = 0;
    while (t < tiers_.size() && !in_tier(t, o, i)) ++t;
    if (t == tiers_.size()) return;
    ++out.tier[t];
  }
}

std::int64_t PrefixCache::take_hits(BlockHold& h, const Request& r, const CacheProbe& p) {
  std::int64_t from_queue = 0;
  const Owners w = owners(r, false);
  for (std::int64_t i = 0; i < p.hbm; ++i) {
    const std::int32_t s = slot_of(w.at(i), i);
    Slot& slot = slots_[static_cast<std::size_t>(s)];
    if (slot.refs++ == 0) {
      unlink(s);
      ++from_queue;
    }
    h.slots.push_back(s);
  }
  h.registered = p.hbm;
  hit_blocks_ += p.hbm;
  return from_queue;
}

void PrefixCache::allocate(BlockHold& h, std::int64_t n) {
  for (std::int64_t j = 0; j < n; ++j) {
    const std::int32_t s = head_;
    if (s < 0) throw std::logic_error("prefix cache: no free block to allocate");
    unlink(s);
    evict(s);
    slots_[static_cast<std::size_t>(s)].refs = 1;
    h.slots.push_back(s);
  }
}

void PrefixCache::computed(BlockHold& h, const Request& r, std::int64_t computed) {
  const std::int64_t full = std::min<std::int64_t>(computed / block_tokens_, std::ssize(h.slots));
  if (h.registered >= full) return;
  const Owners w = owners(r, true);
  for (; h.registered < full; ++h.registered) {
    const std::int64_t i = h.registered;
    const std::int32_t o = w.at(i);
    // Not shareable, or another sequence registered it first: a private copy (as vLLM's duplicates).
    if (o < 0 || slot_of(o, i) >= 0) continue;
    set_slot(o, i, h.slots[static_cast<std::size_t>(i)]);
    if (write_through_ && !tiers_.empty()) offload(0, o, i);
  }
}

std::int64_t PrefixCache::release(BlockHold& h) {
  std::int64_t freed = 0;
  for (auto it = h.slots.rbegin(); it != h.slots.rend(); ++it) {
    Slot& slot = slots_[static_cast<std::size_t>(*it)];
    if (--slot.refs > 0) continue;
    push_back(*it);
    ++freed;
  }
  h.slots.clear();
  h.registered = 0;
  return freed;
}

void PrefixCache::count_loads(const CacheProbe& p) {
  for (std::size_t t = 0; t < p.tier.size(); ++t) loaded_blocks_[t] += p.tier[t];
}

void PrefixCache::set_slot(std::int32_t o, std::int64_t i, std::int32_t s) {
  Owner& w = owners_[static_cast<std::size_t>(o)];
  if (i >= std::ssize(w.slot)) w.slot.resize(static_cast<std::size_t>(i) + 1, -1);
  auto& cell = w.slot[static_cast<std::size_t>(i)];
  w.resident += (s >= 0) - (cell >= 0);
  cell = s;
  if (s >= 0) {
    slots_[static_cast<std::size_t>(s)].owner = o;
    slots_[static_cast<std::size_t>(s)].index = static_cast<std::int32_t>(i);
  }
  if (w.resident == 0) w = Owner{};  // nothing of it left: its arrays go
}

void PrefixCache::set_stamp(std::size_t t, std::int32_t o, std::int64_t i, std::uint64_t stamp) {
  Owner& w = owners_[static_cast<std::size_t>(o)];
  if (i >= std::ssize(w.stamp[t])) w.stamp[t].resize(static_cast<std::size_t>(i) + 1, 0);
  auto& cell = w.stamp[t][static_cast<std::size_t>(i)];
  w.resident += (stamp != 0) - (cell != 0);
  tier_count_[t] += (stamp != 0) - (cell != 0);
  cell = stamp;
  if (w.resident == 0) w = Owner{};
}

void PrefixCache::unlink(std::int32_t s) {
  Slot& slot = slots_[static_cast<std::size_t>(s)];
  if (slot.prev >= 0)
    slots_[static_cast<std::size_t>(slot.prev)].next = slot.next;
  else
    head_ = slot.next;
  if (slot.next >= 0)
    slots_[static_cast<std::size_t>(slot.next)].prev = slot.prev;
  else
    tail_ = slot.prev;
  slot.prev = slot.next = -1;
  --free_count_;
}

void PrefixCache::push_back(std::int32_t s) {
  Slot& slot = slots_[static_cast<std::size_t>(s)];
  slot.prev = tail_;
  slot.next = -1;
  if (tail_ >= 0)
    slots_[static_cast<std::size_t>(tail_)].next = s;
  else
    head_ = s;
  tail_ = s;
  ++free_count_;
}

void PrefixCache::evict(std::int32_t s) {
  Slot& slot = slots_[static_cast<std::size_t>(s)];
  if (slot.owner < 0) return;
  const std::int32_t o = slot.owner, i = slot.index;
  slot.owner = -1;
  if (!write_through_ && !tiers_.empty()) offload(0, o, i);
  set_slot(o, i, -1);
}

void PrefixCache::offload(std::size_t tier, std::int32_t o, std::int64_t i) {
  const bool there = in_tier(tier, o, i);
  if (!there && tiers_[tier].blocks <= 0) return;
  const std::uint64_t now = ++clock_;
  set_stamp(tier, o, i, now);  // there already: now the most recent
  std::deque<TierEntry>& order = tier_order_[tier];
  order.push_back({now, o, static_cast<std::int32_t>(i)});
  // The least recent leave for the next tier while the tier holds too many (stale entries skipped).
  const auto stale = [this, tier](const TierEntry& e) {
    const auto& v = owners_[static_cast<std::size_t>(e.owner)].stamp[tier];
    return e.index >= std::ssize(v) || v[static_cast<std::size_t>(e.index)] != e.stamp;
  };
  while (tier_count_[tier] > tiers_[tier].blocks) {
    const TierEntry e = order.front();
    order.pop_front();
    if (stale(e)) continue;
    set_stamp(tier, e.owner, e.index, 0);
    if (tier + 1 < tiers_.size()) offload(tier + 1, e.owner, e.index);
  }
  if (std::ssize(order) > 2 * tier_count_[tier] + 64) std::erase_if(order, stale);  // order kept
}

}  // namespace tessera::requests
