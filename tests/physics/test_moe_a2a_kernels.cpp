// The MoE exchange kernels (docs/physics.md §5 "MoE all-to-all kernels"): DeepEP's normal kernels
// send a token once per destination rank and node holding one of its experts, hand-computed on a
// two-level machine whose `direct` constants are set here; the step builds each kernel's
// collectives as the table of EvalContext::moe_a2a chooses.
#include <catch2/catch.hpp>

#include "fixtures.hpp"
#include "tessera/physics/collectives.hpp"
#include "tessera/physics/layout.hpp"
#include "tessera/physics/step_work.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

// dgx_h100() with only the direct all-to-all: node NVLink (450 GB/s, base 10 us), cluster
// network (50 GB/s per GPU, a node's uplink 400 GB/s, base 50 us); no per-peer hop.
MachineSpec direct_only() {
  MachineSpec m = dgx_h100();
  for (std::size_t i = 0; i < 2; ++i) {
    LevelCollectives& c = m.levels[i].collectives;
    c.fabric = i == 0 ? Fabric::nvlink : Fabric::network;
    c.algorithms = 1u << static_cast<unsigned>(CollAlgorithm::direct);
    c.direct = AlgorithmCost{i == 0 ? 10e-6 : 50e-6, 0, 1};
  }
  return m;
}

// The EP group of n ranks: one node (n <= 8) or n / 8 nodes of 8.
Collective ep_exchange(int n, double bytes, int top_k, int experts) {
  Collective c;
  c.kind = CommKind::all_to_all;
  c.ranks = n;
  c.bytes = bytes;
  c.link.level = n > 8 ? 2 : 1;
  c.link.bandwidth = n > 8 ? 50e9 : 450e9;
  c.link.latency = n > 8 ? 8e-6 : 3e-6;
  c.link.members.fill(1);
  c.link.stride.fill(1);
  c.link.share.fill(1);
  c.link.members[0] = n > 8 ? 8 : n;
  c.link.members[1] = n > 8 ? n / 8 : 1;
  c.route_top_k = top_k;
  c.route_experts = experts;
  return c;
}

// DeepSeek-V3's dispatch of 128 tokens per rank: 128 x 8 copies of 7168 FP8 bytes.
constexpr double kM = 128.0 * 8 * 7168;

// DeepSeek-V3 on the fixture DGX-H100 with every phase's exchange `kernel` (latency/overlap).
Evaluation evaluate_with(MoeA2a kernel, const ParallelConfig& c, const Workload& w) {
  const ModelSpec model = deepseek_v3();
  const MachineSpec machine = dgx_h100();
  EvalContext ctx = make_eval_context(model, machine);
  ctx.moe_a2a.fill(kernel);
  const Evaluator ev(ctx, w, std::make_shared<tessera::plugins::OverlapLatency>(),
                     std::make_shared<tessera::plugins::StandardMemory>(0.0), {});
  Evaluation out;
  ev.evaluate(c, out);
  return out;
}

}  // namespace

TEST_CASE("moe a2a kernels: DeepEP normal inside one node sends a token once per rank reached",
          "[physics][moe]") {
  const MachineSpec m = direct_only();
  // q(1) = prod_{j<8} (256 - 32 - j) / (256 - j) = 0.338168; 7 (1 - q) / 8 = 0.579103 of M.
  const double normal = collective_cost(ep_exchange(8, kM, 8, 256), m).seconds;
  const double direct = collective_cost(ep_exchange(8, kM, 0, 0), m).seconds;
  CHECK(normal == Approx(10e-6 + 0.579103 * kM / 450e9).epsilon(1e-5));  // 19.446 us
  CHECK(direct == Approx(10e-6 + 7.0 / 8 * kM / 450e9).epsilon(1e-9));   // 24.272 us
}

TEST_CASE("moe a2a kernels: DeepEP normal across two nodes crosses the network once per node reached",
          "[physics][moe]") {
  const MachineSpec m = direct_only();
  // n = 16: q(1) = prod (256 - 16 - j)/(256 - j) = 0.592295, q(8) = prod (128 - j)/(256 - j) = 0.0034899.
  // NVLink: 7 (1 - q(1)) (16/8) / 8 = 0.713484 of M over 450 GB/s = 11.638 us; network:
  // (1 - q(8)) / 8 = 0.124564 of M over min(50, 400 / 8) GB/s = 18.286 us; base 50 us.
  const double normal = collective_cost(ep_exchange(16, kM, 8, 256), m).seconds;
  CHECK(normal == Approx(50e-6 + 0.124564 * kM / 50e9).epsilon(1e-5));
  // Every copy: 8/16 of M crosses the network, 73.40 us.
  const double direct = collective_cost(ep_exchange(16, kM, 0, 0), m).seconds;
  CHECK(direct == Approx(50e-6 + 0.5 * kM / 50e9).epsilon(1e-9));
  // One expert per token: no copy to deduplicate, the network share is the same 8/16.
  CHECK(collective_cost(ep_exchange(16, kM / 8, 1, 256), m).seconds ==
        Approx(collective_cost(ep_exchange(16, kM / 8, 0, 0), m).seconds).epsilon(1e-9));
}

