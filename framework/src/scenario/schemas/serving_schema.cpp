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
#include "scenario/readers/schema_util.hpp"
#include "scenario/schemas/requests_schema.hpp"
#include "scenario/schemas/schemas.hpp"
#include "tessera/limits.hpp"

namespace tessera::loader {

namespace {

// A list (or one value) of token counts without repeats, each read by `row`; with `zero_ok`,
// 0 is a value too (no limit).
std::optional<std::vector<std::int64_t>> token_list(const YNode& n, const std::string& path, bool zero_ok,
                                                    Diags& d) {
  const schema::FieldRow& row = row_of(path);
  std::vector<const YNode*> items;
  if (n.is_sequence())
    for (const auto& i : n.items) items.push_back(&i);
  else
    items.push_back(&n);
  if (items.size() > current_limits().list_values) {
    d.error(n.where, path + ": a list of " + std::to_string(items.size()) + " values " +
                         limit_exceeded("list.values"));
    return std::nullopt;
  }
  if (items.empty()) {
    d.error(n.where, path + ": expected a list of token counts (e.g. [1, 2, 4, 8]), found an empty list");
    return std::nullopt;
  }
  std::vector<std::int64_t> out;
  bool ok = true;
  for (const YNode* i : items) {
    if (!i->is_scalar()) {
      d.error(i->where, path + ": expected a token count, found " + describe(*i));
      ok = false;
      continue;
    }
    if (zero_ok && i->value == "0") {
      out.push_back(0);
      continue;
    }
    const auto v = read_field(*i, path, row, d);
    if (!v) {
      ok = false;
      continue;
    }
    out.push_back(v->integer);
  }
  if (!ok) return std::nullopt;
  if (!report_repeats(out, items, path, d)) return std::nullopt;
  return out;
}

void parse_disaggregated(const YNode& n, DisaggregationSpec& out, Diags& d) {
  const std::string path = "serving.disaggregated";
  out.enabled = true;
  // `disaggregated:` alone is refused by the mapping check (`{}` takes the defaults): no second message.
  if (n.is_scalar() && n.value.empty()) return;
  if (!expect_mapping(n, path, d)) return;
  check_keys(n, path, *schema_keys(path), d);
  if (const YNode* o = n.find("transfer_overlap"))
    if (auto v = read_field(*o, path + ".transfer_overlap", row_of(path + ".transfer_overlap"), d))
      out.overlap = v->text == "none" ? TransferOverlap::none : TransferOverlap::layerwise;
  if (const YNode* r = n.find("max_replicas"))
    if (auto v = read_field(*r, path + ".max_replicas", row_of(path + ".max_replicas"), d))
      out.max_replicas = v->integer;
  if (const YNode* b = n.find("prefill_batch"))
    if (auto v = token_list(*b, path + ".prefill_batch", false, d)) out.prefill_batch = std::move(*v);
  if (const YNode* t = n.find("transfer")) {
    const std::string tp = path + ".transfer";
    if (!expect_mapping(*t, tp, d)) return;
    check_keys(*t, tp, *schema_keys(tp), d);
    const YNode* bw = t->find("bandwidth");
    if (!bw) {
      d.error(t->where, tp + ".bandwidth: required (each PE's bandwidth to the other pool, e.g. 50 GB/s)");
      return;
    }
    if (auto v = read_field(*bw, tp + ".bandwidth", row_of(tp + ".bandwidth"), d)) {
      out.has_transfer = true;
      out.transfer.bandwidth = v->number;
    }
    if (const YNode* l = t->find("latency"))
      if (auto v = read_field(*l, tp + ".latency", row_of(tp + ".latency"), d))
        out.transfer.latency = v->number;
  }
}

}  // namespace

void refuse_outside_serve(const YNode& map, const std::string& path, const std::string& key,
                          const std::string& instead, Diags& d) {
  if (!map.is_mapping()) return;
  if (const YEntry* e = map.find_entry(key))
    d.error(e->key_where, join_path(path, key) + ": only in workload.mode: serve (`tessera serve`)" +
                              (instead.empty() ? std::string() : "; " + instead));
}

void parse_sweep_serving(const YNode* sweep, Mode mode, Sweep& s, Diags& d) {
  const std::string path = "sweep.serving";
  if (mode != Mode::serve) {
    if (sweep)
      refuse_outside_serve(*sweep, "sweep", "serving",
                           "decode and prefill time one step of workload.batch sequences", d);
    return;
  }
  s.serving_batch.assign(std::begin(kDefaultServingBatch), std::end(kDefaultServingBatch));
  s.serving_token_budget.assign(std::begin(kDefaultServingTokenBudget), std::end(kDefaultServingTokenBudget));
  const YNode* n = sweep && sweep->is_mapping() ? sweep->find("serving") : nullptr;
  if (!n || !expect_mapping(*n, path, d)) return;
  check_keys(*n, path, *schema_keys(path), d);
  if (const YNode* b = n->find("batch"))
    if (auto v = token_list(*b, path + ".batch", false, d)) s.serving_batch = std::move(*v);
  if (const YNode* t = n->find("token_budget"))
    if (auto v = token_list(*t, path + ".token_budget", true, d)) s.serving_token_budget = std::move(*v);
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

void parse_serving(const YNode& root, Mode mode, ServingSpec& out, Diags& d) {
  const YEntry* e = root.is_mapping() ? root.find_entry("serving") : nullptr;
  if (!e) return;
  if (mode != Mode::serve) {
    refuse_outside_serve(root, "", "serving", "decode and prefill have no SLO", d);
    return;
  }
  const YNode& n = e->value;
  out.where = e->key_where;
  if (!expect_mapping(n, "serving", d)) return;
  check_keys(n, "serving", *schema_keys("serving"), d);
  if (const YNode* slo = n.find("slo")) {
    if (expect_mapping(*slo, "serving.slo", d)) {
      check_keys(*slo, "serving.slo", *schema_keys("serving.slo"), d);
      for (SloLatency m : {SloLatency::ttft, SloLatency::tpot, SloLatency::e2e})
        if (const YNode* t = slo->find(slo_latency_key(m))) parse_slo_target(*t, m, out.slo, d);
      if (const YNode* r = slo->find("tokens_per_s_per_user")) {
        const std::string p = "serving.slo.tokens_per_s_per_user";
        if (auto v = read_field(*r, p, row_of(p), d)) out.slo.min_tokens_per_s_per_user = v->number;
      }
    }
  }
  if (const YNode* m = n.find("max_pes"))
    if (auto v = read_field(*m, "serving.max_pes", row_of("serving.max_pes"), d)) out.max_pes = v->integer;
  if (const YNode* g = n.find("disaggregated")) parse_disaggregated(*g, out.disaggregated, d);
  if (const YEntry* r = n.find_entry("requests")) parse_requests(r->value, r->key_where, out.requests, d);
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
