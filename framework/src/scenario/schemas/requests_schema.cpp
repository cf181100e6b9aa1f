// serving.requests (requests_schema.hpp).
#include "scenario/schemas/requests_schema.hpp"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <utility>

#include "scenario/fields/field_reader.hpp"
#include "scenario/fields/mapping_reader.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/schemas/schemas.hpp"
#include "scenario/trace_file.hpp"

namespace tessera::loader {

namespace {

using requests::ArrivalKind;
using requests::LengthKind;
using requests::LengthSpec;

constexpr const char* kPath = "serving.requests";

// table: token counts with their weights ({128: 1, 1K: 3}); each count read as `tokens` is.
void parse_length_table(const YNode& t, const std::string& path, LengthSpec& out, Diags& d) {
  if (!expect_mapping(t, path + ".table", d)) return;
  if (t.entries.empty()) {
    d.error(t.where, path +
                         ".table: expected token counts with their weights (e.g. {128: 1, 1K: 3}), "
                         "found an empty mapping");
    return;
  }
  for (const YEntry& e : t.entries) {
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

// input: / output: — a length distribution (its keys by the field table) and the parameters its
// kind requires.
void parse_length(const YNode& n, const std::string& path, LengthSpec& out, const schema::FieldSite& site,
                  Diags& d) {
  if (!read_mapping(n, path, path, site, d)) return;
  const std::string kind(row_of(path + ".distribution").spec.choices[static_cast<int>(out.kind)].value);
  auto need = [&](const char* key) -> const YNode* {
    const YNode* v = n.find(key);
    if (!v) d.error(n.where, path + "." + key + ": required with distribution: " + kind);
    return v;
  };
  switch (out.kind) {
    case LengthKind::fixed:
      need("tokens");
      break;
    case LengthKind::uniform: {
      const YNode* lo = need("min");
      const YNode* hi = need("max");
      if (lo && hi && out.max < out.min)
        d.error(hi->where,
                path + ".max: expected at least min (" + std::to_string(out.min) + "), found " + hi->value);
      break;
    }
    case LengthKind::lognormal:
      need("median");
      need("sigma");
      if (!n.find("max")) out.max = 0;  // no clamp above
      break;
    case LengthKind::table:
      if (const YNode* t = need("table")) parse_length_table(*t, path, out, d);
      break;
  }
}

// The arrival kind's requirements: its own keys required, the other kinds' refused.
void check_arrival(const YNode& n, const RequestsSpec& out, Diags& d) {
  const std::string path = kPath;
  const ArrivalKind kind = out.stream.arrival.kind;
  const std::string arrival(row_of(path + ".arrival").spec.choices[static_cast<int>(kind)].value);
  const auto need = [&](const char* key) {
    if (!n.find(key)) d.error(n.where, path + "." + key + ": required with arrival: " + arrival);
  };
  const auto refuse = [&](const char* key, const char* only) {
    if (const YEntry* e = n.find_entry(key))
      d.error(e->key_where,
              path + "." + key + ": only with arrival: " + only + " (arrival is " + arrival + ")");
  };
  const bool rated =
      kind == ArrivalKind::poisson || kind == ArrivalKind::gamma || kind == ArrivalKind::constant;
  if (rated)
    need("rate");
  else
    refuse("rate", "poisson, gamma or constant");
  if (kind != ArrivalKind::gamma) refuse("cv", "gamma");
  if (kind == ArrivalKind::concurrency)
    need("concurrency");
  else
    refuse("concurrency", "concurrency");
  if (kind == ArrivalKind::trace) {
    need("trace");
    for (const char* key : {"input", "output"})
      if (const YEntry* e = n.find_entry(key))
        d.error(e->key_where, path + "." + key + ": a trace gives each request's lengths");
  } else {
    refuse("trace", "trace");
    refuse("trace_format", "trace");
  }
}

}  // namespace

void parse_requests(const YNode& n, const SourceLocation& key_where, Scenario& s, Diags& d) {
  const std::string path = kPath;
  RequestsSpec& out = s.serving.requests;
  out.given = true;
  out.where = key_where;
  const schema::FieldSite site{.workload = &s.workload, .scenario = &s};
  const auto length = [&](LengthSpec& spec, bool& given) {
    return [&](const YNode* v, const std::string& p) {
      given = true;
      parse_length(*v, p, spec, site, d);
    };
  };
  const ChildReader readers[] = {
      {"serving.requests.input", length(out.stream.input, out.input_given)},
      {"serving.requests.output", length(out.stream.output, out.output_given)},
  };
  if (!read_mapping(n, path, path, site, d, readers)) return;
  check_arrival(n, out, d);
  if (const YNode* t = n.find("trace")) out.trace_where = t->where;
  if (const YNode* w = n.find("warmup")) out.warmup_where = w->where;
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
