// serving.requests (requests_schema.hpp).
#include "scenario/schemas/requests_schema.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

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

// A weight's largest value: a table's weights then sum to a finite number (docs/limits.md).
constexpr double kMaxWeight = 1e15;

// A mapping of integer keys to weights above 0 at `path` ({128: 1, 1K: 3}, {0: 1, 1: 3}): each
// key read by `read_key` (nullopt: reported there), `what` naming the keys in the messages.
void parse_weights(
    const YNode& t, const std::string& path, const char* what, const char* example,
    const std::function<std::optional<std::int64_t>(const YNode& key, const std::string& p)>& read_key,
    std::vector<std::pair<std::int64_t, double>>& out, Diags& d) {
  if (!expect_mapping(t, path, d)) return;
  if (t.entries.empty()) {
    d.error(t.where, path + ": expected " + what + " with their weights (e.g. " + example +
                         "), found an empty mapping");
    return;
  }
  for (const YEntry& e : t.entries) {
    const std::string p = path + "." + e.key;
    YNode key_node;
    key_node.kind = YNode::Kind::scalar;
    key_node.value = e.key;
    key_node.where = e.key_where;
    const auto key = read_key(key_node, p);
    const auto weight = read_real(e.value, p, d);
    if (!key || !weight) continue;
    if (!(*weight > 0) || *weight > kMaxWeight) {
      d.error(e.value.where, p + ": expected a weight above 0 and at most 1e15, found " + e.value.value);
      continue;
    }
    const auto same = std::find_if(out.begin(), out.end(), [&](const auto& kw) { return kw.first == *key; });
    if (same != out.end()) {
      d.error(e.key_where, p + ": " + std::to_string(*key) + " is given twice in " + path);
      continue;
    }
    out.emplace_back(*key, *weight);
  }
}

// table: token counts with their weights ({128: 1, 1K: 3}); each count read as `tokens` is.
void parse_length_table(const YNode& t, const std::string& path, LengthSpec& out, Diags& d) {
  parse_weights(
      t, path + ".table", "token counts", "{128: 1, 1K: 3}",
      [&](const YNode& key, const std::string&) -> std::optional<std::int64_t> {
        const auto tokens = read_field(key, path + ".tokens", row_of(path + ".tokens"), d);
        if (!tokens) return std::nullopt;
        return tokens->integer;
      },
      out.table, d);
}

// priorities: classes with their weights ({0: 1, 1: 3}); a class is an integer in [0, 1e6].
void parse_priorities(const YNode& t, const std::string& path,
                      std::vector<std::pair<std::int64_t, double>>& out, Diags& d) {
  parse_weights(
      t, path, "priority classes", "{0: 1, 1: 3}",
      [&](const YNode& key, const std::string& p) -> std::optional<std::int64_t> {
        const auto cls = read_int(key, p, d, 0);
        if (cls && *cls > 1000000) {
          d.error(key.where, p + ": expected a priority class from 0 to 1000000, found " + key.value);
          return std::nullopt;
        }
        return cls;
      },
      out, d);
}

// A key of a mapping whose kind (`kind_key`: distribution, arrival) decides whether it is read:
// `kinds` names the kinds that read it.
struct KindKey {
  const char* key;
  const char* kinds;
  bool read;
};

// The kind's name as its row spells it (the row's choices are in the enum's order).
std::string kind_name(const std::string& row, int kind) {
  return row_of(row).spec.choices[static_cast<std::uint32_t>(kind)].value;
}

// The keys of `map` (at `path`) the chosen kind does not read: each present one refused at its
// key, naming the kinds that read it, and none of them read (a reader that does nothing, added to
// `skip`).
void refuse_unread(const YNode& map, const std::string& path, const std::string& kind_key,
                   const std::string& kind, std::span<const KindKey> keys, std::vector<ChildReader>& skip,
                   Diags& d) {
  for (const KindKey& k : keys) {
    if (k.read) continue;
    skip.push_back({schema::find_field(path + "." + k.key)->path, [](const YNode*, const std::string&) {}});
    if (const YEntry* e = map.find_entry(k.key))
      d.error(e->key_where, path + "." + k.key + ": only with " + kind_key + ": " + k.kinds + " (" +
                                kind_key + " is " + kind + ")");
  }
}

// The kind key (distribution, arrival) read first, by its row: what it chooses decides which
// other keys are read. Its own reader then does nothing.
void read_kind(const YNode& map, const std::string& path, const char* key, const schema::FieldSite& site,
               std::vector<ChildReader>& skip, Diags& d) {
  const schema::FieldRow& row = row_of(path + "." + key);
  if (const YNode* v = map.find(key)) read_slot(*v, path + "." + key, row, site, d);
  skip.push_back({row.path, [](const YNode*, const std::string&) {}});
}

