#include "analysis/explore/serve_point_values.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "tessera/price.hpp"

namespace tessera {

std::vector<double> best_on_axes(const ServeResult& r) {
  std::vector<double> best(r.axes.size(), NAN);
  for (const ServeRecord& f : r.frontier) {
    if (!f.feasible) continue;
    for (std::size_t a = 0; a < r.axes.size() && a < f.axis_values.size(); ++a) {
      const double v = f.axis_values[a];
      const bool more = r.axes[a].direction == Direction::maximize;
      if (std::isnan(best[a]) || (more ? v > best[a] : v < best[a])) best[a] = v;
    }
  }
  return best;
}

namespace {

// The coefficients of the scenario's cost_per_mtok objective (its parameters; the defaults when
// the scenario does not name it).
ParametricPeCost cost_per_mtok_coefficients(const Session& s) {
  for (const PluginChoice& c : s.scenario().plugins.objectives)
    if (c.name == "cost_per_mtok")
      return read_parametric_pe_cost(s.registry().validate_choice(PluginKind::objective, c));
  return ParametricPeCost{};
}

}  // namespace

double pair_cost_per_mtok(const Session& prefill, const Session& decode, const DisaggPair& p,
                          std::string& why) {
  for (const Session* s : {&prefill, &decode})
    if (!(s->machine().price.power > 0)) {
      why = "the disaggregated pair is not priced: machine '" + s->machine().name +
            "' states no price.power (its electricity from the energy: block needs each pool's step "
            "energy); the cost_per_mtok column is the aggregated study's";
      return NAN;
    }
  const double rate = p.tokens_per_s;
  if (!(rate > 0)) return NAN;
  const ParametricPeCost k = cost_per_mtok_coefficients(decode);
  const double usd = usd_per_token(k, prefill.context(), static_cast<double>(p.x * p.prefill.pes), rate, 0) +
                     usd_per_token(k, decode.context(), static_cast<double>(p.y * p.decode.pes), rate, 0);
  return 1e6 * usd;
}

std::vector<std::size_t> rank_by(const std::vector<double>& values, Direction direction) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const double x = values[a], y = values[b];
    if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
    return direction == Direction::maximize ? x > y : x < y;
  });
  return order;
}

}  // namespace tessera
