#include "analysis/calibration/fitter.hpp"

#include <cmath>
#include <map>
#include <set>

#include "analysis/calibration/data_term.hpp"
#include "analysis/calibration/fit_sample.hpp"
#include "tessera/dtype.hpp"
#include "tessera/error.hpp"
#include "tessera/limits.hpp"

namespace tessera::calibration {

namespace {

struct Slot {
  const FitParameter* param;
  std::string group;
};

std::vector<Slot> slots_for(const std::vector<const FitRow*>& rows, const std::vector<FitParameter>& table,
                            const FitOptions& o, std::vector<std::string>* notes) {
  std::set<std::string> families, eight_bit;
  std::map<std::string, std::set<std::string>> sources;  // profile key -> sources
  for (const FitRow* r : rows) {
    families.insert(r->family);
    if (eight_bit_gemms(*r)) eight_bit.insert(r->family);
    if (!r->framework.empty() && r->framework != "none") sources[r->profile_key()].insert(r->source);
  }
  std::vector<Slot> out;
  for (const std::string& f : families)
    for (const FitParameter& p : table)
      if (p.owner == ParamOwner::family && (!p.needs_8bit || eight_bit.count(f))) out.push_back({&p, f});
  for (const auto& [key, src] : sources) {
    if (src.size() < o.min_sources) {
      if (notes)
        notes->push_back("profile " + key + ": rows from " + std::to_string(src.size()) + " source" +
                         (src.size() == 1 ? "" : "s") + " (fitted from " + std::to_string(o.min_sources) +
                         "): the plugin's values");
      continue;
    }
    for (const FitParameter& p : table)
      if (p.owner == ParamOwner::profile) out.push_back({&p, key});
  }
  return out;
}

double& value_of(FitState& s, const Slot& sl) {
  auto& group = sl.param->owner == ParamOwner::family ? s.family[sl.group] : s.profile[sl.group];
  return group[sl.param->name];
}

}  // namespace

std::size_t count_parameters(const std::vector<const FitRow*>& rows, const std::vector<FitParameter>& table,
                             const FitOptions& o) {
  return slots_for(rows, table, o, nullptr).size();
}

double data_loss(const std::vector<const FitRow*>& rows, const FitState& state, const Predictor& predictor,
                 double extra_weight) {
  DataTerm data(rows, extra_weight);
  return data(state, predictor);
}

FitResult fit(const std::vector<const FitRow*>& rows, const std::vector<FitParameter>& table,
              const Predictor& predictor, const FitOptions& o) {
  FitResult res;
  const std::vector<Slot> slots = slots_for(rows, table, o, &res.notes);
  std::vector<double> x, prior;
  std::vector<Transform> tr;
  for (const Slot& sl : slots) {
    x.push_back(encode(sl.param->transform, sl.param->start));
    prior.push_back(x.back());
    tr.push_back(sl.param->transform);
    value_of(res.state, sl) = sl.param->start;
  }
  const FitSample sample = fit_sample(rows, current_limits().calibrate_fit_predictions);
  if (sample.sampled())
    res.notes.push_back(
        "fitted on " + std::to_string(sample.predictions) + " of " + std::to_string(sample.of) +
        " distinct predictions, an equal share per source and profile, and scored every row: their number " +
        limit_exceeded("calibrate.fit_predictions"));
  if (sample.predictions < slots.size())
    throw InputError("calibrate: the fit sample holds " + std::to_string(sample.predictions) +
                     " distinct predictions for " + std::to_string(slots.size()) +
                     " fitted values: a fit needs at least as many; raise --limit calibrate.fit_predictions");
  DataTerm data(sample.rows, o.extra_weight);
  auto f = [&](const std::vector<double>& y) {
    double pen = 0;
    for (std::size_t i = 0; i < slots.size(); ++i) {
      const FitParameter& p = *slots[i].param;
      const double v = decode(p.transform, y[i]);
      value_of(res.state, slots[i]) = v;
      if (v < p.lo) pen += 10 * (1 + std::abs(y[i] - encode(p.transform, p.lo)));
      if (v > p.hi) pen += 10 * (1 + std::abs(y[i] - encode(p.transform, p.hi)));
      const double w = p.owner == ParamOwner::family ? o.family_prior_weight : o.profile_prior_weight;
      pen += w * (y[i] - prior[i]) * (y[i] - prior[i]);
    }
    return data(res.state, predictor) + pen;
  };
  double best = 0;
  x = minimise(f, x, tr, o.optimizer, best);
  f(x);  // leave the best values in the state
  res.loss = best;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const FitParameter& p = *slots[i].param;
    double& v = value_of(res.state, slots[i]);
    v = std::clamp(v, p.lo, p.hi);
    const double span = encode(p.transform, p.hi) - encode(p.transform, p.lo);
    const bool wall = std::abs(encode(p.transform, v) - encode(p.transform, p.lo)) < 1e-3 * span ||
                      std::abs(encode(p.transform, v) - encode(p.transform, p.hi)) < 1e-3 * span;
    res.values.push_back({p.owner, slots[i].group, p.name, v, wall});
  }
  return res;
}

}  // namespace tessera::calibration