// input: / output: — a length distribution: its kind first, then the keys that kind reads (by
// the field table; the others refused), the ones it requires, and its table.
void parse_length(const YNode& n, const std::string& path, LengthSpec& out, const schema::FieldSite& site,
                  Diags& d) {
  if (!expect_mapping(n, path, d)) return;
  std::vector<ChildReader> skip;
  read_kind(n, path, "distribution", site, skip, d);
  const LengthKind k = out.kind;
  const std::string kind = kind_name(path + ".distribution", static_cast<int>(k));
  const bool bounded = k == LengthKind::uniform || k == LengthKind::lognormal;
  const KindKey keys[] = {
      {"tokens", "fixed", k == LengthKind::fixed},        {"min", "uniform or lognormal", bounded},
      {"max", "uniform or lognormal", bounded},           {"median", "lognormal", k == LengthKind::lognormal},
      {"sigma", "lognormal", k == LengthKind::lognormal}, {"table", "table", k == LengthKind::table}};
  refuse_unread(n, path, "distribution", kind, keys, skip, d);
  const std::size_t before = d.size();
  read_mapping(n, path, path, site, d, skip);
  const bool values_read = d.size() == before;
  auto need = [&](const char* key) -> const YNode* {
    const YNode* v = n.find(key);
    if (!v) d.error(n.where, path + "." + key + ": required with distribution: " + kind);
    return v;
  };
  switch (k) {
    case LengthKind::fixed:
      need("tokens");
      break;
    case LengthKind::uniform: {
      const YNode* lo = need("min");
      const YNode* hi = need("max");
      if (lo && hi && values_read && out.max < out.min)
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

}  // namespace

void parse_requests(const YNode& n, const SourceLocation& key_where, Scenario& s, Diags& d) {
  const std::string path = kPath;
  RequestsSpec& out = s.serving.requests;
  out.given = true;
  out.where = key_where;
  if (!expect_mapping(n, path, d)) return;
  const schema::FieldSite site{.workload = &s.workload, .scenario = &s};
  // The arrival first: it decides which keys are read, which are required and which refused.
  std::vector<ChildReader> readers;
  read_kind(n, path, "arrival", site, readers, d);
  const ArrivalKind kind = out.stream.arrival.kind;
  const std::string arrival = kind_name(path + ".arrival", static_cast<int>(kind));
  const bool rated =
      kind == ArrivalKind::poisson || kind == ArrivalKind::gamma || kind == ArrivalKind::constant;
  const bool trace = kind == ArrivalKind::trace;
  const KindKey keys[] = {{"rate", "poisson, gamma or constant", rated},
                          {"cv", "gamma", kind == ArrivalKind::gamma},
                          {"concurrency", "concurrency", kind == ArrivalKind::concurrency},
                          {"trace", "trace", trace},
                          {"trace_format", "trace", trace}};
  refuse_unread(n, path, "arrival", arrival, keys, readers, d);
  // The lengths: a trace gives each request's own, refused here.
  const auto length = [&](LengthSpec& spec, bool& given) {
    return [&, trace](const YNode* v, const std::string& p) {
      if (trace) {
        d.error(n.find_entry(p.substr(p.rfind('.') + 1))->key_where,
                p + ": a trace gives each request's lengths");
        return;
      }
      given = true;
      parse_length(*v, p, spec, site, d);
    };
  };
  readers.push_back({"serving.requests.priorities", [&](const YNode* v, const std::string& p) {
                       parse_priorities(*v, p, out.stream.priorities, d);
                     }});
  readers.push_back({"serving.requests.input", length(out.stream.input, out.input_given)});
  readers.push_back({"serving.requests.conversation", [&](const YNode* v, const std::string& p) {
                       const ChildReader message[] = {
                           {"serving.requests.conversation.message",
                            length(out.stream.conversation.message, out.stream.conversation.message_given)}};
                       read_mapping(*v, p, "serving.requests.conversation", site, d, message);
                     }});
  readers.push_back({"serving.requests.output", length(out.stream.output, out.output_given)});
  read_mapping(n, path, path, site, d, readers);
  const auto need = [&](const char* key) {
    if (!n.find(key)) d.error(n.where, path + "." + key + ": required with arrival: " + arrival);
  };
  if (rated) need("rate");
  if (kind == ArrivalKind::concurrency) need("concurrency");
  if (trace) need("trace");
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
