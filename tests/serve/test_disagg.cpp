// Disaggregated serving (analysis/serving/disagg_study.hpp, physics/kv_transfer.hpp; docs/physics.md
// §12.4): KV bytes and transfer time (GQA and MLA, resharded or not, layerwise overlap), rate
// matching by hand, the pairing against a brute-force pairing, every best within its SLO.
#include <catch2/catch.hpp>
#include <set>

#include "analysis/serving/disagg_study.hpp"
#include "eval/host_step_timer.hpp"
#include "serve_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

ModelSpec llama70b_kv() {
  ModelSpec m;
  m.layers = 80;
  m.kv_heads = 8;
  m.head_dim = 128;
  m.dtype.kv = DType::bf16;
  return m;
}

ModelSpec deepseek_v3_kv() {
  ModelSpec m;
  m.layers = 61;
  m.kv_heads = 128;
  m.head_dim = 128;
  m.has_mla = true;
  m.mla.kv_lora_rank = 512;
  m.mla.rope_dim = 64;
  m.dtype.kv = DType::bf16;
  return m;
}

const TransferLink kLink{50e9, 8e-6};  // 50 GB/s per PE, 8 us per message

PoolCandidate candidate(std::uint64_t key, std::int64_t tp, std::int64_t pes, double time_s, double rate) {
  PoolCandidate c;
  c.key = key;
  c.config.tp = tp;
  c.config.dp = pes / tp;
  c.batch = 1;
  c.pes = pes;
  c.time_s = time_s;
  c.requests_per_s = rate;
  return c;
}

// Pairing inputs of 4096-token prompts and 1024 outputs over kLink, disaggregation on.
PairingInputs hand_pairing(const ModelSpec& model, const MachineSpec& machine) {
  PairingInputs in;
  in.model = &model;
  in.machine = &machine;
  in.request = {4096, 1024};
  in.spec.enabled = true;
  in.spec.has_transfer = true;
  in.spec.transfer = kLink;
  return in;
}

}  // namespace

TEST_CASE("kv transfer: GQA and MLA bytes of a 4K prompt") {
  // 2 L h_kv d k ISL = 2 * 80 * 8 * 128 * 2 * 4096; L (kv_lora_rank + rope_dim) k ISL = 61 * 576 * 2 * 4096.
  CHECK(kv_transfer_bytes(llama70b_kv(), 4096) == 1342177280.0);
  CHECK(kv_transfer_bytes(deepseek_v3_kv(), 4096) == 287834112.0);
  ModelSpec fp8 = llama70b_kv();
  fp8.dtype.kv = DType::fp8;
  CHECK(kv_transfer_bytes(fp8, 4096) == 671088640.0);
}

