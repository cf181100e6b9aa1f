// Reading the band table and choosing a prediction's band (analysis/calibration/error_bands.hpp).
#include "analysis/calibration/error_bands.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <optional>
#include <system_error>
#include <utility>

#include "core/text/csv.hpp"
#include "core/text/input_file.hpp"
#include "eval/session.hpp"
#include "host/machine_blocks.hpp"
#include "host/plugin_roles.hpp"
#include "scenario/data_roots.hpp"
#include "scenario/readers/schema_util.hpp"
#include "tessera/error.hpp"

namespace tessera {

namespace {

constexpr std::array<const char*, 9> kColumns = {"latency_model", "family", "framework", "fold",  "rows",
                                                 "sources",       "p10_ln", "p50_ln",    "p90_ln"};

std::string joined_columns() {
  std::string s;
  for (const char* c : kColumns) s += (s.empty() ? "" : ",") + std::string(c);
  return s;
}

constexpr char kModelNameExpected[] =
    "latency_model: expected a latency plugin's name (lower-case letters, digits and '_'), found '";

bool plugin_name_shape(const std::string& s) {
  for (const char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return !s.empty();
}

Diagnostic at(const std::string& file, const CsvCell& c, const std::string& msg) {
  return Diagnostic{SourceLocation{file, c.line, c.column}, msg};
}

}  // namespace

double Band::latency_low_rel() const { return std::exp(-p90_ln) - 1; }
double Band::latency_high_rel() const { return std::exp(-p10_ln) - 1; }
double Band::throughput_low_rel() const { return std::exp(p10_ln) - 1; }
double Band::throughput_high_rel() const { return std::exp(p90_ln) - 1; }

BandModel band_model(const PluginRegistry& registry, const std::string& name) {
  BandModel m;
  m.name = name;
  m.error_band = has_role(registry, name, kRoleErrorBand);
  m.fallback = fallback_of(registry, name);
  return m;
}

void check_band_models(const BandTable& table, const PluginRegistry& registry) {
  // The latency plugins loaded so far, by name: checking loads nothing (a run loads the plugins
  // it names, and a broken library elsewhere on the path must not stop it).
  std::vector<std::pair<std::string, bool>> loaded;  // name, takes a band
  for (const LoadedPlugin& p : registry.loaded())
    if (p.descriptor && p.descriptor->kind == PluginKind::latency)
      loaded.emplace_back(p.descriptor->name, has_role(registry, p.descriptor->name, kRoleErrorBand));
  std::sort(loaded.begin(), loaded.end());
  std::vector<std::string> banded;
  for (const auto& [name, band] : loaded)
    if (band) banded.push_back(name);
  std::vector<Diagnostic> problems;
  for (const BandRow& r : table.rows) {
    const auto it =
        std::find_if(loaded.begin(), loaded.end(), [&](const auto& l) { return l.first == r.latency_model; });
    if (it == loaded.end() || it->second) continue;
    const std::string names = loader::join_names(banded);
    problems.push_back(Diagnostic{SourceLocation{table.file, r.line, 1},
                                  "latency_model: expected " +
                                      (names.empty() ? "a latency plugin with an error band" : names) +
                                      ", found '" + r.latency_model + "' (" + r.latency_model +
                                      " is a bound: its predictions carry no band)"});
  }
  if (!problems.empty()) throw InputErrors(std::move(problems));
}

BandTable parse_band_table(const std::string& text, const std::string& file) {
  BandTable t;
  t.file = file;
  // Comment lines (`#` first) are blanked, keeping the line numbers; the first names the command.
  std::string body = text;
  std::size_t start = 0;
  bool first_comment = true;
  while (start < body.size()) {
    std::size_t end = body.find('\n', start);
    if (end == std::string::npos) end = body.size();
    if (body[start] == '#') {
      if (first_comment) {
        std::string c = body.substr(start + 1, end - start - 1);
        while (!c.empty() && (c.front() == ' ')) c.erase(c.begin());
        while (!c.empty() && (c.back() == '\r' || c.back() == ' ')) c.pop_back();
        t.generated_by = c;
        first_comment = false;
      }
      for (std::size_t i = start; i < end; ++i) body[i] = ' ';
    }
    start = end + 1;
  }
  std::vector<Diagnostic> problems;
  bool header_seen = false;
  scan_csv(body, file, [&](const CsvRecord& r) {
    // A line of blanks (a comment) is one empty cell.
    if (r.size() == 1 && r.cells[0].text.find_first_not_of(" \t\r") == std::string::npos) return;
    if (!header_seen) {
      header_seen = true;
      bool ok = r.size() == kColumns.size();
      for (std::size_t i = 0; ok && i < kColumns.size(); ++i) ok = r.cells[i].text == kColumns[i];
      if (!ok)
        throw InputErrors(
            {Diagnostic{SourceLocation{file, r.line, 1}, "band table header: expected " + joined_columns()}});
      return;
    }
    if (t.rows.size() >= kMaxBandRows)
      throw InputErrors({Diagnostic{
          SourceLocation{file, r.line, 1},
          "band table: more than " + std::to_string(kMaxBandRows) + " rows (the limit of a band file)"}});
    if (r.size() != kColumns.size()) {
      problems.push_back(Diagnostic{SourceLocation{file, r.line, 1},
                                    "expected " + std::to_string(kColumns.size()) + " cells (" +
                                        joined_columns() + "), found " + std::to_string(r.size())});
      return;
    }
    BandRow b;
    b.line = r.line;
    const auto text_cell = [&](std::size_t i, std::string& out) {
      out = r.cells[i].text;
      if (out.empty())
        problems.push_back(at(file, r.cells[i], std::string(kColumns[i]) + ": expected a name"));
    };
    text_cell(0, b.latency_model);
    text_cell(1, b.family);
    text_cell(2, b.framework);
    text_cell(3, b.fold);
    if (!b.latency_model.empty() && !plugin_name_shape(b.latency_model))
      problems.push_back(at(file, r.cells[0], kModelNameExpected + b.latency_model + "'"));
    const auto count_cell = [&](std::size_t i, long& out) {
      const std::string& s = r.cells[i].text;
      const auto res = std::from_chars(s.data(), s.data() + s.size(), out);
      if (s.empty() || res.ec != std::errc() || res.ptr != s.data() + s.size() || out < 1)
        problems.push_back(
            at(file, r.cells[i],
               std::string(kColumns[i]) + ": expected a whole number >= 1, found '" + s + "'"));
    };
    count_cell(4, b.rows);
    count_cell(5, b.sources);
    const auto ln_cell = [&](std::size_t i, double& out) {
      const std::string& s = r.cells[i].text;
      const auto res = std::from_chars(s.data(), s.data() + s.size(), out);
      if (s.empty() || res.ec != std::errc() || res.ptr != s.data() + s.size() || !std::isfinite(out) ||
          std::fabs(out) > 5)
        problems.push_back(at(file, r.cells[i],
                              std::string(kColumns[i]) +
                                  ": expected ln(predicted/measured), a number in [-5, 5], found '" + s +
                                  "'"));
    };
    ln_cell(6, b.p10_ln);
    ln_cell(7, b.p50_ln);
    ln_cell(8, b.p90_ln);
    if (b.sources > b.rows && b.rows >= 1)
      problems.push_back(
          at(file, r.cells[5], "sources: expected at most rows (" + std::to_string(b.rows) + ")"));
    if (b.p10_ln > b.p50_ln || b.p50_ln > b.p90_ln)
      problems.push_back(at(file, r.cells[6], "expected p10_ln <= p50_ln <= p90_ln"));
    for (const BandRow& o : t.rows)
      if (o.latency_model == b.latency_model && o.family == b.family && o.framework == b.framework &&
          o.fold == b.fold)
        problems.push_back(at(file, r.cells[0],
                              "duplicate row for (" + b.latency_model + ", " + b.family + ", " + b.framework +
                                  ", " + b.fold + "): line " + std::to_string(o.line) + " has it"));
    t.rows.push_back(std::move(b));
  });
  if (!header_seen)
    problems.push_back(
        Diagnostic{SourceLocation{file, 1, 1}, "band table: expected the header " + joined_columns()});
  if (!problems.empty()) throw InputErrors(std::move(problems));
  return t;
}

BandTable load_band_table(const std::string& path) {
  return parse_band_table(read_input_file(path, "band table"), path);
}

std::string default_band_path() {
  return (std::filesystem::path(shipped_data_root()) / "data" / "error-bands.csv").string();
}

const BandTable& shipped_band_table() {
  static BandTable table;
  static std::string error;
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string path = default_band_path();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      table.file = path;
      return;
    }
    try {
      table = load_band_table(path);
    } catch (const InputError& e) {
      error = e.what();
    }
  });
  if (!error.empty()) throw InputError(error);
  return table;
}

