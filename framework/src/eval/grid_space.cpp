#include "eval/grid_space.hpp"

#include <algorithm>
#include <unordered_map>

namespace tessera {

// A configuration's discrete knobs as a dense code in [0, codes()); -1 for values no
// canonical form of this grid holds.
int GridSpace::discrete_code(const ParallelConfig& c) const {
  const int kv = static_cast<int>(c.kv_shard_mode), ffn = static_cast<int>(c.ffn_shard_scope);
  const int ring = static_cast<int>(c.cp_ring_variant);
  const int tpp = place_index_[static_cast<std::uint8_t>(c.tp_placement)];
  const int cpp = place_index_[static_cast<std::uint8_t>(c.cp_placement)];
  if (kv > 1 || ffn > 2 || ring > 2 || tpp < 0 || cpp < 0) return -1;
  return (((kv * 3 + ffn) * places_ + tpp) * places_ + cpp) * 3 + ring;
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

// Invalidity decided by the numeric knobs alone (check_knobs tests them before any discrete
// rule, except exceeds_machine, which only a config past every discrete rule reaches): when
// one discrete combination of a tuple fails for such a reason, every combination fails.
bool numeric_only(InvalidReason r) {
  switch (r) {
    case InvalidReason::bad_knob:
    case InvalidReason::tp_not_dividing_heads:
    case InvalidReason::tp_kv_heads_mismatch:
    case InvalidReason::pp_exceeds_layers:
    case InvalidReason::ep_without_experts:
    case InvalidReason::ep_not_dividing_experts:
    case InvalidReason::exceeds_machine:
      return true;
    default:
      return false;
  }
}

}  // namespace

GridSpace::GridSpace(const Sweep& sweep, const ModelSpec& model, const MachineSpec& machine,
                     const Workload& workload, std::size_t resident_index_bytes)
    : GridSpace(sweep, model, machine, workload, nullptr, resident_index_bytes) {}

GridSpace::ValidCount GridSpace::count_valid(const Sweep& sweep, const ModelSpec& model,
                                             const MachineSpec& machine, const Workload& workload,
                                             std::uint64_t stop_above) {
  const CountOnly only{stop_above};
  const GridSpace walk(sweep, model, machine, workload, &only, 0);
  ValidCount n;
  n.tuples = walk.tuples_;
  n.more = walk.stopped_;
  n.configurations = walk.count_;
  return n;
}

GridSpace::GridSpace(const Sweep& sweep, const ModelSpec& model, const MachineSpec& machine,
                     const Workload& workload, const CountOnly* count_only, std::size_t resident_index_bytes)
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
  const std::array<const std::vector<std::int32_t>*, 5> numeric{&cp_, &tp_, &pp_, &dp_, &ep_};
  for (std::size_t k = 0; k < numeric.size(); ++k) {
    const auto& list = *numeric[k];
    if (list.front() < 0 || list.back() > (1 << 16)) continue;
    position_[k].assign(static_cast<std::size_t>(list.back()) + 1, -1);
    for (std::size_t i = 0; i < list.size(); ++i)
      position_[k][static_cast<std::size_t>(list[i])] = static_cast<std::int32_t>(i);
  }
  tuples_ = std::uint64_t{cp_.size()} * tp_.size() * pp_.size() * dp_.size() * ep_.size();
  block_ = static_cast<std::uint32_t>(kv_.size() * ffn_.size() * tp_place_.size() * cp_place_.size() *
                                      ring_.size());
  enumerated_ = tuples_ * block_;
  // Placement values a canonical form can hold: the listed ones, 0 and 1 (canonicalize's).
  place_index_.fill(-1);
  for (const auto* list : {&tp_place_, &cp_place_})
    for (std::int8_t v : *list)
      if (place_index_[static_cast<std::uint8_t>(v)] < 0)
        place_index_[static_cast<std::uint8_t>(v)] = places_++;
  for (std::int8_t v : {std::int8_t{0}, std::int8_t{1}})
    if (place_index_[static_cast<std::uint8_t>(v)] < 0)
      place_index_[static_cast<std::uint8_t>(v)] = places_++;

