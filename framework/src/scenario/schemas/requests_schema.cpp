// serving.requests (requests_schema.hpp).
#include "scenario/schemas/requests_schema.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "scenario/fields/field_reader.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/schemas/schemas.hpp"
#include "scenario/trace_file.hpp"

namespace tessera::loader {

namespace {

using requests::ArrivalKind;
using requests::LengthKind;
using requests::LengthSpec;

constexpr const char* kPath = "serving.requests";

// The value of row `path` (under `map`) when present.
std::optional<FieldValue> field(const YNode& map, const std::string& path, Diags& d) {
  const std::string key = path.substr(path.rfind('.') + 1);
  const YNode* v = map.find(key);
  if (!v) return std::nullopt;
  return read_field(*v, path, row_of(path), d);
}

// input: / output: — a length distribution and the parameters its kind requires.
void parse_length(const YNode& n, const std::string& path, LengthSpec& out, Diags& d) {
  if (!expect_mapping(n, path, d)) return;
  check_keys(n, path, *schema_keys(path), d);
  std::string kind = "fixed";
  if (auto v = field(n, path + ".distribution", d)) kind = v->text;
  auto need = [&](const char* key) -> const YNode* {
    const YNode* v = n.find(key);
    if (!v) d.error(n.where, path + "." + key + ": required with distribution: " + kind);
    return v;
  };
  if (kind == "fixed") {
    out.kind = LengthKind::fixed;
    if (need("tokens"))
      if (auto v = field(n, path + ".tokens", d)) out.value = v->integer;
  } else if (kind == "uniform") {
    out.kind = LengthKind::uniform;
    const YNode* lo = need("min");
    const YNode* hi = need("max");
    if (lo && hi) {
      const auto a = field(n, path + ".min", d), b = field(n, path + ".max", d);
      if (a && b) {
        out.min = a->integer;
        out.max = b->integer;
        if (out.max < out.min)
          d.error(hi->where,
                  path + ".max: expected at least min (" + std::to_string(out.min) + "), found " + hi->value);
      }
    }
  } else if (kind == "lognormal") {
    out.kind = LengthKind::lognormal;
    out.min = 1;
    out.max = 0;
    if (need("median"))
      if (auto v = field(n, path + ".median", d)) out.median = v->number;
    if (need("sigma"))
      if (auto v = field(n, path + ".sigma", d)) out.sigma = v->number;
    if (auto v = field(n, path + ".min", d)) out.min = v->integer;
    if (auto v = field(n, path + ".max", d)) out.max = v->integer;
  } else {  // table
    out.kind = LengthKind::table;
    const YNode* t = need("table");
    if (!t || !expect_mapping(*t, path + ".table", d)) return;
    if (t->entries.empty()) {
      d.error(t->where, path +
                            ".table: expected token counts with their weights (e.g. {128: 1, 1K: 3}), "
                            "found an empty mapping");
      return;
    }
    for (const YEntry& e : t->entries) {
      const std::string p = path + ".table." + e.key;
      YNode key_node;
      key_node.kind = YNode::Kind::scalar;
      key_node.value = e.key;
      key_node.where = e.key_where;
      const auto tokens = read_field(key_node, path + ".tokens", row_of(path + ".tokens"), d);
      const auto weight = read_real(e.value, p, d);
      if (!tokens || !weight) continue;
      if (!(*weight > 0)) {
        d.error(e.value.where, p + ": expected a weight above 0, found " + e.value.value);
        continue;
      }
      out.table.emplace_back(tokens->integer, *weight);
    }
  }
}

}  // namespace

void parse_requests(const YNode& n, const SourceLocation& key_where, RequestsSpec& out, Diags& d) {
  const std::string path = kPath;
  out.given = true;
  out.where = key_where;
  if (!expect_mapping(n, path, d)) return;
  check_keys(n, path, *schema_keys(path), d);
  requests::StreamSpec& s = out.stream;
  std::string arrival = "poisson";
  if (auto v = field(n, path + ".arrival", d)) arrival = v->text;
  for (const auto& [name, kind] : row_choices<ArrivalKind>(path + ".arrival"))
    if (name == arrival) s.arrival.kind = kind;
  auto need = [&](const char* key) -> const YNode* {
    const YNode* v = n.find(key);
    if (!v) d.error(n.where, path + "." + key + ": required with arrival: " + arrival);
    return v;
  };
  auto refuse = [&](const char* key, const char* only) {
    if (const YEntry* e = n.find_entry(key))
      d.error(e->key_where,
              path + "." + key + ": only with arrival: " + only + " (arrival is " + arrival + ")");
  };
  const bool rated = arrival == "poisson" || arrival == "gamma" || arrival == "constant";
  if (rated) {
    if (need("rate"))
      if (auto v = field(n, path + ".rate", d)) s.arrival.rate_per_s = v->number;
  } else {
    refuse("rate", "poisson, gamma or constant");
  }
  if (arrival == "gamma") {
    if (auto v = field(n, path + ".cv", d)) s.arrival.cv = v->number;
  } else {
    refuse("cv", "gamma");
  }
  if (arrival == "concurrency") {
    if (need("concurrency"))
      if (auto v = field(n, path + ".concurrency", d)) s.arrival.concurrency = v->integer;
  } else {
    refuse("concurrency", "concurrency");
  }
  if (arrival == "trace") {
    if (const YNode* t = need("trace")) {
      out.trace_where = t->where;
      if (auto v = field(n, path + ".trace", d)) out.trace_file = v->text;
    }
    if (auto v = field(n, path + ".trace_format", d))
      for (const auto& [name, f] : row_choices<requests::TraceFormat>(path + ".trace_format"))
        if (name == v->text) out.trace_format = f;
  } else {
    refuse("trace", "trace");
    refuse("trace_format", "trace");
  }
  if (const YNode* i = n.find("input")) {
    out.input_given = true;
    parse_length(*i, path + ".input", s.input, d);
  }
  if (const YNode* o = n.find("output")) {
    out.output_given = true;
    parse_length(*o, path + ".output", s.output, d);
  }
  if (arrival == "trace") {
    if (const YEntry* e = n.find_entry("input"))
      d.error(e->key_where, path + ".input: a trace gives each request's lengths");
    if (const YEntry* e = n.find_entry("output"))
      d.error(e->key_where, path + ".output: a trace gives each request's lengths");
  }
  if (const YNode* p = n.find("prefix")) {
    const std::string pp = path + ".prefix";
    if (expect_mapping(*p, pp, d)) {
      check_keys(*p, pp, *schema_keys(pp), d);
      if (auto v = field(*p, pp + ".groups", d)) s.prefix.groups = v->integer;
      if (auto v = field(*p, pp + ".tokens", d)) s.prefix.tokens = v->integer;
    }
  }
  if (auto v = field(n, path + ".count", d)) s.requests = static_cast<std::uint64_t>(v->integer);
  if (const YNode* w = n.find("warmup")) {
    out.warmup_given = true;
    out.warmup_where = w->where;
    if (auto v = field(n, path + ".warmup", d)) s.warmup = static_cast<std::uint64_t>(v->integer);
  }
  if (auto v = field(n, path + ".seed", d)) s.seed = static_cast<std::uint64_t>(v->integer);
  if (auto v = field(n, path + ".router", d))
    for (const auto& [name, r] : row_choices<requests::Router>(path + ".router"))
      if (name == v->text) out.router = r;
  if (auto v = field(n, path + ".preemption", d))
    for (const auto& [name, p] : row_choices<requests::Preemption>(path + ".preemption"))
      if (name == v->text) {
        out.preemption_given = true;
        out.preemption = p;
      }
  if (auto v = field(n, path + ".swap_bandwidth", d)) out.swap_bandwidth = v->number;
  if (auto v = field(n, path + ".swap_latency", d)) out.swap_latency_s = v->number;
  if (out.preemption_given && out.preemption == requests::Preemption::swap && !(out.swap_bandwidth > 0))
    d.error(n.where, path +
                         ".swap_bandwidth: required with preemption: swap (each PE's bandwidth to host "
                         "memory, e.g. 25 GB/s; no machine file states a host link)");
}

void finish_requests(Scenario& s, const std::string& trace_path, Diags& d) {
  RequestsSpec& r = s.serving.requests;
  if (!r.given) return;
  requests::StreamSpec& st = r.stream;
  if (!r.input_given) {
    st.input = LengthSpec{};
    st.input.value = s.workload.input;
  }
  if (!r.output_given) {
    st.output = LengthSpec{};
    st.output.value = s.workload.output;
  }
  std::uint64_t total = st.requests;
  if (st.arrival.kind == ArrivalKind::trace && !r.trace_file.empty()) {
    TraceRead t = read_trace(trace_path, r.trace_format, r.trace_where, d);
    if (!t.rows) return;
    r.trace_skipped = t.skipped;
    total = std::min<std::uint64_t>(total, t.rows->size());
    st.trace = std::move(t.rows);
  }
  if (!r.warmup_given) {
    st.warmup = total / 10;
  } else if (st.warmup >= total) {
    d.error(r.warmup_where, "serving.requests.warmup: expected fewer than the " + std::to_string(total) +
                                " requests sent (the warm-up is not measured), found " +
                                std::to_string(st.warmup));
  }
}

}  // namespace tessera::loader
