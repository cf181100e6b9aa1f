// The memo of collective_cost() (framework/src/physics/collective_memo.hpp):
// inside a scope, a collective priced again gives the fresh answer bit for bit, on the scope's
// machine only; a new owner or a clear() forgets; outside any scope nothing is remembered.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <memory>
#include <random>
#include <string>

#include "physics/collective_memo.hpp"
#include "scenario/scenario_loader.hpp"
#include "tessera/physics/collectives.hpp"

namespace tessera {
namespace {

MachineSpec memo_machine(const char* file) {
  return load_machine_file(std::string(TESSERA_SOURCE_DIR) + "/machines/" + file);
}

// A group of `inner` members in each of `outer` units of level 1 (outer 1: inside one unit).
Collective memo_coll(const MachineSpec& m, CommKind k, int inner, int outer, double bytes) {
  Collective c;
  c.kind = k;
  c.ranks = inner * outer;
  c.bytes = bytes;
  c.link.level = outer > 1 ? 2 : 1;
  c.link.bandwidth = m.levels[static_cast<std::size_t>(c.link.level - 1)].link_bw;
  c.link.latency = m.levels[static_cast<std::size_t>(c.link.level - 1)].latency;
  for (std::size_t i = 0; i < m.levels.size(); ++i)
    c.link.members[i] = c.link.stride[i] = c.link.share[i] = 1;
  c.link.members[0] = inner;
  c.link.members[1] = outer;
  return c;
}

bool same_choice(const CollectiveChoice& a, const CollectiveChoice& b) {
  return a.seconds == b.seconds && a.algorithm == b.algorithm && a.protocol == b.protocol &&
         a.shape == b.shape && a.any == b.any;
}

}  // namespace

TEST_CASE("collective memo: a scope answers as the physics does - bit for bit - for random collectives",
          "[collectives][memo]") {
  const MachineSpec m = memo_machine("dgx-h100.yaml");
  const auto memo = std::make_unique<CollectiveMemo>();
  std::mt19937 rng(32);
  const CommKind kinds[] = {CommKind::all_reduce, CommKind::all_gather, CommKind::reduce_scatter,
                            CommKind::all_to_all, CommKind::p2p};
  const int inners[] = {1, 2, 4, 8};
  const int outers[] = {1, 2, 4};
  const double bytes[] = {8, 16384, 1 << 20, 1 << 28};
  const CommRates rates[] = {{}, {0.8, 2e-6}};
  // 2 000 draws over 480 distinct collectives: most are repeats, some evict each other.
  for (int i = 0; i < 2000; ++i) {
    const Collective c =
        memo_coll(m, kinds[rng() % 5], inners[rng() % 4], outers[rng() % 3], bytes[rng() % 4]);
    const CommRates& r = rates[rng() % 2];
    const CollectiveChoice fresh = collective_cost(c, m, r);  // no scope: computed
    CollectiveChoice memoized;
    {
      const CollectiveMemoScope scope(*memo, 7, m);
      memoized = collective_cost(c, m, r);
    }
    INFO("draw " << i);
    CHECK(same_choice(fresh, memoized));
  }
}

TEST_CASE("collective memo: only the scope's machine - only its owner and generation",
          "[collectives][memo]") {
  const MachineSpec m = memo_machine("dgx-h100.yaml");
  MachineSpec slower = m;
  slower.levels[1].latency *= 10;
  slower.levels[1].collectives.tree[0].hop *= 10;
  const Collective c = memo_coll(m, CommKind::all_reduce, 8, 2, 16384);
  const double t_m = collective_cost(c, m).seconds, t_slow = collective_cost(c, slower).seconds;
  REQUIRE(t_slow > t_m);
  const auto memo = std::make_unique<CollectiveMemo>();
  {
    const CollectiveMemoScope scope(*memo, 1, m);
    CHECK(collective_cost(c, m).seconds == t_m);
    // Another machine priced inside the scope (a plugin's own copy) is computed, not remembered.
    CHECK(collective_cost(c, slower).seconds == t_slow);
    CHECK(collective_cost(c, m).seconds == t_m);
  }
  {
    // The same buffer passed to another owner (an Evaluator whose machine is `slower`, at the
    // address of the first one's: the worst case) forgets the first owner's answers.
    const CollectiveMemoScope scope(*memo, 2, slower);
    CHECK(collective_cost(c, slower).seconds == t_slow);
  }
  {
    // Back to owner 1: a new generation again, nothing stale.
    const CollectiveMemoScope scope(*memo, 1, m);
    CHECK(collective_cost(c, m).seconds == t_m);
    memo->clear();
    CHECK(collective_cost(c, m).seconds == t_m);
  }
}

// The memo is consulted: inside one owner's scope the machine must not change (an Evaluator's is
// watched byte for byte), so changing it in place here shows a remembered answer coming back;
// clear() and a new owner forget it.
TEST_CASE("collective memo: a remembered answer is returned until cleared", "[collectives][memo]") {
  MachineSpec m = memo_machine("dgx-h100.yaml");
  const Collective c = memo_coll(m, CommKind::all_reduce, 8, 2, 16384);
  const double before = collective_cost(c, m).seconds;
  const auto memo = std::make_unique<CollectiveMemo>();
  const CollectiveMemoScope scope(*memo, 3, m);
  CHECK(collective_cost(c, m).seconds == before);  // computed and stored
  m.levels[1].collectives.tree[0].hop *= 10;       // what the owner promises not to do
  CHECK(collective_cost(c, m).seconds == before);  // the stored answer: the memo was read
  memo->clear();
  const double after = collective_cost(c, m).seconds;
  CHECK(after > before);  // computed again
}

TEST_CASE("collective memo: scopes nest and restore the outer one", "[collectives][memo]") {
  const MachineSpec a = memo_machine("dgx-h100.yaml");
  const MachineSpec b = memo_machine("mi300x.yaml");
  const auto ma = std::make_unique<CollectiveMemo>();
  const auto mb = std::make_unique<CollectiveMemo>();
  const Collective ca = memo_coll(a, CommKind::all_reduce, 8, 1, 65536);
  const Collective cb = memo_coll(b, CommKind::all_reduce, 8, 1, 65536);
  const double ta = collective_cost(ca, a).seconds, tb = collective_cost(cb, b).seconds;
  MachineSpec a2 = a;  // a machine the outer scope remembers, changed in place below
  const CollectiveMemoScope outer(*ma, 10, a2);
  CHECK(collective_cost(ca, a2).seconds == ta);  // stored in the outer memo
  a2.levels[0].collectives.one_shot.base *= 10;
  const double changed = collective_cost(ca, a2, CommRates{1.0, 1e-12}).seconds;  // other rates: computed
  REQUIRE(changed > ta);
  {
    const CollectiveMemoScope inner(*mb, 11, b);
    CHECK(collective_cost(cb, b).seconds == tb);
    CHECK(collective_cost(ca, a2).seconds > ta);  // not the active machine: computed afresh
  }
  CHECK(collective_cost(ca, a2).seconds == ta);  // the outer scope again: its remembered answer
}

}  // namespace tessera
