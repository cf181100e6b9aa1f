#include "report/study_text/calibration_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "analysis/accuracy/row_plan.hpp"
#include "analysis/calibration/percentiles.hpp"
#include "core/text/safe_text.hpp"
#include "report/deploy/yaml_scalar.hpp"
#include "report/text/csv_cells.hpp"

namespace tessera::calibration {

namespace {

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

const FitParameter* param_of(const Calibration& c, const FittedValue& v) {
  for (const FitParameter& p : c.table)
    if (p.name == v.name && p.owner == v.owner) return &p;
  return nullptr;
}

std::string value_text(const Calibration& c, const FittedValue& v) {
  const FitParameter* p = param_of(c, v);
  if (p && p->transform == Transform::log_us) return fmt("%.4g", v.value * 1e6) + " us";
  return fmt("%.4g", v.value);
}

std::optional<double> mean(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

// Held-out rows of one fold kind grouped by `key` (source label, family).
std::map<std::string, std::vector<double>> by_key(const Calibration& c, const ProtocolScore& ps,
                                                  std::string (*key)(const FitRow&)) {
  std::map<std::string, std::vector<double>> out;
  for (const ScoredRow& s : ps.pooled()) out[key(c.data.rows[s.row])].push_back(s.ape);
  return out;
}

std::string source_key(const FitRow& r) { return accuracy::source_label(r.source); }
std::string family_key(const FitRow& r) { return r.family; }
std::string file_key(const FitRow& r) { return r.file; }

void print_group_table(std::ostream& os, const Calibration& c, const char* title,
                       std::string (*key)(const FitRow&)) {
  std::vector<std::string> order;
  std::map<std::string, std::size_t> n;
  for (const FitRow& r : c.data.rows) {
    const std::string k = key(r);
    if (!n.count(k)) order.push_back(k);
    ++n[k];
  }
  os << "\n" << title << " (median APE; — = no rows scored)\n| " << title << " | n |";
  for (const ProtocolScore& ps : c.protocol) os << " " << fold_name(ps.kind) << " |";
  os << "\n|---|---:|";
  for (std::size_t i = 0; i < c.protocol.size(); ++i) os << "---:|";
  os << "\n";
  std::vector<std::map<std::string, std::vector<double>>> cols;
  for (const ProtocolScore& ps : c.protocol) cols.push_back(by_key(c, ps, key));
  for (const std::string& k : order) {
    os << "| " << k << " | " << n[k] << " |";
    for (auto& col : cols) {
      const auto it = col.find(k);
      os << " " << percent_or_dash(it == col.end() ? std::nullopt : median(it->second)) << " |";
    }
    os << "\n";
  }
}

}  // namespace

std::string percent_or_dash(const std::optional<double>& f) {
  return f ? fmt("%.1f %%", *f * 100) : std::string("—");
}

std::string family_block_yaml(const Calibration& c, const std::string& family) {
  std::ostringstream os;
  os << "efficiency:\n  family: " << yaml_scalar(family) << "\n";
  for (const FittedValue& v : c.fit.values)
    if (v.owner == ParamOwner::family && v.group == family)
      os << "  " << v.name << ": " << value_text(c, v) << (v.on_wall ? "  # on its range's edge" : "")
         << "\n";
  return os.str();
}

std::string family_blocks_yaml(const Calibration& c) {
  std::ostringstream os;
  std::vector<std::string> families;
  for (const FittedValue& v : c.fit.values)
    if (v.owner == ParamOwner::family &&
        std::find(families.begin(), families.end(), v.group) == families.end())
      families.push_back(v.group);
  for (const std::string& f : families) {
    os << "# family " << yaml_scalar(f) << ": fitted by tessera calibrate (latency/" << c.latency
       << "); paste into the family's machine files\n"
       << family_block_yaml(c, f);
  }
  return os.str();
}

void print_calibration(std::ostream& os, const Calibration& c, bool show_rows) {
  std::size_t target = 0;
  for (const FitRow& r : c.data.rows) target += r.extra ? 0 : 1;
  os << "tessera calibrate: latency/" << c.latency << ", " << c.data.rows.size() << " rows mapped of "
     << c.data.rows_read << " latency and single-stage rows (" << target << " target, "
     << c.data.rows.size() - target << " --extra); " << c.fit.parameters() << " fitted values for "
     << c.sources.size() << " independent source" << (c.sources.size() == 1 ? "" : "s") << "\n";
  std::size_t skipped = 0;
  for (const SkippedRow& s : c.data.skipped)
    if (s.reason.rfind("metric '", 0) != 0) ++skipped;
  const std::size_t other_metrics = c.data.skipped.size() - skipped;
  if (other_metrics)
    os << other_metrics << " row" << (other_metrics == 1 ? "" : "s")
       << " of other metrics not used (deployment throughputs, bounds: validate-data's; the JSON's "
          "`skipped` lists each)\n";
  if (skipped) {
    os << "rows not used (" << skipped << "):\n";
    for (const SkippedRow& s : c.data.skipped)
      if (s.reason.rfind("metric '", 0) != 0)
        os << "  " << s.file << " row " << s.id << ": " << s.reason << "\n";
  }
  os << "\n" << family_blocks_yaml(c);
  std::vector<std::string> profiles;
  for (const FittedValue& v : c.fit.values)
    if (v.owner == ParamOwner::profile &&
        std::find(profiles.begin(), profiles.end(), v.group) == profiles.end())
      profiles.push_back(v.group);
  for (const std::string& p : profiles) {
    const auto at = p.find('@');
    os << "\n# profile " << p
       << ": fitted values (a scenario's latency block)\nlatency:\n  name: " << c.latency
       << "\n  # framework: " << p.substr(0, at)
       << (at == std::string::npos ? "" : "   (version " + p.substr(at + 1) + ")")
       << "\n  profile_overrides: \"";
    std::string names;
    for (const FittedValue& v : c.fit.values)
      if (v.owner == ParamOwner::profile && v.group == p) names += (names.empty() ? "" : ",") + v.name;
    os << names << "\"\n";
    for (const FittedValue& v : c.fit.values)
      if (v.owner == ParamOwner::profile && v.group == p)
        os << "  " << v.name << ": " << value_text(c, v) << (v.on_wall ? "  # on its range's edge" : "")
           << "\n";
  }
  os << "\nProtocol (median APE; the held-out folds refit every value without the held-out rows)\n"
     << "| fold | folds | fitted values (full fit: " << c.fit.parameters()
     << ") | rows | median APE, target rows | median APE, all rows | mean APE, all rows |\n"
     << "|---|---:|---|---:|---:|---:|---:|\n";
  for (const ProtocolScore& ps : c.protocol) {
    const auto pooled = ps.pooled();
    std::size_t lo = SIZE_MAX, hi = 0;
    for (const FoldScore& f : ps.folds) {
      lo = std::min(lo, f.parameters);
      hi = std::max(hi, f.parameters);
    }
    const std::string params = lo == hi ? std::to_string(lo) : std::to_string(lo) + "–" + std::to_string(hi);
    os << "| " << fold_name(ps.kind) << " | " << ps.folds.size() << " | " << params << " | " << pooled.size()
       << " | " << percent_or_dash(median(apes(c, pooled, &target_only))) << " | "
       << percent_or_dash(median(apes(c, pooled, nullptr))) << " | "
       << percent_or_dash(mean(apes(c, pooled, nullptr))) << " |\n";
  }
  for (const ProtocolScore& ps : c.protocol) {
    if (ps.kind == FoldKind::in_sample) continue;
    os << "\n"
       << fold_name(ps.kind) << "\n| held out | rows | fitted values | median APE | a-priori in this fold |\n"
       << "|---|---:|---:|---:|---|\n";
    for (const FoldScore& f : ps.folds) {
      std::string fb;
      for (const std::string& s : f.fallbacks) fb += (fb.empty() ? "" : "; ") + s;
      const std::string label = ps.kind == FoldKind::leave_one_source_out
                                    ? accuracy::source_label(f.fold.held_out)
                                    : f.fold.held_out;
      os << "| " << label << " | " << f.scored.size() << " | " << f.parameters << " | "
         << percent_or_dash(median(apes(c, f.scored, nullptr))) << " | " << (fb.empty() ? "-" : fb) << " |\n";
    }
  }
  print_group_table(os, c, "source", &source_key);
  print_group_table(os, c, "family", &family_key);
  print_group_table(os, c, "file", &file_key);
  print_group_table(os, c, "metric", &metric_key);
  if (show_rows && !c.protocol.empty()) {
    os << "\nrows (measured, predicted in sample; APE per fold)\n| id | source | family | framework | "
          "measured |";
    for (const ProtocolScore& ps : c.protocol) os << " " << fold_name(ps.kind) << " |";
    os << "\n|---|---|---|---|---:|";
    for (std::size_t i = 0; i < c.protocol.size(); ++i) os << "---:|";
    os << "\n";
    std::vector<std::map<std::size_t, double>> col(c.protocol.size());
    for (std::size_t k = 0; k < c.protocol.size(); ++k)
      for (const ScoredRow& s : c.protocol[k].pooled()) col[k][s.row] = s.ape;
    for (std::size_t i = 0; i < c.data.rows.size(); ++i) {
      const FitRow& r = c.data.rows[i];
      os << "| " << r.id << " | " << accuracy::source_label(r.source) << " | " << r.family << " | "
         << r.framework_version() << " | " << fmt("%.4g", r.measured) << " |";
      for (auto& m : col) {
        const auto it = m.find(i);
        os << " " << percent_or_dash(it == m.end() ? std::nullopt : std::optional<double>(it->second))
           << " |";
      }
      os << "\n";
    }
  }
  if (!c.notes.empty()) {
    os << "\nnotes:\n";
    for (const std::string& n : c.notes) os << "  " << n << "\n";
  }
}

std::string bands_csv(const Calibration& c, const std::string& command, const std::string& provenance) {
  std::ostringstream os;
  os << "# generated by: " << printable_text(command) << "\n"
     << provenance
     << "# held-out (leave one source out, every value refitted per fold) percentiles of "
        "ln(predicted/measured) "
        "per machine family x framework and per family pooled (*); docs/accuracy.md \"Error bands\"\n"
     << "latency_model,family,framework,fold,rows,sources,p10_ln,p50_ln,p90_ln\n";
  for (const Band& b : c.bands)
    os << csv_text(b.latency) << "," << csv_text(b.family) << "," << csv_text(b.framework) << ","
       << csv_text(b.fold) << "," << b.rows << "," << b.sources << "," << fmt("%.4f", b.p10) << ","
       << fmt("%.4f", b.p50) << "," << fmt("%.4f", b.p90) << "\n";
  return os.str();
}

}  // namespace tessera::calibration