TEST_CASE("kv transfer: GQA at equal TP and resharded") {
  const ModelSpec m = llama70b_kv();
  const double B = 1342177280.0;
  // tp 8 -> tp 8: each of 8 ranks sends its 1/8 to its peer, one message.
  const KvTransfer same = kv_transfer(m, 4096, {8, 1, 1}, {8, 1, 1}, kLink);
  CHECK_FALSE(same.resharded);
  CHECK(same.messages == 1);
  CHECK(same.endpoint_bytes == B / 8);
  CHECK(same.time_s == Approx(8e-6 + 167772160.0 / 50e9).epsilon(1e-12));  // 3.3634432 ms
  CHECK(same.layer_time_s == Approx(8e-6 + 167772160.0 / (80 * 50e9)).epsilon(1e-12));
  // tp 8 -> tp 4: each decode rank receives 1/4 from two prefill ranks (two messages).
  const KvTransfer down = kv_transfer(m, 4096, {8, 1, 1}, {4, 1, 1}, kLink);
  CHECK(down.resharded);
  CHECK(down.messages == 2);
  CHECK(down.endpoint_bytes == B / 4);
  CHECK(down.time_s == Approx(2 * 8e-6 + 335544320.0 / 50e9).epsilon(1e-12));  // 6.7268864 ms
  // tp 4 -> tp 8: each prefill rank sends 1/4 (two halves to two decode ranks).
  const KvTransfer up = kv_transfer(m, 4096, {4, 1, 1}, {8, 1, 1}, kLink);
  CHECK(up.resharded);
  CHECK(up.messages == 1);
  CHECK(up.endpoint_bytes == B / 4);
  CHECK(up.time_s == Approx(8e-6 + 335544320.0 / 50e9).epsilon(1e-12));
  // pp splits the layers: tp 4 pp 2 -> tp 8 has 8 shards on each side.
  const KvTransfer pp = kv_transfer(m, 4096, {4, 2, 1}, {8, 1, 1}, kLink);
  CHECK_FALSE(pp.resharded);
  CHECK(pp.endpoint_bytes == B / 8);
  // As the memory model holds the KV (docs/physics.md §10): split divides it over every tp rank
  // (heads, then the sequence beyond h_kv = 8: 16 distinct parts), replicate keeps one head per
  // rank (16 ranks, 8 distinct heads, copies beyond).
  CHECK(kv_shards(m, {16, 1, 1}) == 16);
  CHECK(kv_shards(m, {16, 1, 1, true}) == 8);
  CHECK(kv_shards(m, {4, 1, 1, true}) == 4);
  CHECK(kv_shards(m, {4, 2, 2}) == 16);
  // tp 16 split -> tp 8: each decode rank gathers two halves (two messages) of B/8.
  const KvTransfer wide = kv_transfer(m, 4096, {16, 1, 1}, {8, 1, 1}, kLink);
  CHECK(wide.resharded);
  CHECK(wide.messages == 2);
  CHECK(wide.receive_bytes == B / 8);
  CHECK(wide.send_bytes == B / 16);
  // replicate: each of 16 decode ranks receives its head's 1/8 (copies included), which 8
  // prefill ranks send: 2 x B/8 each.
  const KvTransfer rep = kv_transfer(m, 4096, {8, 1, 1}, {16, 1, 1, true}, kLink);
  CHECK_FALSE(rep.resharded);
  CHECK(rep.receive_bytes == B / 8);
  CHECK(rep.send_bytes == B / 4);
  CHECK(rep.endpoint_bytes == B / 4);
}

TEST_CASE("kv transfer: a prefill batch sends all its prompts and pp shares each layer") {
  const ModelSpec m = llama70b_kv();
  const double B = 1342177280.0;
  // Four prompts at tp 8 -> tp 8: four times the bytes per endpoint, one message latency.
  const KvTransfer four = kv_transfer(m, 4096, {8, 1, 1}, {8, 1, 1}, kLink, 4);
  CHECK(four.requests == 4);
  CHECK(four.bytes == B);  // byte counts are one request's
  CHECK(four.time_s == Approx(8e-6 + 4 * (B / 8) / 50e9).epsilon(1e-12));
  CHECK(four.send_time_s == four.time_s);
  CHECK(four.receive_time_s == Approx(8e-6 + (B / 8) / 50e9).epsilon(1e-12));  // one request
  CHECK(four.layer_time_s == Approx(8e-6 + 4 * (B / 8) / (80 * 50e9)).epsilon(1e-12));
  // tp 4 pp 2 -> tp 4 pp 2: each endpoint holds 40 layers' B/8, so one layer's share is
  // B/8 x 2 / 80; 40 layers pass one endpoint in a row.
  const KvTransfer pp = kv_transfer(m, 4096, {4, 2, 1}, {4, 2, 1}, kLink);
  CHECK(pp.endpoint_bytes == B / 8);
  CHECK(pp.layer_time_s == Approx(8e-6 + (B / 8) * 2 / (80 * 50e9)).epsilon(1e-12));
  CHECK(pp.serial_layers == 40);
  // A prefill of 1 ms (12.5 us a layer): tau + 39 (tau - 12.5 us).
  const double tau = pp.layer_time_s;
  CHECK(exposed_transfer_s(pp, 1e-3, 80, TransferOverlap::layerwise) ==
        Approx(tau + 39 * (tau - 1.25e-5)).epsilon(1e-12));
  // pp 2 -> pp 1: the decode rank receives every layer, 80 in a row.
  CHECK(kv_transfer(m, 4096, {8, 2, 1}, {8, 1, 1}, kLink).serial_layers == 80);
}

