#pragma once
// A replica's KV blocks as an engine with automatic prefix caching keeps them (docs/physics.md
// §12.7 "Prefix caching"), the KV offload tiers below them (§12.7 "KV offload"):
//  - every block of the replica is a slot; a slot referenced by no sequence is free, in a queue
//    (least recently freed first). Allocation takes the queue's head; a sequence that ends or is
//    preempted appends its blocks, its last block first (vLLM V1's BlockPool and
//    KVCacheManager.free: "free blocks in reverse order so that the tail blocks are evicted first");
//  - a block whose tokens are all computed and whose content another request can share (a shared
//    prefix group's, a conversation's) is registered under its content key; a request arriving
//    later finds its leading blocks registered and references them instead of computing them —
//    at most its tokens less one (the last token is always computed, so that a token is sampled);
//    a registered block in the free queue is still a hit (taking it back from the queue);
//  - a registered free block the queue's head reaches is evicted: its content leaves HBM — to the
//    first offload tier when there is one (or it was copied there as it was registered: write
//    through), else for good. A tier keeps keys in LRU order up to its
//    blocks, spilling its least recent to the next tier. A request's leading blocks past its HBM
//    hits that a tier holds are loaded back (their HBM blocks allocated, their bytes copied in
//    the iteration that computes the rest of the prompt) — when the copy is quicker than
//    computing them (the replica decides, replica.cpp).
// Content keys: block i of a request is its prefix group's (prefix_id, i) while the block lies
// within the shared prefix, then its conversation's (conversation, i); otherwise 0, never shared.
// Only a request stream's shared prefixes and conversations are shared: two requests of one
// conversation see the same tokens at the same positions (its history), two of a prefix group
// the same first `prefix_tokens`.
#include <cstdint>
#include <deque>
#include <vector>

#include "analysis/requests/block_key_map.hpp"
#include "analysis/requests/request_stream.hpp"
#include "tessera/export.hpp"

namespace tessera::requests {

// One offload tier of a replica (host DRAM, local SSD), from the machine file's host memory.
struct OffloadTier {
  std::int64_t blocks = 0;  // the blocks it holds (its capacity over one block's bytes)
  double block_s = 0;       // seconds to copy one block into HBM (one block's bytes over the bandwidth)
  double latency_s = 0;     // per iteration that loads from it
};

// The blocks one sequence holds, in token order.
struct BlockHold {
  std::vector<std::int32_t> slots;
  std::int64_t registered = 0;  // its leading blocks looked at for registration
};

// What a request would find cached: its first `hbm` blocks registered in HBM (`evictable` of them
// in the free queue), then `tier[k]` blocks in offload tier k, in order.
struct CacheProbe {
  std::int64_t hbm = 0, evictable = 0;
  std::vector<std::int64_t> tier;
  std::int64_t loaded() const {
    std::int64_t n = 0;
    for (std::int64_t t : tier) n += t;
    return n;
  }
};

class TESSERA_API PrefixCache {
 public:
  // write_through: a registered block is copied to the first tier as it is registered (vLLM's
  // OffloadingConnector, SGLang's write_through); else when HBM evicts it (TensorRT-LLM).
  PrefixCache(std::int64_t blocks, std::int64_t block_tokens, std::vector<OffloadTier> tiers,
              bool write_through = false);

  // What r, needing `tokens` tokens computed (its prompt and any generated ones), would find; at
  // most (tokens - 1) / block_tokens blocks.
  void probe(const Request& r, std::int64_t tokens, CacheProbe& out);
  // r takes its HBM hits of `p` into `h` (empty): returns the blocks taken from the free queue.
  std::int64_t take_hits(BlockHold& h, const Request& r, const CacheProbe& p);
  // `n` blocks from the free queue's head appended to `h` (the caller checked n <= free_blocks()).
  void allocate(BlockHold& h, std::int64_t n);
  // Registers h's blocks whose tokens are all computed (`computed` tokens of r) and shareable.
  void computed(BlockHold& h, const Request& r, std::int64_t computed);
  // h's blocks given up, its last first; returns those that became free (no other holder).
  std::int64_t release(BlockHold& h);

