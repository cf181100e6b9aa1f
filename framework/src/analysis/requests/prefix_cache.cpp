#include "analysis/requests/prefix_cache.hpp"

#include <stdexcept>
#include <utility>

namespace tessera::requests {

namespace {

// SplitMix64's output function over (kind, id, index): content keys that do not collide in
// practice (2^-64 per pair) and are never 0.
std::uint64_t content_key(std::uint64_t kind, std::uint64_t id, std::uint64_t index) {
  std::uint64_t z = kind * 0x9e3779b97f4a7c15u ^ (id + 0x632be59bd9b4e019u) * 0xbf58476d1ce4e5b9u ^
                    (index + 1) * 0x94d049bb133111ebu;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  z ^= z >> 31;
  return z == 0 ? 1 : z;
}

}  // namespace

PrefixCache::PrefixCache(std::int64_t blocks, std::int64_t block_tokens, std::vector<OffloadTier> tiers,
                         bool write_through)
    : block_tokens_(block_tokens),
      write_through_(write_through),
      registered_(static_cast<std::size_t>(std::max<std::int64_t>(blocks, 1))),
      tiers_(std::move(tiers)) {
  if (blocks <= 0 || blocks > (std::int64_t{1} << 31) - 2 || block_tokens <= 0)
    throw std::invalid_argument("prefix cache: blocks must be from 1 to 2^31 - 2");
  slots_.resize(static_cast<std::size_t>(blocks));
  for (std::int32_t s = 0; s < static_cast<std::int32_t>(blocks); ++s) push_back(s);
  tier_keys_.resize(tiers_.size());
  loaded_blocks_.assign(tiers_.size(), 0);
}

std::uint64_t PrefixCache::key(const Request& r, std::int64_t i) const {
  const auto index = static_cast<std::uint64_t>(i);
  if (r.prefix_id >= 0 && (i + 1) * block_tokens_ <= r.prefix_tokens)
    return content_key(1, static_cast<std::uint64_t>(r.prefix_id), index);
  if (r.conversation >= 0) return content_key(2, static_cast<std::uint64_t>(r.conversation), index);
  return 0;
}

void PrefixCache::probe(const Request& r, std::int64_t tokens, CacheProbe& out) const {
  out.hbm = out.evictable = 0;
  out.tier.assign(tiers_.size(), 0);
  const std::int64_t most = tokens > 0 ? (tokens - 1) / block_tokens_ : 0;
  std::int64_t i = 0;
  for (; i < most; ++i) {
    const std::uint64_t k = key(r, i);
    if (k == 0) return;
    const std::uint64_t* s = registered_.find(k);
    if (!s) break;
    ++out.hbm;
    if (slots_[static_cast<std::size_t>(*s)].refs == 0) ++out.evictable;
  }
  // Past the HBM hits, the tiers' leading blocks in turn (a block in any tier continues the run).
  for (; i < most; ++i) {
    const std::uint64_t k = key(r, i);
    if (k == 0) return;
    std::size_t t = 0;
    while (t < tiers_.size() && !in_tier(t, k)) ++t;
    if (t == tiers_.size()) return;
    ++out.tier[t];
  }
}

std::int64_t PrefixCache::take_hits(BlockHold& h, const Request& r, const CacheProbe& p) {
  std::int64_t from_queue = 0;
  for (std::int64_t i = 0; i < p.hbm; ++i) {
    const auto s = static_cast<std::int32_t>(*registered_.find(key(r, i)));
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
  for (; h.registered < full; ++h.registered) {
    const std::uint64_t k = key(r, h.registered);
    if (k == 0) continue;
    // A block another sequence registered first stays a private copy (as vLLM's duplicate blocks).
    const std::int32_t s = h.slots[static_cast<std::size_t>(h.registered)];
    if (!registered_.insert(k, static_cast<std::uint64_t>(s))) continue;
    slots_[static_cast<std::size_t>(s)].key = k;
    if (write_through_ && !tiers_.empty()) offload(0, k);
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
  if (slot.key == 0) return;
  registered_.erase(slot.key);
  if (!write_through_ && !tiers_.empty()) offload(0, slot.key);
  slot.key = 0;
}

void PrefixCache::offload(std::size_t tier, std::uint64_t key) {
  TierKeys& t = tier_keys_[tier];
  const std::uint64_t now = ++clock_;
  if (std::uint64_t* stamp = t.stamp.find(key)) {  // already there: now the most recent
    *stamp = now;
    t.order.emplace_back(now, key);
  } else {
    if (tiers_[tier].blocks <= 0) return;
    t.stamp.insert(key, now);
    t.order.emplace_back(now, key);
  }
  // The least recent leave for the next tier while the tier holds too many (stale entries skipped).
  const auto stale = [&t](const std::pair<std::uint64_t, std::uint64_t>& e) {
    const std::uint64_t* current = t.stamp.find(e.second);
    return !current || *current != e.first;  // used again since, or gone
  };
  while (static_cast<std::int64_t>(t.stamp.size()) > tiers_[tier].blocks) {
    const auto e = t.order.front();
    t.order.pop_front();
    if (stale(e)) continue;
    t.stamp.erase(e.second);
    if (tier + 1 < tiers_.size()) offload(tier + 1, e.second);
  }
  if (t.order.size() > 2 * t.stamp.size() + 64) std::erase_if(t.order, stale);  // order kept
}

}  // namespace tessera::requests
