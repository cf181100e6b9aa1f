#include "analysis/calibration/calibration_study.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analysis/calibration/percentiles.hpp"
#include "analysis/measurements/table_rows.hpp"
#include "host/plugin_defaults.hpp"
#include "host/plugin_roles.hpp"
#include "tessera/error.hpp"
#include "tessera/limits.hpp"

namespace tessera::calibration {

namespace {

std::vector<const FitRow*> pointers(const std::vector<FitRow>& rows, const std::vector<std::size_t>& idx) {
  std::vector<const FitRow*> out;
  out.reserve(idx.size());
  for (std::size_t i : idx) out.push_back(&rows[i]);
  return out;
}

// The full fit's values a fold did not fit take their a-priori starts: a fold never sees a value
// its held-out rows set.
FitState with_fallbacks(FitState s, const FitResult& full, const std::vector<FitParameter>& table,
                        std::vector<std::string>& fallbacks) {
  for (const FittedValue& v : full.values) {
    auto& group = v.owner == ParamOwner::family ? s.family[v.group] : s.profile[v.group];
    if (group.count(v.name)) continue;
    for (const FitParameter& p : table)
      if (p.name == v.name && p.owner == v.owner) group[v.name] = p.start;
    const std::string what =
        (v.owner == ParamOwner::family ? "family " : "profile ") + v.group + " " + v.name;
    if (std::find(fallbacks.begin(), fallbacks.end(), what) == fallbacks.end()) fallbacks.push_back(what);
  }
  return s;
}

std::vector<ScoredRow> score(const std::vector<FitRow>& rows, const std::vector<std::size_t>& idx,
                             const FitState& s, const Predictor& p) {
  const std::vector<double> pred = p.predict(pointers(rows, idx), s);
  std::vector<ScoredRow> out;
  for (std::size_t i = 0; i < idx.size(); ++i) {
    ScoredRow sr;
    sr.row = idx[i];
    sr.predicted = pred[i];
    const double m = rows[idx[i]].measured;
    sr.ok = std::isfinite(pred[i]) && pred[i] > 0 && m > 0;
    if (sr.ok) {
      sr.ape = std::abs(pred[i] - m) / m;
      sr.ln_ratio = std::log(pred[i] / m);
    }
    out.push_back(sr);
  }
  return out;
}

}  // namespace

std::vector<ScoredRow> ProtocolScore::pooled() const {
  std::vector<ScoredRow> out;
  for (const FoldScore& f : folds) out.insert(out.end(), f.scored.begin(), f.scored.end());
  return out;
}

namespace {

// What `o.latency` fits (its descriptor's `fit` table, with the machine schema its block is read
// with), after refusing --bands for a model that does not declare its bands scored held out
// (kRoleBandScored: none of its values was built from the rows a fold leaves out).
std::vector<FitParameter> fit_table(const PluginRegistry& registry, const CalibrateOptions& o) {
  const SourceLocation at{"--latency", 0, 0};
  const LoadedPlugin& plugin = registry.require(PluginKind::latency, o.latency, at);
  if (o.bands && !has_role(registry, o.latency, kRoleBandScored)) {
    std::string scored;
    for (const std::string& n : registry.names(PluginKind::latency))
      if (has_role(registry, n, kRoleBandScored)) scored += (scored.empty() ? "latency/" : ", latency/") + n;
    throw InputError("calibrate: --bands scores " +
                     (scored.empty() ? std::string("no installed model") : scored) + " only (latency/" +
                     o.latency +
                     " does not declare its bands scored held out: its values are built from measured "
                     "rows, so a held-out source's rows would still be in them)");
  }
  const std::string schema = machine_schema_owner(registry, o.latency);
  return fit_parameters(*plugin.descriptor, *registry.require(PluginKind::latency, schema, at).descriptor);
}

}  // namespace

Calibration calibrate(const PluginRegistry& registry, const CalibrateOptions& o) {
  Calibration c;
  c.latency = o.latency;
  c.table = fit_table(registry, o);
  FitRowOptions ro = o.rows;
  if (has_role(registry, o.latency, kRoleKernelTables))
    ro.table_rows = accuracy::table_build_rows(accuracy::kernel_tables_dir(ro.data_root));
  c.data = load_fit_rows(ro);
  if (o.on_inputs) o.on_inputs(c.data.files);
  if (c.data.rows.empty()) {
    std::string why;
    for (const SkippedRow& s : c.data.skipped)
      why += (why.empty() ? " " : "; ") + s.file + " row " + s.id + ": " + s.reason;
    if (c.data.skipped.empty()) {
      std::string files;
      for (const auto& f : ro.target) files += (files.empty() ? "" : ", ") + f;
      for (const auto& f : ro.extra) files += ", " + f;
      why = " no rows in " + files;
    }
    throw InputError("calibrate: no row could be mapped to a model, machine and framework:" + why);
  }
  std::set<std::string> seen;
  for (const FitRow& r : c.data.rows)
    if (seen.insert(r.source).second) c.sources.push_back(r.source);
  FitOptions fo = o.fit;
  if (c.sources.size() == 1 && fo.min_sources > 1) {
    fo.min_sources = 1;
    c.notes.push_back("one source: its profile values rest on that source alone");
  }
  std::vector<std::size_t> all(c.data.rows.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  const std::vector<const FitRow*> all_rows = pointers(c.data.rows, all);
  const std::size_t n_params = count_parameters(all_rows, c.table, fo);
  if (n_params > c.data.rows.size())
    throw InputError("calibrate: " + std::to_string(c.data.rows.size()) + " mapped row" +
                     (c.data.rows.size() == 1 ? "" : "s") + " for " + std::to_string(n_params) +
                     " fitted values: a fit needs at least as many rows as values (add rows, or name "
                     "one --family and one --framework for them)");
  std::vector<FoldKind> kinds = o.folds;
  if (o.bands && std::find(kinds.begin(), kinds.end(), FoldKind::leave_one_source_out) == kinds.end())
    kinds.push_back(FoldKind::leave_one_source_out);
  for (FoldKind k : kinds)
    if (k != FoldKind::in_sample && c.sources.size() < 2)
      throw InputError(std::string("calibrate: every row comes from one source (") + c.sources.front() +
                       "): the held-out error cannot be measured (" + fold_name(k) +
                       " needs rows from two sources or more); --folds in-sample fits and scores in sample");

  std::size_t held_out = 0;
  for (FoldKind k : kinds)
    if (k != FoldKind::in_sample) {
      std::set<std::string> groups;
      for (const FitRow& r : c.data.rows) groups.insert(fold_group(r, k));
      held_out += groups.size();
    }
  if (held_out > current_limits().calibrate_folds)
    throw InputError("calibrate: the held-out folds (" + std::to_string(held_out) +
                     ", one fit each: one per source, family or framework version the --folds hold out) " +
                     limit_exceeded("calibrate.folds") +
                     ", or fit and score in sample only with --folds in-sample");
  for (FoldKind k : kinds)
    if (k != FoldKind::in_sample) {
      c.notes.push_back(
          "profiles not fitted here keep the plugin's shipped values in every fold: where those were fitted "
          "on these rows (tests/calibration/fit_calibrated's pooled 2023 profiles), their rows' held-out "
          "figures are optimistic");
      break;
    }
  const Predictor predictor(registry, o.latency);
  c.fit = fit(all_rows, c.table, predictor, fo);
  c.notes.insert(c.notes.end(), c.fit.notes.begin(), c.fit.notes.end());
  std::size_t total = 0, done = 0;
  std::vector<std::vector<Fold>> folds;
  for (FoldKind k : kinds) {
    folds.push_back(make_folds(c.data.rows, k));
    total += k == FoldKind::in_sample ? 0 : folds.back().size();
  }
  for (std::size_t ki = 0; ki < kinds.size(); ++ki) {
    ProtocolScore ps;
    ps.kind = kinds[ki];
    for (Fold& f : folds[ki]) {
      FoldScore fs;
      if (kinds[ki] == FoldKind::in_sample) {
        fs.parameters = c.fit.parameters();
        fs.scored = score(c.data.rows, f.test, c.fit.state, predictor);
      } else {
        ++done;
        if (o.on_fold)
          o.on_fold("fold " + std::to_string(done) + "/" + std::to_string(total) + ": " +
                    fold_name(kinds[ki]) + " " + f.held_out);
        if (f.train.empty()) {
          fs.fallbacks.push_back("no rows left to fit: every value a-priori");
          FitState none = with_fallbacks({}, c.fit, c.table, fs.fallbacks);
          fs.scored = score(c.data.rows, f.test, none, predictor);
        } else {
          const FitResult r = fit(pointers(c.data.rows, f.train), c.table, predictor, fo);
          fs.parameters = r.parameters();
          const FitState s = with_fallbacks(r.state, c.fit, c.table, fs.fallbacks);
          fs.scored = score(c.data.rows, f.test, s, predictor);
        }
      }
      fs.fold = std::move(f);
      ps.folds.push_back(std::move(fs));
    }
    c.protocol.push_back(std::move(ps));
  }
  if (o.bands)
    for (const ProtocolScore& ps : c.protocol)
      if (ps.kind == FoldKind::leave_one_source_out) c.bands = error_bands(c, ps);
  return c;
}

std::vector<Band> error_bands(const Calibration& c, const ProtocolScore& loso) {
  struct Acc {
    std::vector<double> ln;
    std::vector<std::string> sources;
  };
  std::map<std::pair<std::string, std::string>, Acc> by;
  for (const ScoredRow& s : loso.pooled()) {
    if (!s.ok) continue;
    const FitRow& r = c.data.rows[s.row];
    // A band is printed beside a prediction of a whole step or request: rows timing one kernel,
    // one copy, one collective or one layer's stage alone inform the fit, not the band.
    if (!r.prep) continue;
    const accuracy::Measure m = r.prep->plan.measure;
    if (m == accuracy::Measure::gemm || m == accuracy::Measure::copy || m == accuracy::Measure::op_stage ||
        m == accuracy::Measure::collective)
      continue;
    const std::string fw = r.framework.empty() ? std::string("default") : r.framework;
    // The family's pooled band stands beside a serving framework's prediction: rows of a
    // measurement harness (kernels timed alone, eager PyTorch or Transformers loops) keep a row of
    // their own but do not enter the pool.
    const bool harness =
        fw == "none" || fw == "transformers" || fw == "pytorch-eager" || fw == "pytorch-cudagraph";
    std::vector<std::string> keys{fw};
    if (!harness) keys.push_back("*");
    for (const std::string& key : keys) {
      Acc& a = by[{r.family, key}];
      a.ln.push_back(s.ln_ratio);
      if (std::find(a.sources.begin(), a.sources.end(), r.source) == a.sources.end())
        a.sources.push_back(r.source);
    }
  }
  std::vector<Band> out;
  for (const auto& [key, a] : by) {
    Band b;
    b.latency = c.latency;
    b.family = key.first;
    b.framework = key.second;
    b.fold = fold_name(FoldKind::leave_one_source_out);
    b.rows = a.ln.size();
    b.sources = a.sources.size();
    b.p10 = *percentile(a.ln, 0.10);
    b.p50 = *percentile(a.ln, 0.50);
    b.p90 = *percentile(a.ln, 0.90);
    out.push_back(b);
  }
  // Per family: the frameworks, then the pooled row.
  std::stable_sort(out.begin(), out.end(), [](const Band& x, const Band& y) {
    if (x.family != y.family) return x.family < y.family;
    return (x.framework == "*") < (y.framework == "*");
  });
  return out;
}

std::vector<double> apes(const Calibration& c, const std::vector<ScoredRow>& rows,
                         bool (*keep)(const FitRow&)) {
  std::vector<double> out;
  for (const ScoredRow& s : rows)
    if (!keep || keep(c.data.rows[s.row])) out.push_back(s.ape);
  return out;
}

bool target_only(const FitRow& r) { return !r.extra; }

std::string metric_key(const FitRow& r) { return r.row ? r.row->metric : std::string(); }

}  // namespace tessera::calibration