  // Grid order: numeric knobs outermost (cp, tp, pp, dp, ep), then the discrete ones. A grid
  // point whose canonical form differs is the same configuration as another point; the
  // canonical form is kept once, at its first occurrence. Canonical forms never change the
  // numeric knobs, so duplicates lie inside one tuple's block, and which offsets of a block
  // occur first depends only on the tuple's canonical class: found once per class.
  wide_ = block_ > 65536;
  page_tuples_ = std::max<std::uint64_t>(1, kPageGridPoints / block_);
  id_ = new_grid_id();
  Layout layout;
  std::vector<InvalidReason> reasons;
  std::shared_ptr<GridPage> open;  // the page being filled while the index stays resident
  bool paged = count_only != nullptr;
  for (std::uint64_t t = 0; t < tuples_; ++t) {
    if (count_only && count_ > count_only->stop_above) {
      stopped_ = true;  // tuples remain unwalked: at least count_
      return;
    }
    if (!count_only && t % page_tuples_ == 0) {
      close_page(open);
      page_first_.push_back(count_);
      if (!paged) {
        open = std::make_shared<GridPage>();
        open->first_tuple = t;
        open->first = count_;
      }
    }
    const ParallelConfig n = tuple_config(t);
    const unsigned cls = canonical_class(model_, n);
    if (!classes_[cls].built) build_class(cls, n);
    if (open) open->tuple_first.push_back(static_cast<std::uint32_t>(count_ - open->first));
    count_ += walk_tuple(n, open.get(), layout, reasons);
    // Too large to hold (slots and tuple starts so far): from now on only where pages start.
    if (!paged && count_ * (wide_ ? 4 : 2) + (t + 1) * 4 > resident_index_bytes) {
      paged = true;
      open.reset();
      resident_.clear();
      resident_.shrink_to_fit();
    }
  }
  if (count_only) return;
  close_page(open);
  page_first_.push_back(count_);
}

GridSpace::~GridSpace() = default;

void GridSpace::close_page(std::shared_ptr<GridPage>& open) {
  if (!open) return;
  open->tuple_first.push_back(static_cast<std::uint32_t>(count_ - open->first));
  open->tuple_first.shrink_to_fit();
  open->slot16.shrink_to_fit();
  open->slot32.shrink_to_fit();
  resident_.push_back(std::move(open));
}

std::uint64_t GridSpace::walk_tuple(const ParallelConfig& n, GridPage* out, Layout& layout,
                                    std::vector<InvalidReason>& reasons) const {
  // Validity once per placement of a tuple (ClassTable::same_layout_as): the kv_shard_mode
  // and, in decode, cp_ring_variant variants share one layout.
  const ClassTable& ct = classes_[canonical_class(model_, n)];
  reasons.resize(ct.first_offsets.size());
  std::uint64_t valid = 0;
  for (std::size_t i = 0; i < ct.first_offsets.size(); ++i) {
    const std::uint32_t d = ct.first_offsets[i];
    const std::uint32_t same = ct.same_layout_as[i];
    if (same == i) {
      compute_layout(model_, machine_, workload_, config_at(n, d), layout);
      reasons[i] = layout.valid ? InvalidReason::none : layout.reason;
    } else {
      reasons[i] = reasons[same];
    }
    if (reasons[i] == InvalidReason::none) {
      ++valid;
      if (out && wide_)
        out->slot32.push_back(d);
      else if (out)
        out->slot16.push_back(static_cast<std::uint16_t>(d));
    } else if (i == 0 && numeric_only(reasons[i])) {
      break;
    }
  }
  return valid;
}