TEST_CASE("kv transfer: MLA's latent split by the sequence or whole on every rank") {
  const ModelSpec m = deepseek_v3_kv();
  const double B = 287834112.0;
  // replicate: one shard each side, every decode rank receives the whole latent.
  const KvTransfer t = kv_transfer(m, 4096, {8, 1, 1, true}, {4, 1, 1, true}, kLink);
  CHECK_FALSE(t.resharded);
  CHECK(t.messages == 1);
  CHECK(t.endpoint_bytes == B);
  CHECK(t.time_s == Approx(8e-6 + B / 50e9).epsilon(1e-12));
  // split (the memory model's s_loc = 1/tp for MLA): tp 8 -> tp 4, each decode rank gathers two
  // eighths of the sequence.
  const KvTransfer s = kv_transfer(m, 4096, {8, 1, 1}, {4, 1, 1}, kLink);
  CHECK(kv_shards(m, {8, 1, 1}) == 8);
  CHECK(s.resharded);
  CHECK(s.messages == 2);
  CHECK(s.receive_bytes == B / 4);
  CHECK(s.send_bytes == B / 8);
  CHECK(s.time_s == Approx(2 * 8e-6 + (B / 4) / 50e9).epsilon(1e-12));
}

TEST_CASE("kv transfer: layerwise overlap exposes one layer or what exceeds the prefill") {
  const KvTransfer t = kv_transfer(llama70b_kv(), 4096, {8, 1, 1}, {8, 1, 1}, kLink);
  const double tau = 8e-6 + 167772160.0 / (80 * 50e9);  // 49.94304 us
  CHECK(exposed_transfer_s(t, 0.4, 80, TransferOverlap::none) == t.time_s);
  // Prefill of 0.4 s: 5 ms per layer > tau, only the last layer's transfer shows.
  CHECK(exposed_transfer_s(t, 0.4, 80, TransferOverlap::layerwise) == Approx(tau).epsilon(1e-12));
  // Prefill of 1 ms: 12.5 us per layer < tau: tau + 79 (tau - 12.5 us) = 3.0079432 ms.
  CHECK(exposed_transfer_s(t, 1e-3, 80, TransferOverlap::layerwise) ==
        Approx(tau + 79 * (tau - 1.25e-5)).epsilon(1e-12));
  CHECK(exposed_transfer_s(t, 1e-3, 80, TransferOverlap::layerwise) == Approx(3.0079432e-3).epsilon(1e-9));
}

TEST_CASE("disaggregated pairing: rate matching by hand") {
  const ModelSpec model = llama70b_kv();
  const Scenario sc = serve_scenario();
  PairingInputs in = hand_pairing(model, sc.machine);
  const PoolCandidate p = candidate(0, 8, 8, 0.5, 2.0);   // 2 prompts/s per instance, 0.5 s each
  const PoolCandidate d = candidate(0, 8, 8, 0.02, 3.0);  // 3 requests/s per instance, TPOT 20 ms
  DisaggPair r;
  REQUIRE(evaluate_pair(in, p, d, 3, 2, r));
  CHECK(r.pes == 40);
  CHECK(r.requests_per_s == 6.0);  // min(3 * 2, 2 * 3)
  CHECK(r.tokens_per_s == 6.0 * 1024);
  CHECK(r.tokens_per_s_per_pe == Approx(153.6).epsilon(1e-12));
  CHECK(r.tokens_per_s_per_user == Approx(50.0).epsilon(1e-12));
  const double tau = 8e-6 + 167772160.0 / (80 * 50e9);
  CHECK(r.ttft_s == Approx(0.5 + tau).epsilon(1e-12));
  CHECK(r.e2e_s == Approx(0.5 + tau + 1023 * 0.02).epsilon(1e-12));
  REQUIRE(evaluate_pair(in, p, d, 2, 2, r));
  CHECK(r.prefill_bound);
  CHECK(r.requests_per_s == 4.0);                   // min(2 * 2, 2 * 3)
  CHECK(r.tokens_per_s_per_pe == 4.0 * 1024 / 32);  // 128
  // Without serving.disaggregated.transfer: the innermost level holding x P_p + y P_d PEs.
  in.spec.has_transfer = false;
  REQUIRE(evaluate_pair(in, candidate(0, 4, 4, 0.5, 1.0), candidate(0, 4, 4, 0.02, 1.0), 1, 1, r));
  CHECK(r.level == 0);  // 8 PEs: one DGX node, NVLink
  CHECK(r.link.bandwidth == sc.machine.levels[0].link_bw * sc.machine.levels[0].collectives.link_efficiency);
  REQUIRE(evaluate_pair(in, p, d, 1, 1, r));
  CHECK(r.level == 1);  // 16 PEs: the cluster
  CHECK(r.link.latency == sc.machine.levels[1].latency);
  // More PEs than the machine has, no transfer block: no link.
  CHECK_FALSE(evaluate_pair(in, candidate(0, 8, 256, 0.5, 1.0), d, 1, 1, r));
  // A slow link caps both pools: 0.1 GB/s, one request's B/8 = 167.77 MB takes 1.6777 s at
  // either end, so a prefill replica sends at most 1 / 1.6777 prompts/s and a decode replica
  // receives as many: 3 x min(2, 0.596) vs 2 x min(3, 0.596).
  in.spec.has_transfer = true;
  in.spec.transfer = TransferLink{0.1e9, 8e-6};
  REQUIRE(evaluate_pair(in, p, d, 3, 2, r));
  const double busy = 8e-6 + 167772160.0 / 0.1e9;
  CHECK(r.prefill_link_bound);
  CHECK(r.decode_link_bound);
  CHECK(r.requests_per_s == Approx(2 / busy).epsilon(1e-12));
  CHECK_FALSE(r.prefill_bound);
  CHECK(r.decode_utilization == 1.0);
  CHECK(r.prefill_utilization == Approx(2.0 / 3.0).epsilon(1e-12));
}

