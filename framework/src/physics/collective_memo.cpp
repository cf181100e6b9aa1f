// The memo of collective_cost() (collective_memo.hpp).
#include "physics/collective_memo.hpp"

#include <atomic>
#include <bit>
#include <cstring>

namespace tessera {

namespace {

// LinkCost is compared byte for byte: no padding may hide in it.
static_assert(sizeof(LinkCost) ==
                  2 * sizeof(double) + 2 * sizeof(int) + 3 * kMaxLevels * sizeof(std::int32_t),
              "LinkCost has padding: compare it field by field");

std::atomic<std::uint64_t> g_next_generation{1};

// The calling thread's active memo and the machine it answers for (trivially constructed: no
// TLS guard on the hot path; one TLS access per lookup).
struct Active {
  CollectiveMemo* memo = nullptr;
  const MachineSpec* machine = nullptr;
};
// Not initial-exec: libtessera's other thread_local state does not fit the static TLS surplus
// a library loaded by Python gets ("cannot allocate memory in static TLS block").
thread_local Active t_active;

// The set of (c, r): a multiply-xorshift hash of what varies between a sweep's collectives
// (bytes, kind, ranks, level, and the members and uplink shares on the four inner levels);
// equality checks everything.
std::size_t set_of(const Collective& c, const CommRates& r) {
  const LinkCost& l = c.link;
  const auto word = [](const std::array<std::int32_t, kMaxLevels>& a) {
    return static_cast<std::uint64_t>(static_cast<std::uint16_t>(a[0])) ^
           static_cast<std::uint64_t>(static_cast<std::uint16_t>(a[1])) << 16 ^
           static_cast<std::uint64_t>(static_cast<std::uint16_t>(a[2])) << 32 ^
           static_cast<std::uint64_t>(static_cast<std::uint16_t>(a[3])) << 48;
  };
  std::uint64_t h =
      (std::bit_cast<std::uint64_t>(c.bytes) ^ std::bit_cast<std::uint64_t>(r.extra_latency) ^
       (static_cast<std::uint64_t>(c.kind) << 3) ^ (static_cast<std::uint64_t>(c.ranks) << 7) ^
       (static_cast<std::uint64_t>(c.route_top_k) << 40) ^ static_cast<std::uint64_t>(l.level)) *
      0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 31) ^ word(l.members) ^ (word(l.share) << 5)) * 0x94D049BB133111EBull;
  return static_cast<std::size_t>(h >> 56) % (CollectiveMemo::kSlots / CollectiveMemo::kWays);
}

bool same(const CollectiveMemo::Entry& e, const Collective& c, const CommRates& r) {
  return e.key.bytes == c.bytes && e.key.kind == c.kind && e.key.ranks == c.ranks &&
         e.key.route_top_k == c.route_top_k && e.key.route_experts == c.route_experts &&
         e.rates.bw_efficiency == r.bw_efficiency && e.rates.extra_latency == r.extra_latency &&
         std::memcmp(&e.key.link, &c.link, sizeof(LinkCost)) == 0;
}

std::uint64_t new_generation() { return g_next_generation.fetch_add(1, std::memory_order_relaxed); }

}  // namespace

void CollectiveMemo::clear() { generation = new_generation(); }

CollectiveMemoScope::CollectiveMemoScope(CollectiveMemo& memo, std::uint64_t owner,
                                         const MachineSpec& machine) {
  Active& a = t_active;
  active_ = &a;
  prev_memo_ = a.memo;
  prev_machine_ = a.machine;
  if (memo.owner != owner || memo.generation == 0) {
    memo.owner = owner;
    memo.clear();
  }
  a = {&memo, &machine};
}

CollectiveMemoScope::~CollectiveMemoScope() { *static_cast<Active*>(active_) = {prev_memo_, prev_machine_}; }

namespace detail {

MemoSlot collective_memo_slot(const Collective& c, const MachineSpec& machine, const CommRates& rates) {
  const Active a = t_active;
  if (a.memo == nullptr || a.machine != &machine) return {};
  CollectiveMemo& m = *a.memo;
  const std::size_t set = set_of(c, rates);
  CollectiveMemo::Entry* ways = &m.entries[set * CollectiveMemo::kWays];
  for (std::size_t w = 0; w < CollectiveMemo::kWays; ++w) {
    if (ways[w].generation == m.generation && same(ways[w], c, rates)) {
      m.older[set] = static_cast<std::uint8_t>(1 - w);  // the other way is now the older
      return {&m, &ways[w], true};
    }
  }
  const std::size_t victim = m.older[set];
  m.older[set] = static_cast<std::uint8_t>(1 - victim);
  return {&m, &ways[victim], false};
}

}  // namespace detail

}  // namespace tessera