namespace {

const BandRow* find_row(const BandTable& t, const std::string& model, const std::string& family,
                        const std::string& framework) {
  for (const BandRow& r : t.rows)
    if (r.latency_model == model && r.family == family && r.framework == framework && r.fold == kBandFold)
      return &r;
  return nullptr;
}

bool model_has_family(const BandTable& t, const std::string& model, const std::string& family) {
  for (const BandRow& r : t.rows)
    if (r.latency_model == model && r.family == family && r.fold == kBandFold) return true;
  return false;
}

}  // namespace

Band find_band(const BandTable& table, const BandModel& latency, const std::string& family,
               const std::string& framework) {
  Band b;
  if (!latency.error_band) {
    b.status = Band::Status::bound;
    b.reason = latency.name + " is a physical bound, not fitted to measurements";
    return b;
  }
  if (family.empty()) {
    b.status = Band::Status::uncalibrated;
    b.reason = "no measurements for this family";
    return b;
  }
  std::string model = latency.name;
  std::string note;
  if (!latency.fallback.empty() && !model_has_family(table, model, family)) {
    model = latency.fallback;
    note = latency.name + " has no held-out rows for " + family + ": " + latency.fallback + "'s band";
  }
  const BandRow* row = find_row(table, model, family, framework);
  if (row && (row->rows < kMinBandRows || row->sources < kMinBandSources)) {
    note += (note.empty() ? "" : "; ") + framework + ": " + std::to_string(row->rows) + " rows from " +
            std::to_string(row->sources) + (row->sources == 1 ? " source" : " sources") +
            ", the family's pooled band";
    row = nullptr;
  } else if (!row && !framework.empty() && framework != "*") {
    note +=
        (note.empty() ? "" : "; ") + std::string("no rows for ") + framework + ": the family's pooled band";
  }
  if (!row) row = find_row(table, model, family, "*");
  if (!row) {
    b.status = Band::Status::uncalibrated;
    b.reason = "no measurements for this family (" + family + ")";
    return b;
  }
  b.status = Band::Status::band;
  b.latency_model = row->latency_model;
  b.family = row->family;
  b.framework = row->framework;
  b.fold = row->fold;
  b.rows = row->rows;
  b.sources = row->sources;
  b.p10_ln = row->p10_ln;
  b.p90_ln = row->p90_ln;
  b.note = note;
  return b;
}