std::shared_ptr<const GridPage> GridSpace::build_page(std::uint64_t p) const {
  auto page = std::make_shared<GridPage>();
  page->first_tuple = p * page_tuples_;
  page->first = page_first_[p];
  const std::uint64_t end = std::min(tuples_, page->first_tuple + page_tuples_);
  page->tuple_first.reserve(end - page->first_tuple + 1);
  Layout layout;
  std::vector<InvalidReason> reasons;
  std::uint64_t n = 0;
  for (std::uint64_t t = page->first_tuple; t < end; ++t) {
    page->tuple_first.push_back(static_cast<std::uint32_t>(n));
    n += walk_tuple(tuple_config(t), page.get(), layout, reasons);
  }
  page->tuple_first.push_back(static_cast<std::uint32_t>(n));
  return page;
}

const GridPage& GridSpace::page(std::uint64_t p) const {
  if (!resident_.empty()) return *resident_[p];
  if (const GridPage* mine = thread_page(id_, p)) return *mine;
  std::shared_ptr<const GridPage> found = shared_pages_.find(p);
  if (!found) {
    found = build_page(p);
    shared_pages_.keep(p, found);
  }
  return *keep_thread_page(id_, p, std::move(found));
}

std::uint64_t GridSpace::page_of_position(std::uint64_t i) const {
  // The last page whose first position is <= i (pages without valid configurations skipped).
  return static_cast<std::uint64_t>(std::upper_bound(page_first_.begin(), page_first_.end(), i) -
                                    page_first_.begin()) -
         1;
}

void GridSpace::build_class(unsigned cls, const ParallelConfig& numeric) {
  ClassTable& ct = classes_[cls];
  ct.by_code.assign(static_cast<std::size_t>(2 * 3 * places_ * places_ * 3), -1);
  ParallelConfig c = numeric;
  std::uint32_t d = 0;
  for (auto kv : kv_)
    for (auto ffn : ffn_)
      for (auto tpp : tp_place_)
        for (auto cpp : cp_place_)
          for (auto ring : ring_) {
            c.kv_shard_mode = kv;
            c.ffn_shard_scope = ffn;
            c.tp_placement = tpp;
            c.cp_placement = cpp;
            c.cp_ring_variant = ring;
            // Every canonical form has a code: its placements are listed ones, 0 or 1.
            const ParallelConfig k = canonical_form(cls, c);
            ct.canonical.push_back(k);
            const int code = discrete_code(k);
            if (code >= 0 && ct.by_code[static_cast<std::size_t>(code)] < 0) {
              ct.by_code[static_cast<std::size_t>(code)] = static_cast<std::int32_t>(d);
              ct.first_offsets.push_back(d);
            }
            ++d;
          }
  // layout_key() normalises discrete knobs only (as a function of the workload), so which
  // offsets share a layout is the same for every tuple of the class.
  std::unordered_map<ParallelConfig, std::uint32_t> first_with_key;
  for (std::size_t i = 0; i < ct.first_offsets.size(); ++i) {
    const ParallelConfig key = layout_key(workload_, config_at(numeric, ct.first_offsets[i]));
    ct.same_layout_as.push_back(first_with_key.emplace(key, static_cast<std::uint32_t>(i)).first->second);
  }
  ct.built = true;
}

ParallelConfig GridSpace::tuple_config(std::uint64_t t) const {
  ParallelConfig c;
  c.ep = ep_[t % ep_.size()];
  t /= ep_.size();
  c.dp = dp_[t % dp_.size()];
  t /= dp_.size();
  c.pp = pp_[t % pp_.size()];
  t /= pp_.size();
  c.tp = tp_[t % tp_.size()];
  t /= tp_.size();
  c.cp = cp_[t];
  return c;
}

ParallelConfig GridSpace::config_at(const ParallelConfig& numeric, std::uint32_t d) const {
  // Canonical forms keep the numeric knobs and take the discrete ones of the class's table.
  const ParallelConfig& k = classes_[canonical_class(model_, numeric)].canonical[d];
  ParallelConfig c = numeric;
  c.kv_shard_mode = k.kv_shard_mode;
  c.ffn_shard_scope = k.ffn_shard_scope;
  c.tp_placement = k.tp_placement;
  c.cp_placement = k.cp_placement;
  c.cp_ring_variant = k.cp_ring_variant;
  return c;
}

