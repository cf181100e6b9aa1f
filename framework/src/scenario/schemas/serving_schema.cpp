// sweep.serving and serving (serving_schema.hpp).
#include "scenario/schemas/serving_schema.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <iterator>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/text/dotted_path.hpp"
#include "core/text/nearest_name.hpp"
#include "scenario/fields/field_reader.hpp"
#include "scenario/fields/mapping_reader.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/schemas/requests_schema.hpp"
#include "scenario/schemas/schemas.hpp"
#include "tessera/limits.hpp"

namespace tessera::loader {

namespace {

// serving.disaggregated: present (even empty), the disaggregated study runs; its keys by the
// field table, the transfer link given when its bandwidth is.
void parse_disaggregated(const YNode& n, const std::string& path, Scenario& s, Diags& d) {
  DisaggregationSpec& out = s.serving.disaggregated;
  out.enabled = true;
  // `disaggregated:` alone is refused by the mapping check (`{}` takes the defaults): no second message.
  if (n.is_scalar() && n.value.empty()) return;
  const ChildReader transfer[] = {
      {"serving.disaggregated.transfer", [&](const YNode* t, const std::string& tp) {
         if (read_mapping(*t, tp, "serving.disaggregated.transfer", schema::FieldSite{.scenario = &s}, d))
           out.has_transfer = t->find("bandwidth") != nullptr;
       }}};
  read_mapping(n, path, "serving.disaggregated", schema::FieldSite{.scenario = &s}, d, transfer);
}

}  // namespace

void refuse_outside_serve(const YNode& map, const std::string& path, const std::string& key,
                          const std::string& instead, Diags& d) {
  if (!map.is_mapping()) return;
  if (const YEntry* e = map.find_entry(key))
    d.error(e->key_where, join_path(path, key) + ": only in workload.mode: serve (`tessera serve`)" +
                              (instead.empty() ? std::string() : "; " + instead));
}

namespace {

// The percentile of a statistic key: "p99" -> 99, "p99.9" -> 99.9; "mean" -> 0; nullopt when
// the key is neither; `out_of_range` when it is a percentile outside (0, 100).
std::optional<double> statistic_percentile(const std::string& key, bool& out_of_range) {
  out_of_range = false;
  if (key == "mean") return 0.0;
  if (key.size() < 2 || (key[0] != 'p' && key[0] != 'P')) return std::nullopt;
  const char* first = key.data() + 1;
  const char* last = key.data() + key.size();
  if (!std::isdigit(static_cast<unsigned char>(*first))) return std::nullopt;
  double p = 0;
  const auto r = std::from_chars(first, last, p, std::chars_format::fixed);
  if (r.ec != std::errc() || r.ptr != last) return std::nullopt;
  if (!(p > 0 && p < 100)) {
    out_of_range = true;
    return std::nullopt;
  }
  return p;
}

// serving.slo.<metric>: a time (a target on the mean) or a mapping {mean: T, p<N>: T, ...}.
void parse_slo_target(const YNode& n, SloLatency metric, ServingSlo& slo, Diags& d) {
  const std::string path = std::string("serving.slo.") + slo_latency_key(metric);
  const schema::FieldRow& row = row_of(path);
  if (!n.is_mapping()) {
    if (auto v = read_field(n, path, row, d)) slo.add(SloTarget{metric, 0, v->number, n.where});
    return;
  }
  if (n.entries.empty()) {
    d.error(n.where, path +
                         ": expected a time or a mapping of statistics ({mean: 500 ms, p99: 2 s}), found an "
                         "empty mapping");
    return;
  }
  for (const YEntry& e : n.entries) {
    bool out_of_range = false;
    const std::optional<double> pct = statistic_percentile(e.key, out_of_range);
    const std::string p = path + "." + e.key;
    if (!pct) {
      d.error(e.key_where, out_of_range
                               ? p + ": a percentile must lie in (0, 100), found " + e.key.substr(1)
                               : p +
                                     ": expected a statistic, `mean` or a percentile `p<N>` with N in (0, "
                                     "100) (p50, p90, p99, "
                                     "p99.9), found '" +
                                     e.key + "'" + did_you_mean(e.key, {"mean", "p50", "p90", "p95", "p99"}));
      continue;
    }
    if (auto v = read_field(e.value, p, row, d)) slo.add(SloTarget{metric, *pct, v->number, e.value.where});
  }
}

}  // namespace

void parse_serving(const YNode& root, Scenario& s, Diags& d) {
  const YEntry* e = root.is_mapping() ? root.find_entry("serving") : nullptr;
  if (!e) return;
  if (s.workload.mode != Mode::serve) {
    refuse_outside_serve(root, "", "serving", "decode and prefill have no SLO", d);
    return;
  }
  const YNode& n = e->value;
  ServingSpec& out = s.serving;
  out.where = e->key_where;
  // The SLO's latencies take a time or a mapping of statistics; disaggregated and requests have
  // rules across their keys; the pool machines were read with the machine.
  const auto slo = [&](SloLatency metric) {
    return [&, metric](const YNode* v, const std::string&) { parse_slo_target(*v, metric, out.slo, d); };
  };
  const ChildReader readers[] = {
      {"serving.slo.ttft", slo(SloLatency::ttft)},
      {"serving.slo.tpot", slo(SloLatency::tpot)},
      {"serving.slo.e2e", slo(SloLatency::e2e)},
      {"serving.disaggregated",
       [&](const YNode* v, const std::string& path) { parse_disaggregated(*v, path, s, d); }},
      {"serving.requests",
       [&](const YNode* v, const std::string&) {
         parse_requests(*v, n.find_entry("requests")->key_where, s, d);
       }},
      {"serving.prefix_cache",
       [&](const YNode* v, const std::string& path) {
         out.prefix_cache.given = true;
         out.prefix_cache.where = n.find_entry("prefix_cache")->key_where;
         read_mapping(*v, path, "serving.prefix_cache", schema::FieldSite{.scenario = &s}, d);
       }},
      {"serving.speculative",
       [&](const YNode* v, const std::string& path) {
         out.speculative.given = true;
         out.speculative.where = n.find_entry("speculative")->key_where;
         read_mapping(*v, path, "serving.speculative", schema::FieldSite{.scenario = &s}, d);
       }},
  };
  read_mapping(n, "serving", "serving", schema::FieldSite{.scenario = &s}, d, readers);
}

void check_pool_machines(const Scenario& s, const MachineSpec* machine, Diags& d) {
  if (s.workload.mode != Mode::serve) return;  // `serving` is refused whole
  const std::pair<const char*, const PoolMachine*> pools[] = {
      {"serving.prefill_machine", &s.serving.prefill_machine},
      {"serving.decode_machine", &s.serving.decode_machine}};
  if (s.serving.separate_machines())
    for (const HardwareAxis& a : s.sweep.hardware)
      if (a.path.rfind("machine.", 0) == 0) {
        const std::string rest = a.path.substr(8);
        d.error(a.where,
                "sweep.hardware: '" + a.path +
                    "' is ambiguous: the pools run on machines of their own (serving.prefill_machine "
                    "or serving.decode_machine is given) (did you mean 'serving.prefill_machine." +
                    rest + "' or 'serving.decode_machine." + rest + "'?)");
      }
  for (const auto& [path, pm] : pools) {
    if (!pm->given) continue;
    const std::string pool = path[8] == 'p' ? "prefill" : "decode";
    // A placement is a level of the machine: one written by name must name the same level of
    // the pool's machine, or the pool would run it at another level without a word.
    const std::tuple<const char*, const std::vector<std::int8_t>*, const SourceLocation*> lists[] = {
        {"tp_placement", &s.sweep.tp_placement, &s.sweep.tp_placement_where},
        {"cp_placement", &s.sweep.cp_placement, &s.sweep.cp_placement_where}};
    for (const auto& [knob, values, where] : lists) {
      if (where->file.empty() || !machine) continue;
      for (std::int8_t v : *values) {
        const std::string here = machine->placement_name(v), there = pm->machine.placement_name(v);
        if (here == there) continue;
        d.error(*where, std::string("sweep.parallelism.") + knob + ": '" + here + "' (level " +
                            std::to_string(v) + " of machine " + machine->name + ") is '" + there + "' on " +
                            path + " (" + pm->machine.name +
                            "): placements name levels of every pool's machine; leave " + knob +
                            " out (each pool then takes its own PE and first level) or give " +
                            "pools whose levels share names");
        break;
      }
    }
    if (!s.serving.disaggregated.enabled)
      d.error(pm->where,
              std::string(path) + ": only with serving.disaggregated (the " + pool +
                  " pool of a disaggregated service on its own machine); add serving.disaggregated: "
                  "{transfer: {bandwidth: ..., latency: ...}}, or remove " +
                  path);
    else if (!s.serving.disaggregated.has_transfer)
      d.error(pm->where, std::string(path) +
                             ": the pools run on machines of their own and share no machine level, so "
                             "serving.disaggregated.transfer: {bandwidth, latency} is required (each PE's "
                             "link to the other pool, e.g. {bandwidth: 50 GB/s, latency: 8 us})");
  }
}

}  // namespace tessera::loader