TEST_CASE("disaggregated pairing: the best lies on its own frontier when tokens/s/PE ties") {
  // Prefill-bound pairs: one prefill instance (1 prompt/s) feeds either decode instance, so both
  // pairs have 1024 / 16 tok/s/PE on 16 PEs; the faster decode (TPOT 20 ms, 50 tok/s/user)
  // dominates the slower (40 ms, 25 tok/s/user), which comes first in the candidates' order.
  const ModelSpec model = llama70b_kv();
  const Scenario sc = serve_scenario();
  PairingInputs in = hand_pairing(model, sc.machine);
  in.spec.max_replicas = 1;
  const PoolCandidate p = candidate(0, 8, 8, 0.5, 1.0);
  const DisaggResult r =
      pair_pools(in, {p}, {candidate(0, 8, 8, 0.040, 10.0), candidate(1, 8, 8, 0.020, 10.0)});
  REQUIRE(r.best);
  CHECK(r.best->tokens_per_s_per_pe == 1024.0 / 16);
  CHECK(r.best->tokens_per_s_per_user == Approx(50.0).epsilon(1e-12));
  CHECK(r.best->decode.key == 1);
  REQUIRE(r.frontier.size() == 1);
  CHECK(r.frontier[0].decode.key == 1);
  // Equal in both objectives and PEs: the candidates' order.
  const DisaggResult same =
      pair_pools(in, {p}, {candidate(5, 8, 8, 0.020, 10.0), candidate(2, 8, 8, 0.020, 10.0)});
  REQUIRE(same.best);
  CHECK(same.best->decode.key == 2);
  CHECK(same.frontier.size() == 1);
  CHECK(same.frontier[0].decode.key == 2);
}

TEST_CASE("disaggregated pools: a pp 2 prefill streams at its busiest stage's pace") {
  Scenario sc = serve_scenario();
  sc.plugins.serving = choice("aggregated");
  const Session session(sc, registry());
  const Evaluator& ev = session.evaluator();
  Evaluation holder, scratch;
  ParallelConfig one;
  one.tp = 4;
  ParallelConfig two = one;
  two.pp = 2;
  for (const ParallelConfig& c : {one, two}) {
    ev.layout_for(c, holder);
    REQUIRE(holder.layout.valid);
    HostStepTimer timer(ev, c, holder.layout, scratch);
    const double t = timer.prefill(2, 4096, 0), period = timer.prefill_period();
    INFO("pp " << c.pp);
    if (c.pp == 1) {
      CHECK(period == t);
    } else {
      // The prompt passes both stages in turn (TTFT ~ 2 stages); a stream leaves one per stage time.
      CHECK(period < 0.6 * t);
      CHECK(period > 0.4 * t);
    }
  }
}

