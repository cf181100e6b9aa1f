#include "eval/grid_space.hpp"

#include <algorithm>

#include "tessera/physics/layout.hpp"

namespace tessera {

std::size_t ParallelConfigHash::operator()(const ParallelConfig& c) const noexcept {
  std::uint64_t h = 1469598103934665603ull;
  const auto mix = [&h](std::uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  };
  mix(static_cast<std::uint32_t>(c.cp));
  mix(static_cast<std::uint32_t>(c.tp));
  mix(static_cast<std::uint32_t>(c.pp));
  mix(static_cast<std::uint32_t>(c.dp));
  mix(static_cast<std::uint32_t>(c.ep));
  mix((static_cast<std::uint64_t>(c.kv_shard_mode) << 0) | (static_cast<std::uint64_t>(c.ffn_shard_scope) << 8) |
      (static_cast<std::uint64_t>(static_cast<std::uint8_t>(c.tp_placement)) << 16) |
      (static_cast<std::uint64_t>(static_cast<std::uint8_t>(c.cp_placement)) << 24) |
      (static_cast<std::uint64_t>(c.cp_ring_variant) << 32));
  return static_cast<std::size_t>(h);
}

namespace {

template <class T>
std::vector<T> unique_keep_order(const std::vector<T>& v) {
  std::vector<T> out;
  for (const T& x : v)
    if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  return out;
}

std::vector<std::int32_t> sorted_unique(std::vector<std::int32_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  if (v.empty()) v.push_back(1);
  return v;
}

}  // namespace

GridSpace::GridSpace(const Sweep& sweep, const ModelSpec& model, const MachineSpec& machine, const Workload& workload)
    : model_(model),
      machine_(machine),
      workload_(workload),
      cp_(sorted_unique(sweep.cp)),
      tp_(sorted_unique(sweep.tp)),
      pp_(sorted_unique(sweep.pp)),
      dp_(sorted_unique(sweep.dp)),
      ep_(sorted_unique(sweep.ep)),
      kv_(unique_keep_order(sweep.kv_shard_mode)),
      ffn_(unique_keep_order(sweep.ffn_shard_scope)),
      tp_place_(unique_keep_order(sweep.tp_placement)),
      cp_place_(unique_keep_order(sweep.cp_placement)),
      ring_(unique_keep_order(sweep.cp_ring_variant)) {
  if (kv_.empty()) kv_.push_back(KvShardMode::split);
  if (ffn_.empty()) ffn_.push_back(FfnShardScope::tp);
  if (tp_place_.empty()) tp_place_.push_back(0);
  if (cp_place_.empty()) cp_place_.push_back(1);
  if (ring_.empty()) ring_.push_back(CpRingVariant::kv);
  enumerated_ = std::uint64_t{cp_.size()} * tp_.size() * pp_.size() * dp_.size() * ep_.size() * kv_.size() *
                ffn_.size() * tp_place_.size() * cp_place_.size() * ring_.size();

  // Grid order: numeric knobs outermost (cp, tp, pp, dp, ep), then the discrete ones. A grid
  // point whose canonical form differs is the same configuration as another point; the
  // canonical form is kept once, at its first occurrence.
  Layout layout;
  ParallelConfig c;
  for (auto cp : cp_)
    for (auto tp : tp_)
      for (auto pp : pp_)
        for (auto dp : dp_)
          for (auto ep : ep_)
            for (auto kv : kv_)
              for (auto ffn : ffn_)
                for (auto tpp : tp_place_)
                  for (auto cpp : cp_place_)
                    for (auto ring : ring_) {
                      c.cp = cp;
                      c.tp = tp;
                      c.pp = pp;
                      c.dp = dp;
                      c.ep = ep;
                      c.kv_shard_mode = kv;
                      c.ffn_shard_scope = ffn;
                      c.tp_placement = tpp;
                      c.cp_placement = cpp;
                      c.cp_ring_variant = ring;
                      const ParallelConfig k = tessera::canonicalize(model_, c);
                      if (index_.count(k)) continue;
                      compute_layout(model_, machine_, workload_, k, layout);
                      if (!layout.valid) continue;
                      index_.emplace(k, static_cast<std::int64_t>(valid_.size()));
                      valid_.push_back(k);
                    }
}

GridSpace::~GridSpace() = default;

ParallelConfig GridSpace::defaults() const {
  ParallelConfig c;
  c.cp = cp_.front();
  c.tp = tp_.front();
  c.pp = pp_.front();
  c.dp = dp_.front();
  c.ep = ep_.front();
  c.kv_shard_mode = kv_.front();
  c.ffn_shard_scope = ffn_.front();
  c.tp_placement = tp_place_.front();
  c.cp_placement = cp_place_.front();
  c.cp_ring_variant = ring_.front();
  return c;
}

bool GridSpace::is_valid_canonical(const ParallelConfig& c) const { return index_.count(c) != 0; }

ParallelConfig GridSpace::canonicalize(const ParallelConfig& c) const { return tessera::canonicalize(model_, c); }

std::int64_t GridSpace::index_of(const ParallelConfig& c) const {
  const auto it = index_.find(c);
  return it == index_.end() ? -1 : it->second;
}

}  // namespace tessera
