// Heterogeneous disaggregated serving (serving.prefill_machine / serving.decode_machine;
// docs/physics.md §12.4 "Heterogeneous pools"): the link rule, each pool timed on its own
// machine, a faster decode HBM never lowers the best, the dotted paths land on the right pool,
// and the refusals.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "analysis/explore/serve_exploration.hpp"
#include "analysis/serving/disagg_study.hpp"
#include "report/study_text/disagg_report.hpp"
#include "scenario/sweeps/hardware_points.hpp"
#include "serve_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

const char* kScenario = "llama3.1-70b-serve-4k1k-b200-h200-disagg.yaml";

PoolCandidate pool_candidate(std::uint64_t key, std::int64_t tp, double time_s, double rate) {
  PoolCandidate c;
  c.key = key;
  c.config.tp = tp;
  c.batch = 1;
  c.pes = tp;
  c.time_s = time_s;
  c.requests_per_s = rate;
  return c;
}

// The small serve scenario of serve_fixture.hpp, disaggregated, its decode pool on a copy of
// its machine whose HBM bandwidth is `decode_hbm` (B/s).
Scenario hetero(double decode_hbm) {
  Scenario sc = serve_scenario();
  sc.plugins.serving = choice("aggregated");
  sc.sweep.serving_batch = {1, 8, 64};
  sc.sweep.serving_token_budget = {0};
  sc.serving.max_pes = 16;
  sc.serving.disaggregated.enabled = true;
  sc.serving.disaggregated.max_replicas = 2;
  sc.serving.disaggregated.has_transfer = true;
  sc.serving.disaggregated.transfer = TransferLink{50e9, 8e-6};
  sc.serving.decode_machine.given = true;
  sc.serving.decode_machine.machine = sc.machine;
  sc.serving.decode_machine.machine.name = "decode-part";
  sc.serving.decode_machine.machine.pe.hbm_bandwidth = decode_hbm;
  sc.serving.decode_machine.blocks = sc.machine_blocks;
  sc.serving.decode_machine.file = sc.machine_file;
  return sc;
}

