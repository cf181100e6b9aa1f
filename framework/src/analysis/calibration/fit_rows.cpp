#include "analysis/calibration/fit_rows.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include "analysis/accuracy/row_plan.hpp"
#include "core/cancellation.hpp"
#include "core/text/safe_text.hpp"
#include "tessera/dtype.hpp"
#include "tessera/error.hpp"

namespace tessera::calibration {

namespace {

bool id_in(const std::string& id, const std::vector<std::string>& ranges) {
  char* end = nullptr;
  const long v = std::strtol(id.c_str(), &end, 10);
  if (end == id.c_str()) return false;
  for (const std::string& r : ranges) {
    const auto dash = r.find('-');
    const long lo = std::strtol(r.substr(0, dash).c_str(), nullptr, 10);
    const long hi = dash == std::string::npos ? lo : std::strtol(r.substr(dash + 1).c_str(), nullptr, 10);
    if (v >= lo && v <= hi) return true;
  }
  return false;
}

// Every --exclude-ids entry is an id "A" or a range "A-B" of whole numbers with A <= B.
void check_id_ranges(const std::vector<std::string>& ranges) {
  auto whole = [](const std::string& t, long& v) {
    if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos) return false;
    v = std::strtol(t.c_str(), nullptr, 10);
    return true;
  };
  for (const std::string& r : ranges) {
    const auto dash = r.find('-');
    long lo = 0, hi = 0;
    const bool ok = whole(r.substr(0, dash), lo) &&
                    (dash == std::string::npos ? (hi = lo, true) : whole(r.substr(dash + 1), hi)) && lo <= hi;
    if (!ok)
      throw InputError("calibrate: --exclude-ids '" + r +
                       "': expected an id or a range A-B of whole numbers with A <= B (e.g. 1132-1143)");
  }
}

// A family name is written into calibrate's YAML block and band file and read back by other
// tools, so it is plain text: no quote, comma, colon, '#', control character or leading
// formula character (=, +, -, @) can reach either.
bool family_name_ok(const std::string& f) {
  auto alnum = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  if (f.empty() || f.size() > 64 || !alnum(f.front()) || f.back() == ' ') return false;
  for (char c : f)
    if (!alnum(c) && std::string_view(" ._/+()-").find(c) == std::string_view::npos) return false;
  return true;
}

std::string not_a_family(const std::string& f) {
  return "'" + excerpt(f) +
         "' is not a family name: a family name is 1 to 64 letters, digits, spaces and . _ / + ( ) -, "
         "starting with a letter or digit and not ending with a space (calibrate writes it into its "
         "YAML block and band file)";
}

std::map<std::string, std::string> parse_family_map(const std::vector<std::string>& entries) {
  std::map<std::string, std::string> out;
  for (const std::string& e : entries) {
    const auto eq = e.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("calibrate: --family-map '" + e + "': expected NAME=stem[,stem...]");
    if (!family_name_ok(e.substr(0, eq)))
      throw InputError("calibrate: --family-map: " + not_a_family(e.substr(0, eq)));
    std::stringstream ss(e.substr(eq + 1));
    std::string stem;
    while (std::getline(ss, stem, ','))
      if (!stem.empty()) out[stem] = e.substr(0, eq);
  }
  return out;
}

// What a calibration fits and scores: the latency metrics, and the rates that time one stage
// alone (a GEMM's TFLOP/s, a collective's bus bandwidth or latency: measurements-2024-2026.csv);
// the throughputs of whole deployments are validate-data's (--serving).
bool is_fit_metric(const std::string& m) {
  return accuracy::is_latency_metric(m) || m.rfind("kernel_latency:", 0) == 0 || m == "kernel_tflops" ||
         m.rfind("collective_busbw:", 0) == 0 || m.rfind("collective_latency:", 0) == 0;
}

// The machine block's `family:` (nullptr when it has none).
const RawParam* block_family(const std::vector<RawParam>& raw) {
  for (const RawParam& p : raw)
    if (p.key == "family" && !p.text.empty()) return &p;
  return nullptr;
}

// Every cell plan_row reads (all but id, source and value; the value too for the one measure
// whose plan depends on it): rows with the same key have the same plan but for `measured`, so
// they share one prepared row.
std::string prediction_key(const accuracy::DataRow& r, const accuracy::RowPlan& plan) {
  std::string k;
  for (const std::string* cell :
       {&r.source_locator, &r.software, &r.model, &r.precision, &r.hardware, &r.n_devices, &r.tp, &r.pp,
        &r.ep, &r.batch, &r.input_len, &r.output_len, &r.metric, &r.unit, &r.notes})
    k.append(*cell).push_back('\x1f');
  if (plan.measure == accuracy::Measure::offline_bound) k.append(r.value);
  return k;
}

}  // namespace