TEST_CASE("disaggregated pairing: Pareto-filtered equals brute force on a small scenario") {
  Scenario sc = serve_scenario();
  sc.plugins.serving = choice("aggregated");
  sc.sweep.serving_batch = {1, 8, 32, 64, 128};
  sc.sweep.serving_token_budget = {0};
  sc.serving.max_pes = 16;
  sc.serving.disaggregated.enabled = true;
  sc.serving.disaggregated.max_replicas = 3;
  sc.serving.disaggregated.prefill_batch = {1, 2};
  const Session session(sc, registry());
  const DisaggStudy study = run_disagg_study(session);
  const DisaggPools& pools = study.pools;
  REQUIRE(pools.prefill.size() > 4);
  REQUIRE(pools.decode.size() > 8);
  // Brute force: every candidate of both pools (unfiltered) x every x, y.
  PairingInputs in;
  in.model = &session.model();
  in.machine = &session.machine();
  in.request = {4096, 1024};
  in.slo = sc.serving.slo;
  in.max_pes = 16;
  in.spec = sc.serving.disaggregated;
  std::vector<DisaggPair> feasible;
  DisaggPair pair;
  for (const PoolCandidate& p : pools.prefill)
    for (const PoolCandidate& d : pools.decode)
      for (std::int64_t x = 1; x <= 3; ++x)
        for (std::int64_t y = 1; y <= 3; ++y)
          if (x * p.pes + y * d.pes <= 16 && evaluate_pair(in, p, d, x, y, pair) &&
              pair_within_slo(in.slo, pair))
            feasible.push_back(pair);
  REQUIRE_FALSE(feasible.empty());
  double best = 0;
  for (const DisaggPair& f : feasible) best = std::max(best, f.tokens_per_s_per_pe);
  REQUIRE(study.result.best);
  CHECK(study.result.best->tokens_per_s_per_pe == best);
  // The filter kept fewer candidates than there are.
  CHECK(study.result.counts.prefill_kept < pools.prefill.size());
  CHECK(study.result.counts.decode_kept < pools.decode.size());
  CHECK(study.result.counts.pairs == study.result.counts.prefill_kept * study.result.counts.decode_kept * 9);
  // The frontier's (tokens/s/user, tokens/s/PE) values: exactly the brute-force non-dominated ones.
  std::set<std::pair<double, double>> brute;
  for (const DisaggPair& a : feasible) {
    bool dominated = false;
    for (const DisaggPair& b : feasible)
      if (b.tokens_per_s_per_pe >= a.tokens_per_s_per_pe &&
          b.tokens_per_s_per_user >= a.tokens_per_s_per_user &&
          (b.tokens_per_s_per_pe > a.tokens_per_s_per_pe ||
           b.tokens_per_s_per_user > a.tokens_per_s_per_user)) {
        dominated = true;
        break;
      }
    if (!dominated) brute.insert({a.tokens_per_s_per_user, a.tokens_per_s_per_pe});
  }
  std::set<std::pair<double, double>> got;
  for (const DisaggPair& f : study.result.frontier)
    got.insert({f.tokens_per_s_per_user, f.tokens_per_s_per_pe});
  CHECK(got == brute);
  CHECK(study.result.frontier.size() == brute.size());
  // Every reported pair meets the SLO and the budget.
  for (const DisaggPair& f : study.result.frontier) {
    CHECK(f.ttft_s <= 1.0);
    CHECK(f.tpot_s <= 0.050);
    CHECK(f.pes <= 16);
  }
  CHECK(study.result.best->ttft_s <= 1.0);
  CHECK(study.result.best->tpot_s <= 0.050);
  // The best is a frontier point: the frontier's point of most tokens/s/PE.
  bool on_frontier = false;
  for (const DisaggPair& f : study.result.frontier)
    on_frontier = on_frontier || (f.tokens_per_s_per_pe == study.result.best->tokens_per_s_per_pe &&
                                  f.tokens_per_s_per_user == study.result.best->tokens_per_s_per_user &&
                                  f.pes == study.result.best->pes);
  CHECK(on_frontier);
}