  std::int64_t free_blocks() const { return free_count_; }
  std::int64_t block_tokens() const { return block_tokens_; }
  const std::vector<OffloadTier>& tiers() const { return tiers_; }
  // Hits and loads, in blocks (for the report): HBM hits taken, blocks loaded from each tier.
  std::int64_t hit_blocks() const { return hit_blocks_; }
  std::int64_t looked_up_blocks() const { return looked_up_blocks_; }
  const std::vector<std::int64_t>& loaded_blocks() const { return loaded_blocks_; }
  void count_lookup(std::int64_t blocks) { looked_up_blocks_ += blocks; }
  void count_loads(const CacheProbe& p);

 private:
  // Who owns a shareable block's content: a prefix group or a conversation. Its blocks by index:
  // the HBM slot holding each (-1: none) and each tier's stamp of it (0: not there), so that a
  // run of blocks is a run of array entries; its arrays are dropped when nothing of it is left.
  struct Owner {
    std::vector<std::int32_t> slot;
    std::vector<std::uint64_t> stamp[2];
    std::int64_t resident = 0;  // entries set in slot and stamps
  };
  struct Slot {
    std::int32_t owner = -1, index = 0;  // the registered content (owner -1: none)
    std::int32_t prev = -1, next = -1;
    std::int32_t refs = 0;
  };
  // A tier's entries oldest first: (stamp, owner, index), stale once the stamp moved on.
  struct TierEntry {
    std::uint64_t stamp;
    std::int32_t owner, index;
  };
  // A request's owners: its prefix group's (its first `group_blocks` blocks) and its
  // conversation's (the rest); -1: none (not shareable), or not known yet.
  struct Owners {
    std::int32_t group = -1, conversation = -1;
    std::int64_t group_blocks = 0;
    std::int32_t at(std::int64_t i) const { return i < group_blocks ? group : conversation; }
  };
  Owners owners(const Request& r, bool create);  // created when `create`
  std::int32_t owner_of(std::uint64_t key, bool create);
  std::int32_t slot_of(std::int32_t o, std::int64_t i) const {
    const auto& v = owners_[static_cast<std::size_t>(o)].slot;
    return i < std::ssize(v) ? v[static_cast<std::size_t>(i)] : -1;
  }
  bool in_tier(std::size_t t, std::int32_t o, std::int64_t i) const {
    const auto& v = owners_[static_cast<std::size_t>(o)].stamp[t];
    return i < std::ssize(v) && v[static_cast<std::size_t>(i)] != 0;
  }
  void set_slot(std::int32_t o, std::int64_t i, std::int32_t s);
  void set_stamp(std::size_t t, std::int32_t o, std::int64_t i, std::uint64_t stamp);
  void unlink(std::int32_t s);
  void push_back(std::int32_t s);
  void evict(std::int32_t s);  // slot s leaves the free queue's head: its content leaves HBM
  void offload(std::size_t tier, std::int32_t o, std::int64_t i);

  std::int64_t block_tokens_;
  bool write_through_;
  std::vector<Slot> slots_;
  std::int32_t head_ = -1, tail_ = -1;
  std::int64_t free_count_ = 0;
  std::vector<Owner> owners_;
  BlockKeyMap owner_index_;  // (kind, id) key -> owners_ index
  std::vector<OffloadTier> tiers_;
  std::vector<std::deque<TierEntry>> tier_order_;
  std::vector<std::int64_t> tier_count_;
  std::uint64_t clock_ = 0;  // tier stamps
  std::int64_t hit_blocks_ = 0, looked_up_blocks_ = 0;
  std::vector<std::int64_t> loaded_blocks_;
};

}  // namespace tessera::requests
