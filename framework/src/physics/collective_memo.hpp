#pragma once
// A memo of collective_cost() for one Evaluator's evaluations (docs/performance.md): the
// same collective (kind, bytes, ranks, the group's shape on every level, the latency model's
// rates) recurs across thousands of configurations of a sweep, so its algorithm search runs once
// per distinct collective rather than once per stage of every configuration.
//
// The memo lives in the caller's Evaluation buffer (no allocation, one per thread); a
// CollectiveMemoScope makes it the active memo of the calling thread for one machine while a
// step is timed. collective_cost() consults it only for that machine (a plugin that prices a
// machine of its own gets no memo). Entries carry a generation: an entry counts only under the
// generation it was written in, and a new generation starts whenever the memo passes to another
// Evaluator (whose machine may differ) or is cleared, so stale entries are never read. An
// Evaluator's machine is fixed for its life (eval/context_watch.hpp fails the run otherwise).
#include <array>
#include <cstdint>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"
#include "tessera/physics/collectives.hpp"

namespace tessera {

struct CollectiveMemo {
  static constexpr std::size_t kSlots = 512;  // 256 sets of 2 ways
  static constexpr std::size_t kWays = 2;
  struct Entry {
    std::uint64_t generation = 0;  // 0: empty
    Collective key;
    CommRates rates;
    CollectiveChoice value;
  };
  std::uint64_t owner = 0;                           // Evaluator::id() the entries belong to
  std::uint64_t generation = 0;                      // entries of other generations are empty
  std::array<Entry, kSlots> entries{};               // set k: entries 2k and 2k + 1
  std::array<std::uint8_t, kSlots / kWays> older{};  // per set: the way to replace next

  // Forgets every entry (O(1): a new generation).
  TESSERA_API void clear();
};

// While alive, collective_cost(c, machine, rates) on this thread for `machine` reads and fills
// `memo`. Nests: the previous scope is restored on destruction.
class TESSERA_API CollectiveMemoScope {
 public:
  CollectiveMemoScope(CollectiveMemo& memo, std::uint64_t owner, const MachineSpec& machine);
  ~CollectiveMemoScope();
  CollectiveMemoScope(const CollectiveMemoScope&) = delete;
  CollectiveMemoScope& operator=(const CollectiveMemoScope&) = delete;

 private:
  void* active_;  // the thread's active-memo slot (one TLS lookup per scope)
  CollectiveMemo* prev_memo_;
  const MachineSpec* prev_machine_;
};

}  // namespace tessera

namespace tessera::detail {
// Where collective_cost() finds or puts c's answer: `entry` (nullptr: no active memo for this
// machine on this thread), `hit` when it already holds the answer; `memo` owns it.
struct MemoSlot {
  CollectiveMemo* memo = nullptr;
  CollectiveMemo::Entry* entry = nullptr;
  bool hit = false;
};
MemoSlot collective_memo_slot(const Collective& c, const MachineSpec& machine, const CommRates& rates);
// Fills a missed slot with c's answer.
inline void collective_memo_store(const MemoSlot& slot, const Collective& c, const CommRates& rates,
                                  const CollectiveChoice& value) {
  CollectiveMemo::Entry& e = *slot.entry;
  e.generation = slot.memo->generation;
  e.key = c;
  e.rates = rates;
  e.value = value;
}
}  // namespace tessera::detail
