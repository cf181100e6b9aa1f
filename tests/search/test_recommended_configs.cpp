// What the time model recommends for the two small-message decode scenarios, and the
// stage-by-stage reason (docs/physics.md §14): pinned so that a change of a collective constant
// or formula that changes the answer is seen. Hand numbers from the machine file constants
// (machines/dgx-h100.yaml: one_shot base 3.2 us, bw_factor 0.69 of 450 GB/s).
#include <catch2/catch.hpp>

#include <memory>

#include "search_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

struct Explained {
  double latency_s = 0;
  std::unique_ptr<Evaluation> e;
  const Stage* stage(const char* name) const {
    for (const Stage& s : e->stages)
      if (std::string_view(s.name) == name) return &s;
    return nullptr;
  }
};

Explained explain(const Session& s, const char* config) {
  Explained x;
  x.e = std::make_unique<Evaluation>();
  s.evaluator().evaluate(parse_config(config, s.machine()), *x.e);
  REQUIRE(x.e->feasible);
  x.latency_s = x.e->totals.latency_s;
  return x;
}

// The TP all-reduce of T*H*a bytes on one DGX-H100 node, one-shot: base + (n-1) M / (0.69 B).
double one_shot_h100(double n, double bytes) { return 3.2e-6 + (n - 1) * bytes / (0.69 * 450e9); }

}  // namespace

TEST_CASE("Llama-3.1-70B decode 4K on DGX-H100 - TP=8 on one node with one-shot all-reduces", "[recommend]") {
  const Session s(load("llama3.1-70b-decode-4k-h100.yaml", {"plugins.latency=overlap"}), registry());
  const SearchResult r = search(s, choice("exhaustive"));
  REQUIRE(r.best);
  const ConfigRecord& best = r.records[*r.best];
  CHECK(best.config.tp == 8);
  CHECK(best.config.cp == 1);
  CHECK(best.config.pp == 1);
  CHECK(best.pes == 8);
  CHECK(best.latency_s == Approx(5.81e-3).epsilon(0.005));

  const Explained tp8 = explain(s, "tp=8");
  const Stage* ar = tp8.stage("attn.tp_reduce");
  REQUIRE(ar);
  CHECK(ar->comm_algorithm == CollAlgorithm::one_shot);
  // 16 KiB = 1 token x 8192 x 2 B: 3.2 us + 7 x 16384 / 310.5 GB/s = 3.569 us.
  CHECK(ar->comm_s == Approx(one_shot_h100(8, 16384)).epsilon(1e-9));
  // The alternatives the ring model preferred lose: CP across nodes pays the IB exchange and a
  // hierarchical all-reduce more than it saves in FFN weight streaming; TP=4 streams twice the
  // weights per GPU; TP=16 crosses the 50 GB/s cluster links with every all-reduce.
  const Explained cp2 = explain(s, "cp=2,tp=8,ffn_shard_scope=TP+CP,cp_ring_variant=qoml");
  const Explained tp4 = explain(s, "tp=4");
  const Explained tp16 = explain(s, "tp=16,tp_placement=node");
  CHECK(tp8.latency_s < cp2.latency_s);
  CHECK(tp8.latency_s < tp4.latency_s);
  CHECK(tp8.latency_s < tp16.latency_s);
  const Stage* cp_exchange = cp2.stage("attn.cp");
  REQUIRE(cp_exchange);
  CHECK(cp_exchange->comm_s > 8e-6);  // at least the cluster level's 8 us message latency
}

TEST_CASE("Llama-3.1-8B decode 4K on DGX-H100 - TP=8 beats TP=1 2 4", "[recommend]") {
  const Session s(load("llama3.1-8b-decode-4k-h100.yaml", {"plugins.latency=overlap"}), registry());
  const SearchResult r = search(s, choice("exhaustive"));
  REQUIRE(r.best);
  const ConfigRecord& best = r.records[*r.best];
  CHECK(best.config.tp == 8);
  CHECK(best.config.tp_placement == 0);  // on the GPUs of one node
  CHECK(best.latency_s == Approx(797.2e-6).epsilon(0.005));
  // Each of the 64 all-reduces (2 per layer, 4096 x 2 B = 8 KiB at batch 1) costs
  // 3.2 us + 7 x 8192 / 310.5 GB/s = 3.385 us: 0.217 ms of the step, against 16 GB of
  // weights streamed at 3.35 TB/s / 8 per GPU.
  const Explained tp8 = explain(s, "tp=8");
  const Stage* ar = tp8.stage("ffn.reduce");
  REQUIRE(ar);
  CHECK(ar->comm_algorithm == CollAlgorithm::one_shot);
  CHECK(ar->comm_s == Approx(one_shot_h100(8, 8192)).epsilon(1e-9));
  double previous = 0;
  for (const char* c : {"tp=8", "tp=4", "tp=2", "tp=1"}) {
    const Explained x = explain(s, c);
    CHECK(x.latency_s > previous);  // fewer GPUs, slower: the all-reduces never dominate
    previous = x.latency_s;
  }
}