namespace {
std::string family_of(const PluginRegistry& registry, const std::vector<MachineBlock>& blocks,
                      const std::string& latency_model) {
  const MachineBlock* block = machine_block_for(registry, blocks, latency_model);
  if (!block) return "";
  for (const RawParam& p : block->params)
    if (p.key == "family") return p.text;
  return "";
}
}  // namespace

std::string session_family(const Session& session) {
  return family_of(session.registry(), session.scenario().machine_blocks, session.latency_name());
}

std::string session_serving_stack(const Session& session) {
  for (const PluginChoice& c : session.scenario().plugins.latency)
    if (c.name == session.latency_name())
      for (const RawParam& p : c.params)
        if (p.key == "framework") return p.text;
  if (const LoadedPlugin* lp = session.registry().find(PluginKind::latency, session.latency_name()))
    for (std::uint32_t i = 0; i < lp->descriptor->param_count; ++i)
      if (std::string(lp->descriptor->params[i].name) == "framework" &&
          lp->descriptor->params[i].default_value)
        return lp->descriptor->params[i].default_value;
  return "";
}

namespace {

// A latency plugin that replaces the shipped one (--plugin-override) is not what the shipped
// band rows measured: uncalibrated, naming the library.
std::optional<Band> replacement_band(const Session& session) {
  const LoadedPlugin* p = session.registry().find(PluginKind::latency, session.latency_name());
  if (!p || p->replaces.empty()) return std::nullopt;
  Band b;
  b.status = Band::Status::uncalibrated;
  b.reason = "latency/" + session.latency_name() + " is a replacement loaded from " + p->path +
             " (--plugin-override): the shipped plugin's band does not describe it";
  return b;
}

}  // namespace

Band session_band(const Session& session) {
  if (std::optional<Band> replaced = replacement_band(session)) return *replaced;
  const BandModel model = band_model(session.registry(), session.latency_name());
  if (!model.error_band) return find_band({}, model, "", "");
  const BandTable& table = shipped_band_table();
  check_band_models(table, session.registry());
  if (table.rows.empty()) {
    Band b;
    b.status = Band::Status::uncalibrated;
    b.reason = "no band rows: " + table.file + " is missing or empty";
    return b;
  }
  return find_band(table, model, session_family(session), session_serving_stack(session));
}

Band disaggregated_band(const Session& session) {
  if (std::optional<Band> replaced = replacement_band(session)) return *replaced;
  const Scenario& sc = session.scenario();
  const std::string own = session_family(session);
  const auto pool_family = [&](const PoolMachine& pm) {
    return pm.given ? family_of(session.registry(), pm.blocks, session.latency_name()) : own;
  };
  const std::string prefill = pool_family(sc.serving.prefill_machine);
  const std::string decode = pool_family(sc.serving.decode_machine);
  const BandModel model = band_model(session.registry(), session.latency_name());
  if (prefill == decode || !model.error_band) {
    if (!model.error_band) return session_band(session);
    check_band_models(shipped_band_table(), session.registry());
    return find_band(shipped_band_table(), model, prefill, session_serving_stack(session));
  }
  Band b;
  b.status = Band::Status::uncalibrated;
  b.reason = "no band for pools of different families (prefill " + (prefill.empty() ? "none" : prefill) +
             ", decode " + (decode.empty() ? "none" : decode) + ")";
  return b;
}

}  // namespace tessera
