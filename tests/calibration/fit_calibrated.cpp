// fit_calibrated: chooses the parameters of latency/calibrated from measurements, and measures
// how well they generalise (leave one source out). docs/accuracy.md records its output.
//
//   fit_calibrated --target data/measurements.csv --extra data/measurements-h200.csv
//                  [--loso] [--rounds N]
//
// Rows: the latency rows of the target CSV (the acceptance set) and of every --extra CSV (our
// own calibration measurements; H200 rows the data README marks as superseded are left out:
// --exclude-ids, --exclude-notes). Parameters: per machine family (machine files grouped by
// --family) the 8 efficiencies of the `efficiency:` block; per serving framework with rows the
// 4 overheads of its profile. Loss: each source weighs the same — the mean over its rows of a
// Huber loss (δ = 0.1) of ln(predicted/measured) — plus a weak pull towards the documented
// defaults (so that parameters the rows do not constrain stay at them). Nelder-Mead on
// transformed parameters (logit for efficiencies, log for the rest), restarted until it stops
// improving. Then `generic` = one profile fitted to every framework's rows together (families
// fixed). A framework with no rows takes the generic profile; a family with no rows its
// documented defaults.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#include "tessera_build_paths.hpp"

#include "analysis/accuracy/accuracy_study.hpp"
#include "analysis/calibration/optimizer.hpp"
#include "calibrated.hpp"
#include "host/plugin_registry.hpp"

namespace fs = std::filesystem;
using namespace tessera;
using namespace tessera::accuracy;
using tessera::plugins::CalibratedLatency;
using tessera::plugins::FamilyEfficiency;
using CalibratedProfile =
    tessera::plugins::ServingStackProfile;  // not tessera::ServingStackProfile (data/frameworks.yaml)

namespace {

// ---- parameters ---------------------------------------------------------------------------

enum class Tr { logit, log_us, log };  // efficiency in (0,1); overhead in µs >= 0; positive number

struct FamKey {
  const char* name;
  Tr tr;
  double FamilyEfficiency::*field;
  double scale;  // SI per displayed unit (1e-6 for µs)
};
const FamKey kFamKeys[] = {
    {"gemm_efficiency", Tr::logit, &FamilyEfficiency::gemm_efficiency, 1},
    {"gemm_m_half", Tr::log, &FamilyEfficiency::gemm_m_half, 1},
    {"gemm_8bit_efficiency", Tr::logit, &FamilyEfficiency::gemm_8bit_efficiency, 1},
    {"hbm_efficiency", Tr::logit, &FamilyEfficiency::hbm_efficiency, 1},
    {"attention_efficiency", Tr::logit, &FamilyEfficiency::attention_efficiency, 1},
    {"kernel_overhead", Tr::log_us, &FamilyEfficiency::kernel_overhead, 1e-6},
};
constexpr int kFamKeyCount = static_cast<int>(std::size(kFamKeys));
// The documented physical range of each family value (SI; docs/accuracy.md "The calibrated
// model"): the fit is held inside it (a value outside is an artefact, not shipped).
const double kFamRange[][2] = {{0.4, 0.95}, {1, 512}, {0.4, 1.0}, {0.6, 0.95}, {0.2, 0.9}, {1e-6, 10e-6}};
struct FwKey {
  const char* name;
  double CalibratedProfile::*field;
};
const FwKey kFwKeys[] = {
    {"launch_overhead", &CalibratedProfile::launch_overhead},
    {"collective_overhead", &CalibratedProfile::collective_overhead},
    {"decode_step_overhead", &CalibratedProfile::decode_step_overhead},
    {"prefill_overhead", &CalibratedProfile::prefill_overhead},
    {"decode_seq_overhead", &CalibratedProfile::decode_seq_overhead},
    {"prefill_chunk_overhead", &CalibratedProfile::prefill_chunk_overhead},
};
// Starting point of a fitted framework profile (µs): documented in docs/accuracy.md. Only the
// first kFwFitted keys are fitted; the per-sequence and per-chunk costs stay at their a-priori
// values (no 2023 row runs continuous batching or chunked prefill).
const double kFwStart[] = {5, 10, 200, 200, 0, 0};
constexpr int kFwFitted = 4;
constexpr int kFwKeyCount = static_cast<int>(std::size(kFwKeys));

double encode(Tr t, double v) {
  switch (t) {
    case Tr::logit: {
      const double e = std::clamp(v, 1e-4, 1 - 1e-4);
      return std::log(e / (1 - e));
    }
    case Tr::log_us:
      return std::log(v * 1e6 + 0.1);
    case Tr::log:
      return std::log(v + 0.1);
  }
  return 0;
}
double decode(Tr t, double x) {
  switch (t) {
    case Tr::logit:
      return 1 / (1 + std::exp(-x));
    case Tr::log_us:
      return std::max(0.0, std::exp(x) - 0.1) * 1e-6;
    case Tr::log:
      return std::max(0.0, std::exp(x) - 0.1);
  }
  return 0;
}

struct State {
  std::map<std::string, FamilyEfficiency> fam;  // by family
  std::map<std::string, CalibratedProfile> fw;  // by framework
};

struct Slot {  // one free parameter
  bool family = true;
  std::string owner;
  int key = 0;
  Tr tr = Tr::logit;
  double prior = 0;  // encoded default
};

double& slot_ref(State& s, const Slot& sl) {
  if (sl.family) return s.fam[sl.owner].*(kFamKeys[sl.key].field);
  return s.fw[sl.owner].*(kFwKeys[sl.key].field);
}

// ---- rows ---------------------------------------------------------------------------------

struct FitRow {
  std::string source;  // full source string
  std::string family;
  std::string framework;       // the profile's label ("tensorrt-llm@<1.0")
  std::string framework_name;  // the framework ("tensorrt-llm")
  PreparedRow prep;
  bool target = false;  // from the --target CSV (acceptance set)
};

struct Data {
  std::vector<DataRow> raw;  // owns the rows PreparedRow points to
  std::vector<FitRow> rows;
  std::vector<std::pair<std::string, std::string>> unmapped;  // target rows: id, reason
  std::size_t target_latency_rows = 0;
};

std::map<std::string, std::string> g_family_of;  // machine file stem -> family

std::string family_of(const std::string& machine_file) {
  const std::string stem = fs::path(machine_file).stem().string();
  const auto it = g_family_of.find(stem);
  return it == g_family_of.end() ? stem : it->second;
}

// ---- prediction and loss --------------------------------------------------------------------

// Serving profiles whose rows come from one source: they take the pooled `generic` values
// (fitted on every such row of every source) instead of values of their own.
std::set<std::string> g_tied;

struct Predictor {
  std::shared_ptr<const MemoryModel> memory;