bool FitRow::predicts_as(const FitRow& o) const {
  return prep && prep == o.prep && family == o.family && framework == o.framework && version == o.version &&
         key_by_version == o.key_by_version;
}

bool eight_bit_gemms(const FitRow& r) {
  return r.prep && dtype_bits(r.prep->model.dtype.gemm(WeightPart::other)) <= 8;
}

DistinctRows distinct_predictions(const std::vector<const FitRow*>& rows) {
  DistinctRows d;
  d.of_row.reserve(rows.size());
  // Candidates by prepared row; rows sharing one nearly always predict alike (one candidate).
  std::unordered_map<const accuracy::PreparedRow*, std::vector<std::size_t>> by_prep;
  for (const FitRow* r : rows) {
    std::size_t at = d.rows.size();
    if (r->prep) {  // a row with nothing prepared is a prediction of its own
      std::vector<std::size_t>& seen = by_prep[r->prep.get()];
      for (std::size_t i : seen)
        if (d.rows[i]->predicts_as(*r)) at = i;
      if (at == d.rows.size()) seen.push_back(at);
    }
    if (at == d.rows.size()) d.rows.push_back(r);
    d.of_row.push_back(at);
  }
  return d;
}

std::string FitRow::framework_version() const {
  return (framework.empty() ? std::string("default") : framework) + "@" +
         (version.empty() ? std::string("unversioned") : version);
}

std::string FitRow::profile_key() const {
  return version.empty() || !key_by_version ? framework : framework + "@" + version;
}