TEST_CASE("disaggregated scenario: the shipped block parses and one output token is refused") {
  const Scenario sc = load("llama3.1-70b-serve-4k1k-h100-disagg.yaml");
  const DisaggregationSpec& d = sc.serving.disaggregated;
  CHECK(d.enabled);
  CHECK(d.overlap == TransferOverlap::layerwise);
  CHECK(d.max_replicas == 8);
  CHECK(d.prefill_batch == std::vector<std::int64_t>{1, 2, 4});
  CHECK_FALSE(d.has_transfer);
  CHECK(sc.serving.max_pes == 64);
  CHECK_FALSE(serve_scenario().serving.disaggregated.enabled);
  Scenario one = serve_scenario();
  one.workload.output = 1;
  one.serving.disaggregated.enabled = true;
  const Session session(one, registry());
  CHECK_THROWS_AS(run_disagg_study(session), InputError);
}

TEST_CASE("disaggregated pools: each pool takes only the configurations its own parallelism admits") {
  Scenario sc = serve_scenario();
  sc.plugins.serving = choice("aggregated");
  sc.sweep.tp = {1, 2, 4, 8};
  sc.sweep.serving_batch = {8, 64};
  sc.sweep.serving_token_budget = {0};
  sc.serving.disaggregated.enabled = true;
  const DisaggPools all = run_disagg_study(Session(sc, registry())).pools;
  sc.serving.disaggregated.prefill.tp = {1, 2};
  sc.serving.disaggregated.decode.tp = {4, 8};
  const DisaggPools split = run_disagg_study(Session(sc, registry())).pools;
  REQUIRE_FALSE(split.prefill.empty());
  REQUIRE_FALSE(split.decode.empty());
  // The same candidates, timed the same, as the unrestricted pools' of those degrees.
  const auto kept = [](const std::vector<PoolCandidate>& v, std::set<int> tps) {
    std::vector<std::pair<int, double>> out;
    for (const PoolCandidate& c : v)
      if (tps.count(c.config.tp)) out.emplace_back(c.config.tp, c.time_s);
    return out;
  };
  CHECK(kept(split.prefill, {1, 2}) == kept(all.prefill, {1, 2}));
  CHECK(kept(split.prefill, {4, 8}).empty());
  CHECK(kept(split.decode, {4, 8}) == kept(all.decode, {4, 8}));
  CHECK(kept(split.decode, {1, 2}).empty());
}

TEST_CASE("disaggregated pools: a listed scope admits the configurations it means at their cp and dp") {
  PoolParallelism p;
  p.ffn_shard_scope = {FfnShardScope::tp_cp_dp};
  ParallelConfig c;
  c.dp = 4;
  c.ffn_shard_scope = FfnShardScope::tp_cp_dp;
  CHECK(p.admits(c));  // attention data parallelism
  c.ffn_shard_scope = FfnShardScope::tp;
  CHECK_FALSE(p.admits(c));  // dp replicas of a TP FFN
  c.dp = 1;
  CHECK(p.admits(c));  // TP+CP+DP over one DP rank and one CP rank is TP (the canonical form)
  p.ep = {8};
  c.ep = 4;
  CHECK_FALSE(p.admits(c));
  c.ep = 8;
  CHECK(p.admits(c));
}

TEST_CASE("disaggregated pools: each pool prices the MoE exchange its own flags launch") {
  // A vLLM-like table: the aggregated server gathers (allgather_reducescatter), the prefill pool
  // runs DeepEP normal, the decode pool low-latency (Scenario::moe_a2a_pools; pool_sessions).
  Scenario sc = serve_scenario();
  sc.serving.disaggregated.enabled = true;
  sc.moe_a2a.fill(MoeA2a::gather_scatter);
  sc.moe_a2a_pools[0].fill(MoeA2a::deepep_normal);
  sc.moe_a2a_pools[1].fill(MoeA2a::deepep_low_latency);
  const Session base(sc, registry());
  const PoolSessions pools = pool_sessions(base);
  CHECK(base.evaluator().context().moe_a2a[0] == MoeA2a::gather_scatter);
  REQUIRE(pools.prefill != &base);
  REQUIRE(pools.decode != &base);
  CHECK(pools.prefill->evaluator().context().moe_a2a[1] == MoeA2a::deepep_normal);
  CHECK(pools.decode->evaluator().context().moe_a2a[3] == MoeA2a::deepep_low_latency);
  // Tables equal to the aggregated server's: the pools run on the base session.
  sc.moe_a2a_pools = {sc.moe_a2a, sc.moe_a2a};
  const Session same(sc, registry());
  const PoolSessions shared = pool_sessions(same);
  CHECK(shared.prefill == &same);
  CHECK(shared.decode == &same);
}
