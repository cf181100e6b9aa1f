// Experts sliced over more PEs than the expert-parallel group (ep < f; docs/physics.md §4): the PEs
// that share one expert sum their partial outputs (an all-reduce over f / ep PEs on the link of
// expert_sharers()), beside the EP all-to-alls; with ep = f nothing is added. Mixtral-8x7B on
// the fixture DGX-H100 (node 8 x 450 GB/s, 3 us; cluster 50 GB/s, 8 us, uplink 400 GB/s), decode
// at batch 8, attention DP 2 (ffn_shard_scope TP+CP+DP): f = tp x dp = 16.
#include <catch2/catch.hpp>

#include "fixtures.hpp"
#include "tessera/physics/layout.hpp"
#include "tessera/physics/step_work.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("expert sharers: ep 8 of an FFN group of 16 over two nodes share each expert across them",
          "[physics][moe]") {
  const MachineSpec m = dgx_h100();
  Layout lay;
  compute_layout(mixtral_8x7b(), m, decode(4096, 8), attention_dp_config(8, 2, 8), lay);
  REQUIRE(lay.valid);
  REQUIRE(lay.ffn.members[0] == 8);
  REQUIRE(lay.ffn.members[1] == 2);
  REQUIRE(lay.ep.members[0] == 8);  // the EP group: the first 8 members, one node
  REQUIRE(lay.ep.members[1] == 1);
  const LinkCost s = expert_sharers(m, lay);
  CHECK(s.level == 2);  // the sharers of an expert: one GPU in each node
  CHECK(s.members[0] == 1);
  CHECK(s.members[1] == 2);
  CHECK(s.latency == 8e-6);
  // ep = f (tp 4 x dp 2 = 8 = ep): every expert whole on one PE, no sharers.
  Layout whole;
  compute_layout(mixtral_8x7b(), m, decode(4096, 8), attention_dp_config(4, 2, 8), whole);
  REQUIRE(whole.valid);
  CHECK(expert_sharers(m, whole).level == 0);
}

TEST_CASE("expert sharers: moe.combine sums the partial outputs of an expert's sharers", "[physics][moe]") {
  const MachineSpec m = dgx_h100();
  const Evaluation part = evaluate(mixtral_8x7b(), m, decode(4096, 8), attention_dp_config(8, 2, 8));
  const Evaluation whole = evaluate(mixtral_8x7b(), m, decode(4096, 8), attention_dp_config(4, 2, 8));
  REQUIRE(part.valid);
  REQUIRE(whole.valid);
  const StageWork* c = work_stage(part, "moe.combine");
  REQUIRE(c != nullptr);
  REQUIRE(c->comm_count == 2);
  // T_f = 16 tokens (batch 8 per replica x dp 2), K = 2, H = 4096, a = 2 B: each EP position
  // receives T_f K / ep = 4 token slots, 4 x 4096 x 2 = 32,768 B of partial outputs to sum.
  const Collective& a2a = c->comms[0];
  const Collective& ar = c->comms[1];
  CHECK(a2a.kind == CommKind::all_to_all);
  CHECK(a2a.ranks == 8);
  CHECK(ar.kind == CommKind::all_reduce);
  CHECK(ar.ranks == 2);
  CHECK(ar.bytes == 16.0 * 2 * 4096 * 2 / 8);
  CHECK(ar.link.level == 2);
  CHECK(ar.link.members[1] == 2);
  const StageWork* cw = work_stage(whole, "moe.combine");
  REQUIRE(cw != nullptr);
  CHECK(cw->comm_count == 1);  // ep = f: the all-to-all alone
  // The sum across the two nodes makes the sliced-expert configuration pay for its slicing.
  CHECK(find_stage(part, "moe.combine")->comm_s > find_stage(whole, "moe.combine")->comm_s);
}

TEST_CASE("expert sharers: an EP group that does not divide a digit still leaves f over ep sharers",
          "[physics][moe]") {
  // tp 2 x dp 6 = 12 ranks on nodes of 6 GPUs: 6 in a node, 2 nodes; ep 4 takes ranks 0..3. The
  // sharers of expert slot 0 are ranks 0, 4, 8: digit-0 values 0, 4, 2 and digit-1 values 0, 0,
  // 1 - three ranks over two nodes (before, 6 / 4 rounded to 1 in the node: two members).
  MachineSpec m = dgx_h100();
  m.levels[0].fanout = 6;
  Layout lay;
  compute_layout(mixtral_8x7b(), m, decode(4096, 8), attention_dp_config(2, 6, 4), lay);
  REQUIRE(lay.valid);
  REQUIRE(lay.ffn_group == 12);
  const LinkCost s = expert_sharers(m, lay);
  CHECK(s.level == 2);
  CHECK(s.members[0] * s.members[1] >= 3);  // never fewer members than the 3 sharers
  CHECK(s.members[1] == 2);
}

TEST_CASE("expert sharers: they share the uplink as the DP group of the same shape does", "[physics][moe]") {
  // tp 8 x dp 2 with ep 8: one sharer per node, as the DP group; with the cluster uplink cut to
  // 100 GB/s the 8 groups of a node share it, 12.5 GB/s each, for both.
  MachineSpec m = dgx_h100();
  m.levels[1].uplink_bw = 100e9;
  Layout lay;
  compute_layout(mixtral_8x7b(), m, decode(4096, 8), attention_dp_config(8, 2, 8), lay);
  REQUIRE(lay.valid);
  const LinkCost s = expert_sharers(m, lay);
  CHECK(s.members[1] == lay.dp.members[1]);
  CHECK(s.share[1] == lay.dp.share[1]);
  CHECK(s.sharing == lay.dp.sharing);
  CHECK(s.bandwidth == lay.dp.bandwidth);
}
