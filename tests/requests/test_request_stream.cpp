// Request streams (analysis/requests/request_stream.hpp): arrival processes with the stated
// rate and variability, length distributions, and the same requests for the same seed.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <vector>

#include "analysis/requests/request_stream.hpp"

using namespace tessera::requests;

namespace {

std::vector<Request> drain(const StreamSpec& spec) {
  RequestStream s(spec);
  std::vector<Request> out;
  Request r;
  while (s.next(r)) out.push_back(r);
  return out;
}

// The mean and the coefficient of variation of the gaps between arrivals.
std::pair<double, double> gap_stats(const std::vector<Request>& rs) {
  double sum = 0, sq = 0;
  const auto n = static_cast<double>(rs.size() - 1);
  for (std::size_t i = 1; i < rs.size(); ++i) {
    const double g = rs[i].arrival_s - rs[i - 1].arrival_s;
    sum += g;
    sq += g * g;
  }
  const double mean = sum / n;
  return {mean, std::sqrt(sq / n - mean * mean) / mean};
}

}  // namespace

TEST_CASE("arrivals have the stated rate and variability") {
  StreamSpec spec;
  spec.requests = 200000;
  spec.arrival.rate_per_s = 20;
  SECTION("poisson: exponential gaps, cv 1") {
    const auto [mean, cv] = gap_stats(drain(spec));
    CHECK(mean == Approx(0.05).epsilon(0.01));
    CHECK(cv == Approx(1.0).epsilon(0.01));
  }
  SECTION("gamma: cv as stated, bursty and smooth") {
    spec.arrival.kind = ArrivalKind::gamma;
    for (double cv_stated : {0.5, 2.0}) {
      spec.arrival.cv = cv_stated;
      const auto [mean, cv] = gap_stats(drain(spec));
      CHECK(mean == Approx(0.05).epsilon(0.015));
      CHECK(cv == Approx(cv_stated).epsilon(0.02));
    }
  }
  SECTION("constant: gaps of exactly 1/rate") {
    spec.arrival.kind = ArrivalKind::constant;
    spec.requests = 5;
    const auto rs = drain(spec);
    REQUIRE(rs.size() == 5);
    CHECK(rs[0].arrival_s == 0);
    CHECK(rs[4].arrival_s == Approx(0.2));
  }
}

TEST_CASE("lengths follow their distributions and arrivals do not depend on them") {
  StreamSpec spec;
  spec.requests = 50000;
  spec.input.kind = LengthKind::uniform;
  spec.input.min = 100;
  spec.input.max = 199;
  spec.output.kind = LengthKind::lognormal;
  spec.output.median = 300;
  spec.output.sigma = 0.5;
  spec.output.min = 1;
  spec.output.max = 2000;
  const auto rs = drain(spec);
  std::int64_t lo = 1 << 30, hi = 0;
  std::vector<std::int64_t> outs;
  for (const Request& r : rs) {
    lo = std::min(lo, r.input);
    hi = std::max(hi, r.input);
    outs.push_back(r.output);
    CHECK(r.output >= 1);
    CHECK(r.output <= 2000);
  }
  CHECK(lo == 100);
  CHECK(hi == 199);
  std::nth_element(outs.begin(), outs.begin() + 25000, outs.end());
  CHECK(static_cast<double>(outs[25000]) == Approx(300).epsilon(0.02));
  // The same seed with fixed lengths: the same arrival times.
  StreamSpec fixed = spec;
  fixed.input = LengthSpec{};
  fixed.output = LengthSpec{};
  const auto fs = drain(fixed);
  for (std::size_t i = 0; i < rs.size(); i += 997) CHECK(fs[i].arrival_s == rs[i].arrival_s);
  // Another seed: other arrivals.
  fixed.seed = 2;
  CHECK(drain(fixed)[10].arrival_s != fs[10].arrival_s);
}

TEST_CASE("an empirical table draws its values by weight") {
  StreamSpec spec;
  spec.requests = 40000;
  spec.input.kind = LengthKind::table;
  spec.input.table = {{128, 1}, {1024, 3}};
  std::map<std::int64_t, int> seen;
  for (const Request& r : drain(spec)) ++seen[r.input];
  REQUIRE(seen.size() == 2);
  CHECK(seen[1024] / 40000.0 == Approx(0.75).epsilon(0.02));
}

TEST_CASE("a trace replays its rows from its first timestamp and a closed loop sends when told") {
  StreamSpec spec;
  spec.arrival.kind = ArrivalKind::trace;
  spec.trace = std::make_shared<const std::vector<TraceRow>>(
      std::vector<TraceRow>{{100.5, 10, 2, -1}, {101.0, 20, 3, 4}, {103.25, 30, 1, -1}});
  spec.requests = 10;
  const auto rs = drain(spec);
  REQUIRE(rs.size() == 3);
  CHECK(rs[1].arrival_s == 0.5);
  CHECK(rs[2].arrival_s == 2.75);
  CHECK(rs[1].input == 20);
  CHECK(rs[1].prefix_id == 4);
  StreamSpec closed;
  closed.arrival.kind = ArrivalKind::concurrency;
  closed.arrival.concurrency = 4;
  closed.requests = 2;
  RequestStream s(closed);
  CHECK(s.closed_loop());
  Request r;
  CHECK(s.next_at(1.5, r));
  CHECK(r.arrival_s == 1.5);
  CHECK(s.next_at(2.0, r));
  CHECK(r.id == 1);
  CHECK_FALSE(s.next_at(3.0, r));
}