const std::vector<ParallelConfig>& GridSpace::valid_configs() const {
  std::call_once(list_once_, [this] {
    list_.resize(count_);
    valid_range(0, std::span<ParallelConfig>(list_.data(), list_.size()));
  });
  return list_;
}

std::size_t GridSpace::valid_range(std::uint64_t first, std::span<ParallelConfig> out) const {
  if (first >= count_) return 0;
  const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), count_ - first));
  std::size_t i = 0;
  while (i < n) {
    const GridPage& pg = page(page_of_position(first + i));
    // The page's tuple holding the position: the last whose first position is <= it.
    std::uint64_t r = first + i - pg.first;
    std::uint64_t t =
        static_cast<std::uint64_t>(std::upper_bound(pg.tuple_first.begin(), pg.tuple_first.end(), r) -
                                   pg.tuple_first.begin()) -
        1;
    ParallelConfig numeric = tuple_config(pg.first_tuple + t);
    for (; i < n && r < pg.tuple_first.back(); ++r, ++i) {
      if (pg.tuple_first[t + 1] <= r) {
        while (pg.tuple_first[t + 1] <= r) ++t;
        numeric = tuple_config(pg.first_tuple + t);
      }
      out[i] = config_at(numeric, pg.slot(r));
    }
  }
  return n;
}

ParallelConfig GridSpace::valid_config(std::uint64_t i) const {
  ParallelConfig c;
  valid_range(i, std::span<ParallelConfig>(&c, 1));
  return c;
}

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

std::int64_t GridSpace::tuple_of(const ParallelConfig& c) const {
  const std::array<const std::vector<std::int32_t>*, 5> lists{&cp_, &tp_, &pp_, &dp_, &ep_};
  const std::array<std::int32_t, 5> values{c.cp, c.tp, c.pp, c.dp, c.ep};
  std::uint64_t t = 0;
  for (std::size_t k = 0; k < lists.size(); ++k) {
    const auto& list = *lists[k];
    const std::int32_t v = values[k];
    std::int64_t i = -1;
    if (!position_[k].empty()) {
      if (v >= 0 && static_cast<std::size_t>(v) < position_[k].size())
        i = position_[k][static_cast<std::size_t>(v)];
    } else {
      const auto it = std::lower_bound(list.begin(), list.end(), v);
      if (it != list.end() && *it == v) i = it - list.begin();
    }
    if (i < 0) return -1;
    t = t * list.size() + static_cast<std::uint64_t>(i);
  }
  return static_cast<std::int64_t>(t);
}

std::int64_t GridSpace::index_of(const ParallelConfig& c) const {
  const std::int64_t t = tuple_of(c);
  if (t < 0) return -1;
  const ClassTable& ct = classes_[canonical_class(model_, c)];
  const int code = discrete_code(c);
  if (!ct.built || code < 0) return -1;
  const std::int32_t d = ct.by_code[static_cast<std::size_t>(code)];
  if (d < 0) return -1;
  // The code of c is the canonical form of offset d: c is canonical exactly when it equals it.
  const auto tu = static_cast<std::uint64_t>(t);
  const GridPage& pg = page(page_of_tuple(tu));
  const std::uint64_t local = tu - pg.first_tuple;
  // Offsets of a tuple's valid configs ascend: binary search.
  std::uint64_t lo = pg.tuple_first[local], hi = pg.tuple_first[local + 1];
  const std::uint64_t end = hi;
  const auto want = static_cast<std::uint32_t>(d);
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (pg.slot(mid) < want)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == end || pg.slot(lo) != want) return -1;
  return static_cast<std::int64_t>(pg.first + lo);
}

bool GridSpace::is_valid_canonical(const ParallelConfig& c) const { return index_of(c) >= 0; }

ParallelConfig GridSpace::canonicalize(const ParallelConfig& c) const {
  return tessera::canonicalize(model_, c);
}

}  // namespace tessera