FitData load_fit_rows(const FitRowOptions& o) {
  namespace fs = std::filesystem;
  check_id_ranges(o.exclude_ids);
  if (!o.family.empty() && !family_name_ok(o.family))
    throw InputError("calibrate: --family " + not_a_family(o.family));
  const std::string aliases_path =
      o.aliases.empty() ? accuracy::default_aliases_path(o.data_root) : o.aliases;
  const accuracy::Aliases aliases = accuracy::load_aliases(aliases_path);
  const std::map<std::string, std::string> family_of = parse_family_map(o.family_map);
  FitData data;
  data.files.push_back(aliases_path);
  accuracy::PreparedFiles files;
  // One prepared row (or the reason it cannot be prepared) per prediction key.
  std::unordered_map<std::string, std::shared_ptr<const accuracy::PreparedRow>> prepared;
  std::unordered_map<std::string, std::string> unpreparable;
  std::size_t polled = 0;
  std::vector<std::pair<std::string, bool>> csvs;
  for (const auto& t : o.target) csvs.emplace_back(t, false);
  for (const auto& e : o.extra) csvs.emplace_back(e, true);
  // A file named twice would fit and score its rows twice (and, as target and --extra, at two
  // weights): refused.
  std::vector<fs::path> named;
  for (const auto& [path, extra] : csvs) {
    std::error_code ec;
    const fs::path key = fs::weakly_canonical(path, ec);
    const auto seen = std::find(named.begin(), named.end(), ec ? fs::path(path) : key);
    if (seen != named.end())
      throw InputError(
          "calibrate: " + path + " is named twice (as " +
          (csvs[static_cast<std::size_t>(seen - named.begin())].second ? "--extra" : "a target") +
          " and as " + (extra ? "--extra" : "a target") + "): name each CSV once");
    named.push_back(ec ? fs::path(path) : key);
  }
  for (const auto& [path, extra] : csvs) {
    data.files.push_back(path);
    for (accuracy::DataRow& r : accuracy::read_measurements(path)) {
      if (polled++ % 64 == 0) throw_if_cancelled();
      if (!is_fit_metric(r.metric)) {
        data.skipped.push_back(
            {path, r.id, "metric '" + r.metric + "' is not a latency or single-stage metric"});
        continue;
      }
      ++data.rows_read;
      if (extra && id_in(r.id, o.exclude_ids)) {
        data.skipped.push_back({path, r.id, "excluded by --exclude-ids"});
        continue;
      }
      bool noted = false;
      for (const auto& t : o.exclude_notes) noted = noted || r.notes.find(t) != std::string::npos;
      if (extra && noted) {
        data.skipped.push_back({path, r.id, "excluded by --exclude-notes"});
        continue;
      }
      if (const auto t = o.table_rows.find(r.id); t != o.table_rows.end()) {
        data.skipped.push_back({path, r.id, "used to build table " + t->second});
        continue;
      }
      data.raw.push_back(std::make_unique<accuracy::DataRow>(std::move(r)));
      const accuracy::DataRow& row = *data.raw.back();
      accuracy::RowPlan plan = accuracy::plan_row(row, aliases, o.data_root);
      if (!plan.mapped) {
        data.skipped.push_back({path, row.id, plan.reason});
        continue;
      }
      // validate-data's group apart (the hardware-ambiguous MoE rows); bounds never get here (no
      // fitted metric is one).
      if (plan.collective.apart) {
        data.skipped.push_back(
            {path, row.id, "reported apart (" + plan.collective.group + "): in no median"});
        continue;
      }
      // A row under a load is a request simulation, thousands of steps per prediction: scored by
      // validate-data, not fitted.
      if (plan.measure == accuracy::Measure::under_load) {
        data.skipped.push_back(
            {path, row.id,
             "under a load (the request simulator's row): scored by validate-data, not fitted"});
        continue;
      }
      if (!o.machine.empty()) plan.machine_file = o.machine;
      if (!o.framework.empty()) {
        plan.framework = o.framework;
        plan.framework_version = o.version;
      }
      FitRow fr;
      const std::string key = prediction_key(row, plan);
      if (const auto bad = unpreparable.find(key); bad != unpreparable.end()) {
        data.skipped.push_back({path, row.id, bad->second});
        continue;
      }
      auto& shared = prepared[key];
      if (!shared) {
        try {
          shared = std::make_shared<const accuracy::PreparedRow>(accuracy::prepare_row(row, plan, files));
        } catch (const Error& e) {
          prepared.erase(key);
          unpreparable.emplace(key, e.what());
          data.skipped.push_back({path, row.id, e.what()});
          continue;
        }
      }
      fr.prep = shared;
      fr.row = &row;
      fr.measured = plan.measured;
      fr.id = row.id;
      fr.source = row.source;
      fr.file = path;
      fr.extra = extra;
      fr.key_by_version = o.key_by_version;
      fr.framework = plan.framework;
      fr.version = plan.framework_version;
      const std::string stem = fs::path(plan.machine_file).stem().string();
      if (!o.family.empty()) {
        fr.family = o.family;
      } else if (const auto it = family_of.find(stem); it != family_of.end()) {
        fr.family = it->second;
      } else if (const RawParam* f = block_family(fr.prep->efficiency_raw)) {
        if (!family_name_ok(f->text))
          throw InputErrors({Diagnostic{f->where, "efficiency.family: " + not_a_family(f->text)}});
        fr.family = f->text;
      } else {
        if (!family_name_ok(stem))
          throw InputError(plan.machine_file +
                           ": the machine file's name is its family (its efficiency block "
                           "names none), and " +
                           not_a_family(stem) + "; give the block a family: or use --family");
        fr.family = stem;
      }
      data.rows.push_back(std::move(fr));
    }
  }
  data.distinct = prepared.size();
  for (const auto& [file, spec] : files.models) data.files.push_back(file);
  for (const auto& [file, spec] : files.machines) data.files.push_back(file);
  return data;
}

}  // namespace tessera::calibration