std::string load_error(std::vector<std::string> set) {
  try {
    load(kScenario, std::move(set));
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("hetero pools: a hand-computed pair over serving.disaggregated.transfer and resharded") {
  // Llama-3.1-70B's KV of a 4K prompt: 2 * 80 * 8 * 128 * 2 * 4096 = 1342177280 B.
  const Scenario sc = load(kScenario);
  PairingInputs in;
  in.model = &sc.model;
  in.machine = nullptr;  // two machines: no level joins them
  in.request = {4096, 1024};
  in.slo = sc.serving.slo;
  in.spec = sc.serving.disaggregated;
  in.spec.overlap = TransferOverlap::none;
  // Prefill tp 8 on the B200 (T_p 0.3 s, 3 req/s); decode tp 4 on the H200 (TPOT 20 ms vs the
  // same configuration's 12 ms on a faster-HBM part: the rate per instance follows 1/TPOT).
  const PoolCandidate p = pool_candidate(0, 8, 0.3, 3.0);
  const PoolCandidate slow = pool_candidate(1, 4, 0.020, 16.0 / (1023 * 0.020));
  const PoolCandidate fast = pool_candidate(2, 4, 0.012, 16.0 / (1023 * 0.012));
  DisaggPair a, b;
  REQUIRE(evaluate_pair(in, p, slow, 1, 2, a));
  REQUIRE(evaluate_pair(in, p, fast, 1, 2, b));
  CHECK(a.level == -1);
  CHECK(a.link.bandwidth == 50e9);
  CHECK(a.link.latency == 8e-6);
  // tp 8 -> tp 4: each decode rank receives 1/4 from two prefill ranks: 2 messages of 8 us and
  // 335544320 B at 50 GB/s = 6.7268864 ms, all exposed (overlap none).
  CHECK(a.transfer.resharded);
  CHECK(a.transfer.messages == 2);
  CHECK(a.transfer.time_s == Approx(2 * 8e-6 + 335544320.0 / 50e9).epsilon(1e-12));
  CHECK(a.ttft_s == Approx(0.3 + 0.0067268864).epsilon(1e-12));
  // Rate: min(1 * 3, 2 * 16 / (1023 * 0.020) = 1.5640 req/s): decode-bound on the slow part.
  CHECK(a.requests_per_s == Approx(32.0 / (1023 * 0.020)).epsilon(1e-12));
  CHECK_FALSE(a.prefill_bound);
  CHECK(a.tokens_per_s_per_pe == Approx(32.0 / (1023 * 0.020) * 1024 / 16).epsilon(1e-12));
  // The fast part: 2 * 16 / (1023 * 0.012) = 2.607 req/s, still decode-bound, more tokens/s/PE.
  CHECK(b.requests_per_s == Approx(32.0 / (1023 * 0.012)).epsilon(1e-12));
  CHECK(b.tokens_per_s_per_pe > a.tokens_per_s_per_pe);
  CHECK(b.tpot_s == 0.012);
  // Without serving.disaggregated.transfer two machines have no link.
  in.spec.has_transfer = false;
  CHECK_FALSE(evaluate_pair(in, p, slow, 1, 2, a));
}

TEST_CASE("hetero pools: the decode pool is timed on its own machine") {
  const Scenario base_sc = hetero(3.35e12);
  const Session base(base_sc, registry());
  const PoolSessions same = pool_sessions(base);
  REQUIRE(same.own_decode);
  CHECK_FALSE(same.own_prefill);
  CHECK(same.prefill == &base);
  CHECK(same.decode->machine().name == "decode-part");
  const DisaggPools one = evaluate_pools(base, base, 16);  // both pools on `machine`
  const DisaggPools two = evaluate_pools(*same.prefill, *same.decode, 16);
  Scenario fast_sc = hetero(6.7e12);
  const Session fast_base(fast_sc, registry());
  const PoolSessions fast = pool_sessions(fast_base);
  const DisaggPools three = evaluate_pools(*fast.prefill, *fast.decode, 16);
  // Prefill: the same machine, the same candidates.
  REQUIRE(three.prefill.size() == one.prefill.size());
  for (std::size_t i = 0; i < one.prefill.size(); ++i)
    CHECK(three.prefill[i].time_s == one.prefill[i].time_s);
  // Decode: equal HBM gives equal times; twice the HBM bandwidth strictly lowers every TPOT,
  // by at most half (the weights and KV streamed at twice the rate, the rest unchanged).
  REQUIRE(two.decode.size() == one.decode.size());
  REQUIRE(three.decode.size() == one.decode.size());
  for (std::size_t i = 0; i < one.decode.size(); ++i) {
    CHECK(two.decode[i].time_s == one.decode[i].time_s);
    CHECK(three.decode[i].time_s < one.decode[i].time_s);
    CHECK(three.decode[i].time_s >= one.decode[i].time_s / 2 * (1 - 1e-12));
  }
  CHECK(two.configurations == 2 * one.configurations);  // each machine's valid ones
}

TEST_CASE("hetero pools: a faster decode HBM never lowers the best tokens/s/PE") {
  double last = 0;
  for (double bw : {2.0e12, 3.35e12, 4.8e12, 8.0e12}) {
    const Session base(hetero(bw), registry());
    const PoolSessions s = pool_sessions(base);
    const DisaggStudy st = run_disagg_study(*s.prefill, *s.decode, 16);
    REQUIRE(st.result.best);
    CHECK(st.result.best->level == -1);  // the transfer, never a machine level
    CHECK(st.result.best->tokens_per_s_per_pe >= last);
    CHECK(st.result.counts.no_link == 0);
    last = st.result.best->tokens_per_s_per_pe;
  }
}

TEST_CASE("hetero scenario: the shipped B200 / H200 pair parses") {
  const Scenario sc = load(kScenario);
  CHECK(sc.machine.name == "DGX-B200");
  CHECK_FALSE(sc.serving.prefill_machine.given);
  REQUIRE(sc.serving.decode_machine.given);
  CHECK(sc.serving.decode_machine.machine.name == "DGX-H200");
  CHECK(sc.serving.decode_machine.machine.pe.hbm_bandwidth == 4.8e12);
  CHECK(sc.serving.separate_machines());
  CHECK(sc.serving.disaggregated.has_transfer);
  CHECK(sc.serving.disaggregated.transfer.bandwidth == 50e9);
  CHECK(sc.serving.disaggregated.transfer.latency == 8e-6);
}

TEST_CASE("hetero paths: --set serving.decode_machine.<path> lands on the decode pool only") {
  const Scenario sc = load(kScenario, {"serving.decode_machine.pe.hbm.bandwidth=6 TB/s"});
  CHECK(sc.serving.decode_machine.machine.pe.hbm_bandwidth == 6e12);
  CHECK(sc.machine.pe.hbm_bandwidth == 8e12);  // the B200's, unchanged
  // A whole pool machine replaced, then one of its fields.
  const Scenario p =
      load(kScenario, {"serving.prefill_machine=dgx-h100", "serving.prefill_machine.pe.hbm.capacity=96 GB"});
  REQUIRE(p.serving.prefill_machine.given);
  CHECK(p.serving.prefill_machine.machine.name == "DGX-H100");
  CHECK(p.serving.prefill_machine.machine.pe.hbm_capacity == 96e9);
  CHECK(p.serving.decode_machine.machine.pe.hbm_capacity == 141e9);
  CHECK(p.machine.pe.hbm_capacity == 180e9);
  // A level of a pool's machine, by name.
  const Scenario l = load(kScenario, {"serving.decode_machine.levels.node.link_bw=600 GB/s"});
  CHECK(l.serving.decode_machine.machine.levels[0].link_bw == 600e9);
  CHECK(l.machine.levels[0].link_bw == 900e9);
}

TEST_CASE("hetero paths: the refusals") {
  const std::string shared = load_error({"machine.pe.hbm.bandwidth=6 TB/s"});
  CHECK(shared.find("'machine.pe.hbm.bandwidth' is ambiguous") != std::string::npos);
  CHECK(shared.find("did you mean 'serving.prefill_machine.pe.hbm.bandwidth' or "
                    "'serving.decode_machine.pe.hbm.bandwidth'?") != std::string::npos);
  const std::string typo = load_error({"serving.decode_machine.pe.hbm.bandwdith=6 TB/s"});
  CHECK(typo.find("no key 'serving.decode_machine.pe.hbm.bandwdith'") != std::string::npos);
  CHECK(typo.find("did you mean 'serving.decode_machine.pe.hbm.bandwidth'?") != std::string::npos);
  const std::string absent = load_error({"serving.prefill_machine.pe.hbm.bandwidth=6 TB/s"});
  CHECK(absent.find("serving.prefill_machine is not given") != std::string::npos);
  const std::string no_link = load_error({"serving.disaggregated={max_replicas: 8}"});
  CHECK(no_link.find("serving.decode_machine: the pools run on machines of their own") != std::string::npos);
  const std::string value = load_error({"serving.decode_machine.pe.hbm.bandwidth=6"});
  CHECK(value.find("serving.decode_machine.pe.hbm.bandwidth") != std::string::npos);
}

TEST_CASE("hetero report: the aggregated study on each machine and the gain against the better") {
  const Scenario sc = load(kScenario);
  const Session base(sc, registry());
  const PoolSessions pools = pool_sessions(base);
  REQUIRE(pools.own_decode);
  const ServeResult on_b200 = run_serve_study(base);
  const ServeResult on_h200 = run_serve_study(*pools.own_decode);
  const DisaggStudy d = run_disagg_study(*pools.prefill, *pools.decode, on_b200.max_pes);
  REQUIRE(d.result.best);
  const std::vector<AggregatedOn> also{{"DGX-H200", "decode", on_h200}};
  const nlohmann::json j = disagg_json(base, d, on_b200, also);
  CHECK(j["prefill_machine"] == "DGX-B200");
  CHECK(j["decode_machine"] == "DGX-H200");
  CHECK(j["best"]["prefill"]["machine"] == "DGX-B200");
  CHECK(j["best"]["decode"]["machine"] == "DGX-H200");
  REQUIRE(j["aggregated_on"].size() == 2);
  const double better = std::max(on_b200.best_tokens_per_s_per_pe, on_h200.best_tokens_per_s_per_pe);
  CHECK(j["aggregated_best_tokens_per_s_per_pe"].get<double>() == better);
  CHECK(j["gain"].get<double>() == Approx(d.result.best->tokens_per_s_per_pe / better).epsilon(1e-12));
  CHECK(j["best"]["link"] == "serving.disaggregated.transfer");
  // The pools' PEs both count against serving.max_pes.
  CHECK(d.result.best->pes ==
        d.result.best->x * d.result.best->prefill.pes + d.result.best->y * d.result.best->decode.pes);
  CHECK(d.result.best->pes <= 64);
}

TEST_CASE("hetero sweep: a serving.decode_machine axis lands on the decode machine only") {
  Scenario sc = hetero(3.35e12);
  HardwareAxis axis;
  axis.path = "serving.decode_machine.pe.hbm.bandwidth";
  axis.dimension = Dimension::bandwidth;
  axis.values = {2e12, 4e12, 8e12};
  sc.sweep.hardware = {axis};
  const HardwarePoint base = hardware_point(sc.sweep, sc.machine, 2);
  CHECK(base.machine.pe.hbm_bandwidth == 3.35e12);  // `machine` untouched
  CHECK(base.values == std::vector<double>{8e12});
  const HardwarePoint pool =
      hardware_point(sc.sweep, sc.serving.decode_machine.machine, 1, {}, "serving.decode_machine");
  CHECK(pool.machine.pe.hbm_bandwidth == 4e12);
  CHECK(hardware_point(sc.sweep, sc.machine, 1, {}, "serving.prefill_machine").machine.pe.hbm_bandwidth ==
        3.35e12);
  // Through the loader: the axis is read with machine.<path>'s row, on the decode machine.
  const Scenario l =
      load(kScenario, {"sweep.hardware.serving.decode_machine.pe.hbm.bandwidth=[4 TB/s, 6 TB/s]"});
  REQUIRE(l.sweep.hardware.size() == 1);
  CHECK(l.sweep.hardware[0].values == std::vector<double>{4e12, 6e12});
  CHECK(axis_pool(l.sweep.hardware[0]) == "serving.decode_machine");
}

TEST_CASE("hetero explore: every point's serving study and the ranking") {
  Scenario sc = hetero(3.35e12);
  HardwareAxis axis;
  axis.path = "serving.decode_machine.pe.hbm.bandwidth";
  axis.dimension = Dimension::bandwidth;
  axis.values = {2e12, 8e12, 4e12};
  sc.sweep.hardware = {axis};
  const Session session(sc, registry());
  const ServeExploreResult r = explore_serving(session, {});
  REQUIRE(r.points.size() == 3);
  // Each point equals the serve study on that pair of machines (hetero(bw)).
  for (std::size_t i = 0; i < 3; ++i) {
    const Session at(hetero(axis.values[i]), registry());
    const PoolSessions s = pool_sessions(at);
    const DisaggStudy d = run_disagg_study(*s.prefill, *s.decode, 16);
    REQUIRE(r.points[i].disaggregated);
    CHECK(r.points[i].disaggregated->tokens_per_s_per_pe == d.result.best->tokens_per_s_per_pe);
    CHECK(r.points[i].best == d.result.best->tokens_per_s_per_pe);
    const double agg = std::max(run_serve_study(at).best_tokens_per_s_per_pe,
                                run_serve_study(*s.decode).best_tokens_per_s_per_pe);
    CHECK(r.points[i].aggregated == agg);
    CHECK(r.points[i].gain == Approx(r.points[i].best / agg).epsilon(1e-12));
  }
  // Ranked by the disaggregated best: a faster decode HBM never ranks lower (8, 4, 2 TB/s).
  CHECK(r.ranking == std::vector<std::size_t>{1, 2, 0});
  CHECK(r.points[1].best >= r.points[2].best);
  CHECK(r.points[2].best >= r.points[0].best);
}