  // NaN when the row cannot be predicted.
  double predict(const FitRow& r, const State& s) const {
    const auto fam_it = s.fam.find(r.family);
    FamilyEfficiency fe = fam_it == s.fam.end() ? FamilyEfficiency{} : fam_it->second;
    const auto fw_it = s.fw.find(g_tied.count(r.framework) ? std::string("generic") : r.framework);
    const CalibratedProfile fp = fw_it != s.fw.end() ? fw_it->second : s.fw.at("modern-stack");
    ParamSet eff;
    for (const FamKey& k : kFamKeys) eff.set(k.name, fe.*(k.field));
    auto lat = std::make_shared<const CalibratedLatency>(fp);
    try {
      return predict_row(r.prep, lat, eff, memory);
    } catch (const Error&) {
      return std::nan("");
    }
  }
};

double huber(double x, double d = 0.1) {
  const double a = std::abs(x);
  return a <= d ? 0.5 * a * a : d * (a - 0.5 * d);
}

double g_extra_weight = 0.5;  // weight of a calibration (--extra) group relative to a target group
// The frameworks whose rows the generic profile is fitted to: serving stacks (an unstated
// framework in a measurement is a serving stack), not plain PyTorch experiments.
std::set<std::string> g_generic_from = {"generic",  "tensorrt-llm", "fastertransformer",
                                        "lmdeploy", "vllm",         "deepspeed"};

// Rows are weighed by group: (source, framework). Each group of the target CSV weighs 1, each
// group of the calibration CSVs g_extra_weight, whatever its number of rows.
double loss(const std::vector<const FitRow*>& rows, const State& s, const Predictor& p) {
  std::map<std::string, std::pair<double, int>> by;
  std::map<std::string, double> weight;
  for (const FitRow* r : rows) {
    const double v = p.predict(*r, s);
    double e = 5;  // an unpredictable row costs as much as a 150x error
    if (std::isfinite(v) && v > 0) e = std::log(v / r->prep.plan.measured);
    const std::string key = r->source + "\x1f" + r->framework;
    auto& b = by[key];
    b.first += huber(e);
    b.second += 1;
    weight[key] = r->target ? 1.0 : g_extra_weight;
  }
  double total = 0;
  for (const auto& [key, b] : by) total += weight[key] * b.first / b.second;
  return total;
}

// ---- the optimiser: framework/src/analysis/calibration/optimizer.* (the one `tessera calibrate`
// uses): a coordinate search, then Nelder-Mead ----------------------------------------------------

tessera::calibration::Transform transform_of(Tr t) {
  switch (t) {
    case Tr::logit:
      return tessera::calibration::Transform::logit;
    case Tr::log_us:
      return tessera::calibration::Transform::log_us;
    case Tr::log:
      return tessera::calibration::Transform::log;
  }
  return tessera::calibration::Transform::logit;
}

struct FitOptions {
  int rounds = 4;
  int evals_per_round = 3000;
  double prior_weight = 1e-5;         // framework overheads: a nudge only
  double family_prior_weight = 3e-3;  // machine-family efficiencies: keeps them physical
  bool verbose = false;
};

// Fits the free slots in place; returns the final loss.
double fit_slots(const std::vector<const FitRow*>& rows, State& s, const std::vector<Slot>& slots,
                 const Predictor& p, const FitOptions& o,
                 const std::function<double(const State&)>& loss_fn) {
  if (slots.empty()) return loss_fn(s);
  std::vector<double> x(slots.size());
  for (std::size_t i = 0; i < slots.size(); ++i) x[i] = encode(slots[i].tr, slot_ref(s, slots[i]));
  auto f = [&](const std::vector<double>& y) {
    double pen = 0;
    for (std::size_t i = 0; i < slots.size(); ++i) {
      const double v = decode(slots[i].tr, y[i]);
      slot_ref(s, slots[i]) = v;
      // Outside the documented range: a steep wall, in units of the encoded distance.
      const double lo = slots[i].family
                            ? kFamRange[slots[i].key][0]
                            : tessera::plugins::profile_ranges()[static_cast<std::size_t>(slots[i].key)].lo;
      const double hi = slots[i].family
                            ? kFamRange[slots[i].key][1]
                            : tessera::plugins::profile_ranges()[static_cast<std::size_t>(slots[i].key)].hi;
      if (v < lo) pen += 10 * (1 + std::abs(y[i] - encode(slots[i].tr, lo)));
      if (v > hi) pen += 10 * (1 + std::abs(y[i] - encode(slots[i].tr, hi)));
      const double w = slots[i].family ? o.family_prior_weight : o.prior_weight;
      pen += w * (y[i] - slots[i].prior) * (y[i] - slots[i].prior);
    }
    return loss_fn(s) + pen;
  };
  (void)rows;
  (void)p;
  std::vector<tessera::calibration::Transform> trs;
  for (const Slot& sl : slots) trs.push_back(transform_of(sl.tr));
  double best = f(x), prev = best;
  for (int r = 0; r < o.rounds; ++r) {
    x = tessera::calibration::coordinate_search(f, x, trs, 6, best);
    if (o.verbose) std::fprintf(stderr, "  round %d: coordinate descent %.6f", r, best);
    x = tessera::calibration::nelder_mead(f, x, 0.2, o.evals_per_round, best);
    if (o.verbose) std::fprintf(stderr, ", Nelder-Mead %.6f\n", best);
    if (r > 0 && prev - best < 1e-6) break;
    prev = best;
  }
  f(x);  // leave the best values in s
  return best;
}

// Families at the documented defaults; profiles as shipped (a-priori values, or fitted ones
// which fit_all restarts from kFwStart where it refits them).
State defaults(const std::set<std::string>& families) {
  State s;
  for (const auto& f : families) s.fam[f] = FamilyEfficiency{};
  for (const CalibratedProfile& p : tessera::plugins::serving_stack_profiles()) s.fw[p.label()] = p;
  return s;
}

void set_start(CalibratedProfile& p) {
  for (int k = 0; k < kFwKeyCount; ++k) p.*(kFwKeys[k].field) = kFwStart[k] * 1e-6;
}

// The profiles whose values the rows may set: rows from at least two independent sources, not
// an a-priori profile, not `none` (docs/accuracy.md "Framework profiles").
std::set<std::string> fittable_profiles(const std::vector<const FitRow*>& rows, const State& s) {
  std::map<std::string, std::set<std::string>> sources;
  for (const FitRow* r : rows) sources[r->framework].insert(r->source);
  std::set<std::string> out;
  for (const auto& [label, src] : sources) {
    const auto it = s.fw.find(label);
    if (it == s.fw.end() || it->second.apriori || label == "none" || src.size() < 2) continue;
    out.insert(label);
  }
  return out;
}

// A fitted value outside its documented range is an artefact: the a-priori value ships.
void enforce_ranges(CalibratedProfile& p) {
  for (int k = 0; k < kFwKeyCount; ++k) {
    const auto& r = tessera::plugins::profile_ranges()[static_cast<std::size_t>(k)];
    double& v = p.*(kFwKeys[k].field);
    if (v < r.lo || v > r.hi) v = kFwStart[k] * 1e-6;
  }
}

int g_fitted_parameters = 0;               // of the last fit_all
std::vector<std::string> g_fitted_labels;  // profiles the last fit_all fitted (generic first)

// Fits families + named frameworks on `rows`, then the generic profile on all of them.
State fit_all(const std::vector<const FitRow*>& rows, const std::set<std::string>& families,
              const Predictor& p, const FitOptions& o) {
  State s = defaults(families);
  std::set<std::string> fams, fws;
  std::set<std::string> eight_bit_fams;
  for (const FitRow* r : rows) {
    fams.insert(r->family);
    fws.insert(r->framework);
    const DTypes& d = r->prep.model.dtype;
    if (dtype_bits(d.gemm(WeightPart::other)) <= 8) eight_bit_fams.insert(r->family);
  }
  std::vector<Slot> slots;
  for (const auto& f : fams)
    for (int k = 0; k < kFamKeyCount; ++k) {
      if (std::string(kFamKeys[k].name) == "gemm_8bit_efficiency" && !eight_bit_fams.count(f)) continue;
      Slot sl{true, f, k, kFamKeys[k].tr, 0};
      sl.prior = encode(sl.tr, FamilyEfficiency{}.*(kFamKeys[k].field));
      slots.push_back(sl);
    }
  std::set<std::string> fittable = fittable_profiles(rows, s);
  g_tied.clear();
  for (const FitRow* r : rows)
    if (g_generic_from.count(r->framework_name) && !fittable.count(r->framework) &&
        !s.fw.at(r->framework).apriori)
      g_tied.insert(r->framework);
  if (!g_tied.empty() || fws.count("generic")) fittable.insert("generic");
  g_tied.erase("generic");
  for (const auto& w : fittable) {
    set_start(s.fw[w]);
    for (int k = 0; k < kFwFitted; ++k) {
      Slot sl{false, w, k, Tr::log_us, encode(Tr::log_us, kFwStart[k] * 1e-6)};
      slots.push_back(sl);
    }
  }
  (void)fws;
  auto base_loss = [&](const State& st) { return loss(rows, st, p); };
  fit_slots(rows, s, slots, p, o, base_loss);

  // generic: fitted with the families on the rows of every serving profile tied to it.
  for (const auto& w : fittable) enforce_ranges(s.fw[w]);
  // The older frameworks with no rows of their own, and those tied to the pool, carry the pooled
  // 2023 numbers (profiles.cpp).
  // Every serving profile that is neither a-priori nor fitted on its own (a held-out source's
  // too) takes the pool.
  std::set<std::string> pooled = g_tied;
  for (const auto& [label, prof] : s.fw)
    if (g_generic_from.count(prof.name) && !prof.apriori && !fittable.count(label)) pooled.insert(label);
  g_tied = pooled;
  for (const std::string& legacy : pooled) {
    CalibratedProfile& prof = s.fw[legacy];
    CalibratedProfile g = s.fw.at("generic");
    g.name = prof.name;
    g.versions = prof.versions;
    g.meaning = prof.meaning;
    g.provenance = prof.provenance;
    prof = g;
  }
  g_fitted_parameters = static_cast<int>(slots.size());
  g_fitted_labels = {"generic"};
  for (const auto& w : fittable)
    if (w != "generic") g_fitted_labels.push_back(w);
  std::string tied;
  for (const auto& t : g_tied) tied += " " + t;
  std::fprintf(stderr, "pooled into generic (one source):%s\n", tied.c_str());
  // Families with no rows keep the documented defaults (defaults() already set them).
  return s;
}

// ---- reporting ------------------------------------------------------------------------------

std::string us(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", s * 1e6);
  return b;
}

void print_state(const State& s, const std::set<std::string>& families_with_rows) {
  std::printf("\n# efficiency blocks (machine files)\n");
  for (const auto& [fam, fe] : s.fam) {
    if (!families_with_rows.count(fam)) continue;
    std::printf("# family %s:\nefficiency:\n", fam.c_str());
    for (const FamKey& k : kFamKeys) {
      const double v = fe.*(k.field);
      if (k.tr == Tr::log_us)
        std::printf("  %s: %s us\n", k.name, us(v).c_str());
      else
        std::printf("  %s: %.4g\n", k.name, v);
    }
  }
  std::printf(
      "\n// fitted profile values (profiles.cpp FITTED VALUES): launch, collective call, decode step, "
      "prefill, decode sequence, prefill chunk (us)\n");
  for (const std::string& label : g_fitted_labels) {
    const CalibratedProfile& p = s.fw.at(label);
    std::printf("    {\"%s\", {%s, %s, %s, %s, %s, %s}},\n", label.c_str(), us(p.launch_overhead).c_str(),
                us(p.collective_overhead).c_str(), us(p.decode_step_overhead).c_str(),
                us(p.prefill_overhead).c_str(), us(p.decode_seq_overhead).c_str(),
                us(p.prefill_chunk_overhead).c_str());
  }
}

struct Scored {
  const FitRow* row;
  double predicted, ape;
};

std::vector<Scored> score(const std::vector<const FitRow*>& rows, const State& s, const Predictor& p) {
  std::vector<Scored> out;
  for (const FitRow* r : rows) {
    const double v = p.predict(*r, s);
    const double m = r->prep.plan.measured;
    out.push_back({r, v, std::isfinite(v) ? std::abs(v - m) / m : 1.0});
  }
  return out;
}

void print_by_source(const std::vector<Scored>& sc, const char* title) {
  std::map<std::string, std::vector<double>> by;
  std::vector<std::string> order;
  std::vector<double> all;
  for (const Scored& x : sc) {
    if (!by.count(x.row->source)) order.push_back(x.row->source);
    by[x.row->source].push_back(x.ape);
    all.push_back(x.ape);
  }
  std::printf("\n%s\n| source | n | median APE | mean APE |\n|---|---:|---:|---:|\n", title);
  for (const auto& s : order) {
    const ErrorStats st = error_stats(by[s]);
    std::printf("| %s | %zu | %.1f %% | %.1f %% |\n", source_label(s).c_str(), st.n, 100 * st.median_ape,
                100 * st.mean_ape);
  }
  const ErrorStats st = error_stats(all);
  std::printf("| **overall** | %zu | **%.1f %%** | %.1f %% |\n", st.n, 100 * st.median_ape,
              100 * st.mean_ape);
}

bool in_ranges(const std::string& id, const std::vector<std::pair<long, long>>& ranges) {
  char* end = nullptr;
  const long v = std::strtol(id.c_str(), &end, 10);
  if (end == id.c_str()) return false;
  for (const auto& [a, b] : ranges)
    if (v >= a && v <= b) return true;
  return false;
}

void usage() {
  std::fprintf(stderr,
               "usage: fit_calibrated --target CSV [--extra CSV]... [--loso] [--rounds N] [--evals N]\n"
               "       [--exclude-ids A-B[,C-D]] [--exclude-notes TEXT]... [--family NAME=stem,stem]...\n"
               "       [--data-root DIR] [--aliases FILE] [--evaluate-only] [-v]\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::string target;
  std::vector<std::string> extra;
  bool loso = false, evaluate_only = false;
  FitOptions fo;
  std::vector<std::pair<long, long>> exclude_ids;
  std::vector<std::string> exclude_notes;
  std::string data_root = TESSERA_SOURCE_DIR, aliases_path;
  g_family_of = {{"dgx-a100-40gb", "A100"},
                 {"dgx-a100-80gb", "A100"},
                 {"dgx-h100", "H100/H200"},
                 {"dgx-h200", "H100/H200"},
                 {"hgx-h800", "H100/H200"}};  // the H100 SXM's die (machines/hgx-h800.yaml)
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        usage();
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--target")
      target = next();
    else if (a == "--extra")
      extra.push_back(next());
    else if (a == "--loso")
      loso = true;
    else if (a == "--evaluate-only")
      evaluate_only = true;
    else if (a == "--rounds")
      fo.rounds = std::stoi(next());
    else if (a == "--evals")
      fo.evals_per_round = std::stoi(next());
    else if (a == "--prior")
      fo.prior_weight = std::stod(next());
    else if (a == "--family-prior")
      fo.family_prior_weight = std::stod(next());
    else if (a == "--generic-from") {
      g_generic_from.clear();
      std::stringstream ss(next());
      std::string f;
      while (std::getline(ss, f, ',')) g_generic_from.insert(f);
    } else if (a == "--extra-weight")
      g_extra_weight = std::stod(next());
    else if (a == "-v")
      fo.verbose = true;
    else if (a == "--data-root")
      data_root = next();
    else if (a == "--aliases")
      aliases_path = next();
    else if (a == "--exclude-notes")
      exclude_notes.push_back(next());
    else if (a == "--exclude-ids") {
      std::stringstream ss(next());
      std::string part;
      while (std::getline(ss, part, ',')) {
        const auto dash = part.find('-');
        const long lo = std::stol(part.substr(0, dash));
        const long hi = dash == std::string::npos ? lo : std::stol(part.substr(dash + 1));
        exclude_ids.emplace_back(lo, hi);
      }
    } else if (a == "--family") {
      const std::string v = next();
      const auto eq = v.find('=');
      std::stringstream ss(v.substr(eq + 1));
      std::string stem;
      while (std::getline(ss, stem, ',')) g_family_of[stem] = v.substr(0, eq);
    } else {
      usage();
      return 2;
    }
  }
  if (target.empty()) {
    usage();
    return 2;
  }
  try {
    const Aliases aliases =
        load_aliases(aliases_path.empty() ? default_aliases_path(data_root) : aliases_path);
    PluginRegistry registry;
    registry.discover();
    PluginChoice mem;
    mem.name = "standard";
    Predictor pred{registry.create_memory(mem)};

    Data data;
    std::vector<std::pair<std::string, bool>> files = {{target, true}};
    for (const auto& e : extra) files.emplace_back(e, false);
    std::size_t total = 0;
    for (const auto& [path, is_target] : files) total += read_measurements(path).size();
    data.raw.reserve(total);  // PreparedRow keeps pointers into raw
    for (const auto& [path, is_target] : files) {
      for (DataRow& r : read_measurements(path)) {
        if (!is_latency_metric(r.metric)) continue;
        if (!is_target) {
          if (in_ranges(r.id, exclude_ids)) continue;
          bool skip = false;
          for (const auto& t : exclude_notes) skip = skip || r.notes.find(t) != std::string::npos;
          if (skip) continue;
        }
        data.raw.push_back(std::move(r));
        const DataRow& row = data.raw.back();
        if (is_target) ++data.target_latency_rows;
        const RowPlan plan = plan_row(row, aliases, data_root);
        if (!plan.mapped) {
          if (is_target) data.unmapped.emplace_back(row.id, plan.reason);
          continue;
        }
        FitRow fr;
        fr.source = row.source;
        const tessera::plugins::ProfileChoice pc =
            tessera::plugins::select_serving_stack_profile(plan.framework, plan.framework_version);
        fr.framework_name = plan.framework;
        fr.framework = pc.profile ? pc.profile->label() : "modern-stack";
        fr.prep = prepare_row(row, plan);
        fr.family = family_of(plan.machine_file);
        fr.target = is_target;
        data.rows.push_back(std::move(fr));
      }
    }
    std::set<std::string> families;
    for (const auto& [stem, fam] : g_family_of) families.insert(fam);
    std::vector<const FitRow*> all, target_rows;
    for (const FitRow& r : data.rows) {
      all.push_back(&r);
      if (r.target) target_rows.push_back(&r);
    }
    std::printf(
        "target latency rows: %zu, mapped %zu (%.0f %%); calibration rows from --extra: %zu\n",
        data.target_latency_rows, target_rows.size(),
        100.0 * static_cast<double>(target_rows.size()) / static_cast<double>(data.target_latency_rows),
        all.size() - target_rows.size());
    for (const auto& [id, why] : data.unmapped) std::printf("  unmapped %s: %s\n", id.c_str(), why.c_str());

    State fitted;
    std::set<std::string> fams_with_rows;
    for (const FitRow* r : all) fams_with_rows.insert(r->family);
    if (evaluate_only) {
      // The shipped parameters: the machine files' blocks (through the registry) and profiles.
      fitted = defaults(families);
      for (const FitRow* r : all) {
        const ParamSet eff =
            registry.machine_params("calibrated", r->prep.efficiency_raw, r->prep.plan.machine_file);
        fitted.fam[r->family] = tessera::plugins::family_from_params(eff);
      }
      for (const CalibratedProfile& p : tessera::plugins::serving_stack_profiles()) fitted.fw[p.label()] = p;
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      fitted = fit_all(all, families, pred, fo);
      std::set<std::string> sources;
      for (const FitRow* r : all) sources.insert(r->source);
      std::printf("fit: %.1f s; fitted parameters: %d; independent sources: %zu\n",
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                  g_fitted_parameters, sources.size());
      print_state(fitted, fams_with_rows);
    }
    const auto in_sample = score(target_rows, fitted, pred);
    print_by_source(in_sample, "## In-sample (target rows)");
    std::printf(
        "\n| id | source | metric | framework | measured | predicted | APE "
        "|\n|---|---|---|---|---:|---:|---:|\n");
    for (const Scored& x : in_sample)
      std::printf("| %s | %s | %s | %s | %.4g | %.4g | %.1f %% |\n", x.row->prep.row->id.c_str(),
                  source_label(x.row->source).c_str(), x.row->prep.row->metric.c_str(),
                  x.row->framework.c_str(), x.row->prep.plan.measured, x.predicted, 100 * x.ape);
    std::vector<const FitRow*> extra_rows;
    for (const FitRow* r : all)
      if (!r->target) extra_rows.push_back(r);
    if (!extra_rows.empty())
      print_by_source(score(extra_rows, fitted, pred), "## Calibration rows (--extra)");

    if (loso) {
      std::vector<std::string> sources;
      for (const FitRow* r : target_rows)
        if (std::find(sources.begin(), sources.end(), r->source) == sources.end())
          sources.push_back(r->source);
      std::vector<double> pooled;
      std::printf(
          "\n## Leave one source out\n| left out | n | median APE | mean APE | fallbacks "
          "|\n|---|---:|---:|---:|---|\n");
      std::vector<std::string> details;
      for (const std::string& src : sources) {
        std::vector<const FitRow*> train, test;
        for (const FitRow* r : all) (r->source == src ? test : train).push_back(r);
        State s = fit_all(train, families, pred, fo);
        std::set<std::string> fam_train, fw_train;
        for (const FitRow* r : train) {
          fam_train.insert(r->family);
          fw_train.insert(r->framework);
        }
        std::string fallbacks;
        std::set<std::string> noted;
        for (const FitRow* r : test) {
          if (!fam_train.count(r->family) && noted.insert("family " + r->family).second)
            fallbacks += (fallbacks.empty() ? "" : "; ") + std::string("family ") + r->family + ": defaults";
          if (!fw_train.count(r->framework) && r->framework != "generic" && r->framework != "none" &&
              noted.insert("fw " + r->framework).second)
            fallbacks += (fallbacks.empty() ? "" : "; ") + r->framework +
                         (g_tied.count(r->framework) ? ": pooled profile" : ": a-priori profile");
        }
        const auto sc = score(test, s, pred);
        std::vector<double> apes;
        std::string row_detail = source_label(src) + ":";
        for (const Scored& x : sc) {
          apes.push_back(x.ape);
          pooled.push_back(x.ape);
          char b[64];
          std::snprintf(b, sizeof b, " %s=%.0f%%", x.row->prep.row->id.c_str(), 100 * x.ape);
          row_detail += b;
        }
        details.push_back(row_detail);
        const ErrorStats st = error_stats(apes);
        std::printf("| %s | %zu | %.1f %% | %.1f %% | %s |\n", source_label(src).c_str(), st.n,
                    100 * st.median_ape, 100 * st.mean_ape, fallbacks.empty() ? "-" : fallbacks.c_str());
        std::fflush(stdout);
      }
      const ErrorStats st = error_stats(pooled);
      std::printf("| **pooled** | %zu | **%.1f %%** | %.1f %% | |\n", st.n, 100 * st.median_ape,
                  100 * st.mean_ape);
      std::printf("\nper-row APE in its fold:\n");
      for (const auto& d : details) std::printf("  %s\n", d.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fit_calibrated: %s\n", e.what());
    return 1;
  }
  return 0;
}
