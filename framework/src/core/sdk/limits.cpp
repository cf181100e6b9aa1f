#include "tessera/limits.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "core/text/nearest_name.hpp"
#include "tessera/error.hpp"

namespace tessera {
namespace {

const std::array<LimitInfo, 24> kTable{{
    {"file.bytes", &Limits::file_bytes, "size of one input file (YAML, JSON, CSV), bytes", nullptr},
    {"yaml.nodes", &Limits::yaml_nodes, "nodes of one YAML document, every alias expanded", nullptr},
    {"yaml.depth", &Limits::yaml_depth, "nesting depth of a YAML or JSON document", nullptr},
    {"scalar.bytes", &Limits::scalar_bytes, "one YAML scalar or JSON string, bytes", nullptr},
    {"list.values", &Limits::list_values, "values in one list (a sweep dimension, a hardware knob)", nullptr},
    {"csv.rows", &Limits::csv_rows, "data rows of one measurements CSV", nullptr},
    {"csv.cell_bytes", &Limits::csv_cell_bytes, "one CSV cell, bytes", nullptr},
    {"diagnostics", &Limits::diagnostics, "input problems reported at once; the rest are counted in one line",
     nullptr},
    {"max_configs", &Limits::max_configs,
     "evaluations one study may start (hardware points x valid configurations, not grid points)",
     "--max-configs"},
    {"grid.points", &Limits::grid_points, "points of one parallelism grid, before validity", nullptr},
    {"hardware.points", &Limits::hardware_points, "points of one hardware grid", nullptr},
    {"report.top", &Limits::report_top, "rows of a top-N table (report.top, --top)", nullptr},
    {"threads", &Limits::threads, "evaluation threads (--threads)", nullptr},
    {"search.samples", &Limits::search_samples, "samples of a sampling search (random: samples)", nullptr},
    {"search.stale_rounds", &Limits::search_stale_rounds,
     "rounds in a row in which a search may propose nothing new (only configurations it proposed before)",
     nullptr},
    {"moe.table_entries", &Limits::moe_table_entries,
     "cost of the exact MoE most-loaded-rank sum, (ep-1)(slots+1)^2 table entries (beyond: the documented "
     "approximation)",
     nullptr},
    {"calibrate.fit_predictions", &Limits::calibrate_fit_predictions,
     "distinct predictions one calibrate fit runs on (beyond: an equal share per source and profile; every "
     "row is still scored)",
     nullptr},
    {"calibrate.folds", &Limits::calibrate_folds,
     "held-out folds of one calibrate run, each a fit (one per source, family or framework version held out)",
     nullptr},
    {"validate.load_rows", &Limits::validate_load_rows,
     "rows under a load one validate-data run simulates (a request simulation or capacity search each, per "
     "latency model)",
     nullptr},
    {"model.dimension", &Limits::model_dimension,
     "any integer dimension of a model (layers, hidden, heads, ffn, vocab, experts, MLA ranks)", nullptr},
    {"machine.pes", &Limits::machine_pes, "PEs of one machine: the product of its level fanouts", nullptr},
    {"workload.tokens", &Limits::workload_tokens,
     "a token count (workload.context, .batch, .chunk, .input, .output; sweep.serving)", nullptr},
    {"plugin.probe_seconds", &Limits::plugin_probe_seconds,
     "seconds a plugin library's static initialisers may take in the probe process before the library is a "
     "load failure",
     nullptr},
    {"plugin.unit_seconds", &Limits::plugin_unit_seconds,
     "seconds an isolated worker process may take over one work unit (or over its study's setup) before it "
     "is "
     "stopped and the study fails naming the plugin call it was in",
     nullptr},
}};

Limits& mutable_limits() {
  static Limits limits;
  return limits;
}

const LimitInfo* find(std::string_view name) {
  for (const auto& l : kTable)
    if (name == l.name) return &l;
  return nullptr;
}

}  // namespace

std::span<const LimitInfo> limit_table() { return {kTable.data(), kTable.size()}; }

const Limits& current_limits() { return mutable_limits(); }
void set_limits(const Limits& limits) { mutable_limits() = limits; }

void apply_limit_setting(Limits& limits, std::string_view setting) {
  const auto eq = setting.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw InputError("--limit expects NAME=N (e.g. --limit yaml.nodes=5000000), found '" +
                     std::string(setting) + "'");
  const std::string_view name = setting.substr(0, eq);
  const std::string_view value = setting.substr(eq + 1);
  const LimitInfo* info = find(name);
  if (info == nullptr) {
    std::vector<std::string> names;
    for (const auto& l : limit_table()) names.emplace_back(l.name);
    throw InputError("--limit: no limit named '" + std::string(name) + "'" +
                     did_you_mean(std::string(name), names) + "; docs/limits.md lists them");
  }
  // A positive integer, also written as 1e7 when that is an exact integer within 2^53.
  std::uint64_t n = 0;
  const char* first = value.data();
  const char* last = value.data() + value.size();
  auto [p, ec] = std::from_chars(first, last, n);
  if (ec != std::errc() || p != last) {
    double d = 0;
    auto [pd, ecd] = std::from_chars(first, last, d);
    if (ecd != std::errc() || pd != last || !(d >= 1) || d > 9007199254740992.0 || d != std::floor(d))
      throw InputError("--limit " + std::string(name) + ": expected a positive integer, found '" +
                       std::string(value) + "'");
    n = static_cast<std::uint64_t>(d);
  }
  if (n == 0) throw InputError("--limit " + std::string(name) + ": expected a positive integer, found 0");
  limits.*(info->field) = n;
}

std::string limit_exceeded(std::string_view name) {
  const LimitInfo* info = find(name);
  if (info == nullptr) return "exceeds a limit";
  const std::string value = std::to_string(current_limits().*(info->field));
  std::string s = "exceeds the limit " + std::string(name) + " (" + value + "); raise it with ";
  s += info->flag ? std::string(info->flag) + " N or --limit " + std::string(name) + "=N"
                  : "--limit " + std::string(name) + "=N";
  return s;
}

std::uint64_t limit_value(std::string_view name) {
  const LimitInfo* info = find(name);
  if (info == nullptr) throw Error("internal: no limit named '" + std::string(name) + "'");
  return current_limits().*(info->field);
}

}  // namespace tessera