TEST_CASE("moe a2a kernels: DeepEP normal forwards over a slow NVLink at its hand-computed share",
          "[physics][moe]") {
  MachineSpec m = direct_only();
  m.levels[0].link_bw = 10e9;  // NVLink now the slower path: 0.713484 M / 10 GB/s = 523.7 us
  // [(8 - 1) + (16 - 8)(8 - 1)/8](1 - q(1)) / 8 = 14 x 0.407705 / 8 = 0.713484 of M.
  CHECK(collective_cost(ep_exchange(16, kM, 8, 256), m).seconds ==
        Approx(50e-6 + 0.713484 * kM / 10e9).epsilon(1e-5));
  // DeepEP's wire bytes: (M / K)[(8 - 1)(1 - q(1)) + (8 / 8)(1 - q(8))] = (M / 8)(2.853935 + 0.996510).
  CHECK(collective_wire_bytes(ep_exchange(16, kM, 8, 256)) ==
        Approx(kM / 8 * (7 * 0.407705 + 0.996510)).epsilon(1e-5));
}

TEST_CASE("moe a2a kernels: without peer memory on the first level a token goes once per rank",
          "[physics][moe]") {
  MachineSpec m = direct_only();
  m.levels[0].collectives.fabric = Fabric::roce;  // Gaudi's scale-up: no NVLink forwarding
  // Network share per level (u = 1): node (8 - 1)(1 - q(1)) / 8 = 0.356742; cluster (2 - 1) 8 (1 - q(1)) / 8
  // = 0.407705 of M over 50 GB/s.
  CHECK(collective_cost(ep_exchange(16, kM, 8, 256), m).seconds ==
        Approx(50e-6 + 0.407705 * kM / 50e9).epsilon(1e-5));
}

TEST_CASE("moe a2a kernels: DeepEP normal never sends more than every copy and grows with experts per token",
          "[physics][moe]") {
  const MachineSpec m = direct_only();
  for (int n : {2, 4, 8, 16, 32, 64, 128})
    for (int k : {1, 2, 4, 8}) {
      INFO("n " << n << " k " << k);
      const double copies = kM / 8 * k;
      const double normal = collective_cost(ep_exchange(n, copies, k, 256), m).seconds;
      CHECK(normal <= collective_cost(ep_exchange(n, copies, 0, 0), m).seconds * (1 + 1e-12));
    }
  // Per token sent, more experts per token reach more nodes: non-decreasing in K at fixed tokens.
  double last = 0;
  for (int k = 1; k <= 8; ++k) {
    const double t = collective_cost(ep_exchange(32, kM / 8 * k, k, 256), m).seconds;
    CHECK(t >= last);
    last = t;
  }
}

TEST_CASE("moe a2a kernels: the step builds each kernel's exchange", "[physics][moe]") {
  // DeepSeek-V3 prefill of 2 x 1024 tokens, attention-DP 2 of TP 8, EP 16 over the FFN group of 16.
  const Workload w = prefill(1024, 1);
  const ParallelConfig c = attention_dp_config(8, 2, 16);
  SECTION("deepep_normal: an all-to-all that carries the routing") {
    const Evaluation s = evaluate_with(MoeA2a::deepep_normal, c, w);
    const StageWork* d = work_stage(s, "moe.dispatch");
    REQUIRE(d != nullptr);
    REQUIRE(d->comm_count == 1);
    CHECK(d->comms[0].kind == CommKind::all_to_all);
    CHECK(d->comms[0].route_top_k == 8);
    CHECK(d->comms[0].route_experts == 256);
  }
  SECTION("deepep_low_latency: every copy sent directly") {
    const Evaluation e = evaluate_with(MoeA2a::deepep_low_latency, c, w);
    const StageWork* d = work_stage(e, "moe.dispatch");
    REQUIRE(d != nullptr);
    CHECK(d->comms[0].route_top_k == 0);
  }
  SECTION("gather_scatter: the group's all-gather, reduce-scatter and all-gather") {
    const Evaluation s = evaluate_with(MoeA2a::gather_scatter, c, w);
    CHECK(work_stage(s, "moe.dispatch") == nullptr);
    const StageWork* k = work_stage(s, "moe.combine");
    REQUIRE(k != nullptr);
    REQUIRE(k->comm_count == 3);
    CHECK(k->comms[0].kind == CommKind::all_gather);
    CHECK(k->comms[1].kind == CommKind::reduce_scatter);
    CHECK(k->comms[0].ranks == 16);
    CHECK(k->comms[2].kind == CommKind::all_gather);
    CHECK(k->comms[2].ranks == 8);  // the replica's TP group gathers its own tokens' outputs
  }
  SECTION("all_reduce_gather: two all-reduces of the group's tokens") {
    const Evaluation s = evaluate_with(MoeA2a::all_reduce_gather, c, w);
    CHECK(work_stage(s, "moe.dispatch") == nullptr);
    const StageWork* k = work_stage(s, "moe.combine");
    REQUIRE(k != nullptr);
    REQUIRE(k->comm_count == 2);
    CHECK(k->comms[0].kind == CommKind::all_reduce);
    CHECK(k->comms[0].bytes == k->comms[1].bytes);
    CHECK(k->comms[0].bytes == 2 * 1024.0 * 7168 * 2);  // T_f = dp x 1024 tokens of H bf16
  }
  SECTION("the decode phase reads its own entry") {
    const ModelSpec model = deepseek_v3();
    const MachineSpec machine = dgx_h100();
    EvalContext ctx = make_eval_context(model, machine);
    CHECK(ctx.a2a_kernel(false, true) == MoeA2a::deepep_normal);  // the default: DeepEP's auto mode
    CHECK(ctx.a2a_kernel(true, true) == MoeA2a::deepep_low_latency);
  }
}
