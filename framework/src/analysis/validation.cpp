// `tessera validate-data`: row mapping, prediction and error statistics. The mapping rules
// are written down in docs/accuracy.md ("How a row is mapped").
#include "analysis/validation.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis/collective_rows.hpp"
#include "core/cancellation.hpp"
#include "eval/evaluator.hpp"
#include "report/text_table.hpp"
#include "scenario/scenario_loader.hpp"
#include "tessera/error.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/layout.hpp"
#include "tessera/physics/step_work.hpp"
#include "tessera/version.hpp"

namespace tessera::validation {

namespace fs = std::filesystem;

namespace {

bool contains_ci(const std::string& hay, const std::string& needle) {
  return needle.empty() || lower(hay).find(lower(needle)) != std::string::npos;
}

// Parses a whole integer cell; nullopt when blank or not an integer.
std::optional<std::int64_t> int_cell(const std::string& s) {
  const std::string t = trim(s);
  if (t.empty()) return std::nullopt;
  std::size_t pos = 0;
  try {
    const long long v = std::stoll(t, &pos);
    // Beyond kMaxRowCount is no count (read_measurements refuses it at its cell); the bound
    // keeps tp*pp and every sum of lengths exact in int64.
    if (pos != t.size() || v > kMaxRowCount || v < -kMaxRowCount) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

std::optional<double> real_cell(const std::string& s) {
  const std::string t = trim(s);
  if (t.empty()) return std::nullopt;
  std::size_t pos = 0;
  try {
    const double v = std::stod(t, &pos);
    if (pos != t.size() || !std::isfinite(v)) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

std::string num_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// ---- units -----------------------------------------------------------------------------

std::optional<double> time_unit_scale(const std::string& unit) {
  const std::string u = lower(trim(unit));
  if (u == "s" || u == "sec" || u == "seconds") return 1.0;
  if (u == "ms") return 1e3;
  if (u == "us" || u == "µs" || u == "\xc2\xb5s") return 1e6;
  if (u == "ns") return 1e9;
  return std::nullopt;
}

std::optional<double> bandwidth_unit_scale(const std::string& unit) {
  const std::string u = lower(trim(unit));
  if (u == "b/s") return 1.0;
  if (u == "mb/s") return 1e-6;
  if (u == "gb/s") return 1e-9;
  if (u == "tb/s") return 1e-12;
  return std::nullopt;
}

// ---- dtype -----------------------------------------------------------------------------

std::optional<DTypes> dtypes_from_precision(const std::string& precision, std::string& why) {
  const std::string p = lower(trim(precision));
  DTypes d;
  if (p.empty()) {
    why = "precision not stated";
    return std::nullopt;
  }
  auto all = [&](DType t) {
    d.weights = d.kv = d.activations = t;
    return d;
  };
  if (p == "fp16" || p == "float16" || p == "half") return all(DType::fp16);
  if (p == "bf16" || p == "bfloat16") return all(DType::bf16);
  if (p == "fp32" || p == "float32") return all(DType::fp32);
  if (p == "fp8")
    return all(DType::fp8);  // weights, KV and activations in fp8 (TensorRT-LLM --enable_fp8 --fp8_kv_cache)
  if (p.find("int4") != std::string::npos || p.find("awq") != std::string::npos) {
    d = all(DType::fp16);
    d.weights = DType::int4;  // weight-only: activations and KV stay 16-bit
    return d;
  }
  if (p.find("int8") != std::string::npos) {
    if (p.find("weight") != std::string::npos) {
      d = all(DType::fp16);
      d.weights = DType::int8;
      return d;
    }
    return all(DType::int8);
  }
  why = "precision '" + precision + "' has no dtype mapping";
  return std::nullopt;
}

const AliasRule* first_match(const std::vector<AliasRule>& rules, const std::string& value,
                             const std::string& locator = "") {
  for (const AliasRule& r : rules)
    if (contains_ci(value, r.match) && contains_ci(locator, r.locator)) return &r;
  return nullptr;
}

bool unmapped(RowPlan& p, std::string reason) {
  p.mapped = false;
  p.reason = std::move(reason);
  return false;
}

// A hand scanner (no std::regex: its backtracking recursion overflows the stack on a long
// cell). `at` is advanced past what was read.
bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

void skip_spaces(const std::string& s, std::size_t& at) {
  while (at < s.size() && is_space(s[at])) ++at;
}

// `\d+` as a double; at most 15 digits (exact in a double), else no match.
bool digits(const std::string& s, std::size_t& at, double& v) {
  const std::size_t start = at;
  v = 0;
  while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at]))) {
    if (at - start >= 15) return false;
    v = v * 10 + (s[at] - '0');
    ++at;
  }
  return at > start;
}

// `NAME\s*=\s*(\d+)` at `at`.
bool assignment(const std::string& s, std::size_t& at, const char* name, double& v) {
  const std::size_t n = std::strlen(name);
  if (s.compare(at, n, name) != 0) return false;
  at += n;
  skip_spaces(s, at);
  if (at >= s.size() || s[at] != '=') return false;
  ++at;
  skip_spaces(s, at);
  return digits(s, at, v);
}

// `\s*[, ]\s*`: blanks with one comma, or blanks containing a space.
bool separator(const std::string& s, std::size_t& at) {
  int commas = 0;
  bool space = false;
  while (at < s.size() && (is_space(s[at]) || s[at] == ',')) {
    if (s[at] == ',') {
      if (++commas > 1) return false;
    } else if (s[at] == ' ') {
      space = true;
    }
    ++at;
  }
  return commas == 1 || space;
}

// GEMM shape "M=64 K=12288 N=12288" or "M=1,K=8192,N=10240" in the model column or the notes
// (the leftmost match, as `M\s*=\s*(\d+)\s*[, ]\s*K\s*=\s*(\d+)\s*[, ]\s*N\s*=\s*(\d+)` would find).
bool gemm_shape(const DataRow& row, double& m, double& k, double& n) {
  for (const std::string* s : {&row.model, &row.notes}) {
    for (std::size_t start = s->find('M'); start != std::string::npos; start = s->find('M', start + 1)) {
      std::size_t at = start;
      double a = 0, b = 0, c = 0;
      if (assignment(*s, at, "M", a) && separator(*s, at) && assignment(*s, at, "K", b) &&
          separator(*s, at) && assignment(*s, at, "N", c)) {
        m = a;
        k = b;
        n = c;
        return true;
      }
    }
  }
  return false;
}

// "copy bytes = N" in the notes (the leftmost).
bool copy_bytes(const DataRow& row, double& bytes) {
  const std::string& s = row.notes;
  for (std::size_t start = s.find("copy bytes"); start != std::string::npos;
       start = s.find("copy bytes", start + 1)) {
    std::size_t at = start;
    if (assignment(s, at, "copy bytes", bytes)) return true;
  }
  return false;
}

bool map_machine(const DataRow& row, const Aliases& aliases, const std::string& root, RowPlan& p) {
  const AliasRule* r = first_match(aliases.hardware, row.hardware);
  if (!r) return unmapped(p, "hardware '" + row.hardware + "' has no alias (" + aliases.file + ")");
  if (!r->unmapped.empty()) return unmapped(p, r->unmapped);
  p.machine_file = (fs::path(root) / "machines" / (r->target + ".yaml")).string();
  if (!fs::exists(p.machine_file)) return unmapped(p, "machine file " + p.machine_file + " not found");
  return true;
}

bool map_model(const DataRow& row, const Aliases& aliases, const std::string& root, RowPlan& p) {
  const AliasRule* r = first_match(aliases.models, row.model);
  if (!r) return unmapped(p, "model '" + row.model + "' has no alias (" + aliases.file + ")");
  if (!r->unmapped.empty()) return unmapped(p, r->unmapped);
  p.model_file = (fs::path(root) / "models" / (r->target + ".yaml")).string();
  if (!fs::exists(p.model_file)) return unmapped(p, "model file " + p.model_file + " not found");
  return true;
}

std::string map_framework(const DataRow& row, const Aliases& aliases) {
  for (const AliasRule& r : aliases.frameworks)
    if (contains_ci(row.software, r.match) && contains_ci(row.source_locator, r.locator)) return r.target;
  return "generic";
}

// Parallel configuration from n_devices, tp, pp, ep; dp = n_devices / (tp·pp).
bool map_config(const DataRow& row, RowPlan& p) {
  const auto nd = int_cell(row.n_devices);
  auto tp = int_cell(row.tp), pp = int_cell(row.pp), ep = int_cell(row.ep);
  const std::int64_t n = nd.value_or(1);
  if (!tp) {
    if (n == 1)
      tp = 1;
    else
      return unmapped(p, "tp not stated on " + std::to_string(n) + " devices (parallel mode unknown)");
  }
  if (!pp) pp = 1;
  if (!ep) ep = 1;
  if (*tp < 1 || *pp < 1 || *ep < 1 || n < 1) return unmapped(p, "non-positive device or parallelism count");
  if (n % (*tp * *pp) != 0)
    return unmapped(
        p, "n_devices=" + std::to_string(n) + " is not a multiple of tp*pp=" + std::to_string(*tp * *pp));
  p.n_devices = n;
  p.config.tp = static_cast<std::int32_t>(*tp);
  p.config.pp = static_cast<std::int32_t>(*pp);
  p.config.ep = static_cast<std::int32_t>(*ep);
  p.config.dp = static_cast<std::int32_t>(n / (*tp * *pp));
  return true;
}

// Collective rows (docs/accuracy.md "Collectives"): the machine through the alias table, the
// collective from the metric, the cells and the notes. Kernel microbenchmarks: no framework.
bool plan_collective(const DataRow& row, const Aliases& aliases, const std::string& root, RowPlan& p) {
  const std::string& m = row.metric;
  CollectivePlan& c = p.collective;
  p.measure = Measure::collective;
  p.framework = "none";
  const bool busbw = m == "collective_busbw:all_reduce";
  const bool moe = m == "collective_latency:ep_dispatch" || m == "collective_latency:ep_combine";
  if (!busbw && !moe)
    return unmapped(p, "collective metric '" + m +
                           "' is not predicted (collective_busbw:all_reduce, collective_latency:ep_dispatch, "
                           "collective_latency:ep_combine are)");
  const auto scale = busbw ? bandwidth_unit_scale(row.unit) : time_unit_scale(row.unit);
  if (!scale)
    return unmapped(p, "unit '" + row.unit + "' is not a " + (busbw ? "bandwidth" : "time") + " unit");
  p.to_unit = *scale;
  if (!map_machine(row, aliases, root, p)) return false;
  const auto nd = int_cell(row.n_devices);
  if (busbw) {
    if (!nd || *nd < 2) return unmapped(p, "n_devices not stated or < 2 (the all-reduce's ranks)");
    const auto bytes = notes_msg_bytes(row.notes);
    if (!bytes) return unmapped(p, "no msg_bytes=<int> at the start of the notes");
    const NcclAlgorithm a = notes_nccl_algorithm(row.notes);
    if (a.named && a.algorithms == 0)
      return unmapped(p, "NCCL_ALGO=" + a.name + " has no Tessera algorithm (NVLS, Ring, Tree are mapped)");
    c.kind = CommKind::all_reduce;
    c.ranks = *nd;
    c.bytes = *bytes;
    c.algorithms = a.algorithms;
    c.algorithm_note = a.named ? a.name : "";
    c.group = kGroupAllReduce;
    p.derived = Derived::busbw;
    p.n_devices = *nd;
  } else {
    const auto ep = int_cell(row.ep);
    if (!ep || *ep < 2) return unmapped(p, "ep not stated or < 2 (the all-to-all's ranks)");
    if (nd && *nd != *ep)
      return unmapped(p, "ep=" + std::to_string(*ep) + " differs from n_devices=" + std::to_string(*nd));
    const auto tokens = int_cell(row.batch);
    if (!tokens || *tokens < 1) return unmapped(p, "batch (tokens per rank) not stated");
    const auto bpe = payload_bytes_per_element(row.precision);
    if (!bpe) return unmapped(p, "precision '" + row.precision + "' names no payload format");
    if (!map_model(row, aliases, root, p)) return false;
    c.kind = CommKind::all_to_all;
    c.ranks = *ep;
    c.tokens = static_cast<double>(*tokens);
    c.payload_bytes = *bpe;
    c.stated_bytes_per_token = notes_bytes_per_token(row.notes).value_or(0);
    c.apart = contains_ci(row.notes, "hardware ambiguous");
    c.group = c.apart ? kGroupMoEAmbiguous : kGroupMoE;
    p.n_devices = *ep;
    p.batch = *tokens;
  }
  p.mapped = true;
  return true;
}

}  // namespace

// ---- public: rows ------------------------------------------------------------------------

bool is_latency_metric(const std::string& m) {
  return m == "ttft" || m == "e2e_latency" || m == "prefill_latency" || m == "tpot" || m == "tpot_p50" ||
         m == "kernel_latency" || m.rfind("op_latency:", 0) == 0;
}

std::string source_label(const std::string& source) {
  std::size_t cut = source.size();
  for (const char* sep : {":", " (", " '"}) cut = std::min(cut, source.find(sep));
  std::string s = trim(source.substr(0, cut));
  return s.empty() ? source : s;
}

// ---- public: aliases ---------------------------------------------------------------------

std::string default_aliases_path(const std::string& data_root) {
  return (fs::path(data_root) / "data" / "aliases.yaml").string();
}

Aliases load_aliases(const std::string& path) {
  Aliases a;
  a.file = path;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw InputError(path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                     ": error: " + e.msg);
  }
  auto where = [&](const YAML::Node& n) {
    return path + ":" + std::to_string(n.Mark().line + 1) + ":" + std::to_string(n.Mark().column + 1);
  };
  if (!root.IsMap() || !root["kind"] || root["kind"].as<std::string>() != "aliases")
    throw InputError(path + ": error: expected `kind: aliases` (an alias table, see docs/accuracy.md)");
  auto read = [&](const char* section, const char* match_key, const char* target_key,
                  std::vector<AliasRule>& out) {
    const YAML::Node list = root[section];
    if (!list) return;
    if (!list.IsSequence())
      throw InputError(where(list) + ": error: `" + std::string(section) + "` must be a list");
    for (const YAML::Node& item : list) {
      if (!item.IsMap() || !item[match_key])
        throw InputError(where(item) + ": error: each `" + section + "` entry needs `" + match_key + ":`");
      AliasRule r;
      r.match = item[match_key].as<std::string>();
      if (item["locator"]) r.locator = item["locator"].as<std::string>();
      if (item["unmapped"]) {
        r.unmapped = item["unmapped"].as<std::string>();
      } else if (item[target_key]) {
        r.target = item[target_key].as<std::string>();
      } else {
        throw InputError(where(item) + ": error: `" + section + "` entry '" + r.match + "' needs `" +
                         target_key + ":` or `unmapped:`");
      }
      out.push_back(std::move(r));
    }
  };
  try {
    read("models", "match", "model", a.models);
    read("hardware", "match", "machine", a.hardware);
    read("frameworks", "software", "framework", a.frameworks);
  } catch (const YAML::Exception& e) {
    throw InputError(path + ": error: " + e.msg);
  }
  return a;
}

// ---- public: plans -----------------------------------------------------------------------

RowPlan plan_row(const DataRow& row, const Aliases& aliases, const std::string& root) {
  RowPlan p;
  const std::string& m = row.metric;
  const auto value = real_cell(row.value);
  if (!value || *value <= 0) {
    unmapped(p, "value '" + trim(row.value) + "' is not a positive number");
    return p;
  }
  p.measured = *value;

  if (is_collective_metric(m)) {
    plan_collective(row, aliases, root, p);
    return p;
  }

  // What is predicted, and in which unit.
  const bool is_time_metric = is_latency_metric(m) || m == "ms_per_token_amortized";
  if (is_time_metric) {
    const auto scale = time_unit_scale(row.unit);
    if (!scale) {
      unmapped(p, "unit '" + row.unit + "' is not a time unit");
      return p;
    }
    p.to_unit = *scale;
  }
  if (m == "ttft" || m == "prefill_latency") {
    p.measure = Measure::prefill;
  } else if (m == "tpot" || m == "tpot_p50") {
    p.measure = Measure::decode_step;
  } else if (m == "e2e_latency") {
    p.measure = Measure::request;
  } else if (m == "throughput_out" || m == "throughput_out_per_gpu" || m == "request_throughput") {
    p.measure = Measure::request;
    p.derived = m == "throughput_out"       ? Derived::tokens_per_s
                : m == "request_throughput" ? Derived::requests_per_s
                                            : Derived::tokens_per_s_per_pe;
    const std::string u = lower(row.unit);
    const bool ok = (p.derived == Derived::requests_per_s) ? u == "req/s" : u.rfind("tok/s", 0) == 0;
    if (!ok) {
      unmapped(p, "unit '" + row.unit + "' does not match metric " + m);
      return p;
    }
  } else if (m == "ms_per_token_amortized") {
    p.measure = Measure::request;
    p.derived = Derived::time_per_token;
  } else if (m == "kernel_latency") {
    if (gemm_shape(row, p.gemm_m, p.gemm_k, p.gemm_n)) {
      p.measure = Measure::gemm;
    } else if (copy_bytes(row, p.copy_bytes)) {
      p.measure = Measure::copy;
    } else {
      unmapped(p, "kernel_latency without a GEMM shape (M=,K=,N=) or copy size in the model column or notes");
      return p;
    }
  } else if (m.rfind("op_latency:", 0) == 0) {
    static const std::map<std::string, std::pair<const char*, double>> kOps = {
        {"Q_K_V", {"attn.qkv", 1.0}},      {"Q_mul_K", {"attn.core", 0.5}},
        {"A_mul_V", {"attn.core", 0.5}},   {"attention_decode", {"attn.core", 1.0}},
        {"attention", {"attn.core", 1.0}}, {"Wo_proj", {"attn.out", 1.0}},
        {"W1_proj", {"ffn.up", 1.0}},      {"W2_proj", {"ffn.down", 1.0}},
    };
    const std::string op = m.substr(11);
    const auto it = kOps.find(op);
    if (it == kOps.end()) {
      unmapped(p, "operator '" + op + "' has no Tessera stage");
      return p;
    }
    p.measure = Measure::op_stage;
    p.stage = it->second.first;
    p.stage_fraction = it->second.second;
  } else {
    unmapped(p, "metric '" + m +
                    "' is not predicted by validate-data (latency, throughput with a known batch, "
                    "ms_per_token_amortized)");
    return p;
  }

  if (!map_machine(row, aliases, root, p)) return p;
  std::string why;
  const auto dt = dtypes_from_precision(row.precision, why);
  if (!dt) {
    unmapped(p, why);
    return p;
  }
  p.dtype = *dt;
  p.framework = map_framework(row, aliases);
  if (p.measure == Measure::gemm || p.measure == Measure::copy) {
    p.mapped = true;
    return p;
  }
  if (!map_model(row, aliases, root, p)) return p;
  if (!map_config(row, p)) return p;

  const auto batch = int_cell(row.batch);
  if (!batch || *batch < 1) {
    unmapped(p, "batch not stated");
    return p;
  }
  if (*batch % p.config.dp != 0) {
    unmapped(p, "batch " + std::to_string(*batch) + " does not split over dp=" + std::to_string(p.config.dp));
    return p;
  }
  p.batch = *batch / p.config.dp;
  const auto in = int_cell(row.input_len);
  const auto out = int_cell(row.output_len);
  if (!in || *in < 1) {
    unmapped(p, "input_len not stated");
    return p;
  }
  p.input = *in;
  if (p.measure == Measure::op_stage) {
    // output_len 0: the prefill of input_len tokens; 1: a decode step with input_len cached.
    if (!out || *out > 1) {
      unmapped(p, "op_latency row with output_len not 0 (prefill) or 1 (decode step)");
      return p;
    }
    p.stage_decode = *out == 1;
    p.output = *out;
  } else if (p.measure != Measure::prefill) {
    if (!out || *out < 1) {
      unmapped(p, "output_len not stated");
      return p;
    }
    p.output = *out;
  } else {
    p.output = out.value_or(0);
  }
  p.mapped = true;
  return p;
}

namespace {

PreparedFiles::Machine read_machine(const std::string& file) {
  PreparedFiles::Machine m;
  m.spec = load_machine_file(file);
  // The raw `efficiency:` block, validated later against the chosen latency plugin.
  try {
    const YAML::Node root = YAML::LoadFile(file);
    if (const YAML::Node ef = root["efficiency"]; ef && ef.IsMap()) {
      for (const auto& kv : ef) {
        RawParam p;
        p.key = kv.first.as<std::string>();
        p.where = SourceLocation{file, kv.second.Mark().line + 1, kv.second.Mark().column + 1};
        if (kv.second.IsSequence()) {
          p.is_list = true;
          for (const auto& item : kv.second) {
            p.items.push_back(item.as<std::string>());
            p.text += (p.text.empty() ? "" : ",") + p.items.back();
          }
        } else {
          p.text = kv.second.as<std::string>();
        }
        m.efficiency_raw.push_back(std::move(p));
      }
    }
  } catch (const YAML::Exception& e) {
    throw InputError(file + ": error: " + e.msg);
  }
  return m;
}

}  // namespace

namespace {

// A model of one layer of width 1: what a kernel or collective row's evaluation context needs.
ModelSpec kernel_model() {
  ModelSpec m;
  m.name = "kernel";
  m.layers = 1;
  m.hidden = m.heads = m.kv_heads = m.head_dim = 1;
  m.ffn = m.vocab = 1;
  return m;
}

// The collective's bytes (all-to-all: from the model), the group on the first level, and the
// algorithms the notes force. Throws Error with the reason a row cannot be predicted.
void prepare_collective(PreparedRow& r, PreparedFiles& files) {
  CollectivePlan& c = r.plan.collective;
  const LevelSpec& lv = r.machine.levels.front();
  if (c.ranks > lv.fanout)
    throw Error("group of " + std::to_string(c.ranks) + " ranks spans more than the first level '" + lv.name +
                "' (fanout " + std::to_string(lv.fanout) + "): only single-level collective rows are mapped");
  r.model = kernel_model();
  if (c.kind == CommKind::all_to_all) {
    auto model = files.models.find(r.plan.model_file);
    if (model == files.models.end())
      model = files.models.emplace(r.plan.model_file, load_model_file(r.plan.model_file)).first;
    const ModelSpec& ms = model->second;
    if (!ms.has_moe || ms.moe.top_k < 1)
      throw Error("model " + r.plan.model_file + " has no experts: no MoE dispatch to predict");
    const double per_token = static_cast<double>(ms.hidden) * c.payload_bytes;
    if (c.stated_bytes_per_token > 0 && std::abs(per_token - c.stated_bytes_per_token) > 0.5)
      throw Error("notes state " + num_text(c.stated_bytes_per_token) + " bytes/token; hidden " +
                  std::to_string(ms.hidden) + " x " + num_text(c.payload_bytes) + " B gives " +
                  num_text(per_token));
    c.bytes = moe_bytes_per_rank(c.tokens, c.ranks, ms.moe.top_k, ms.hidden, c.payload_bytes);
  }
  if (c.algorithms != 0) {
    LevelCollectives& lc = r.machine.levels.front().collectives;
    if ((c.algorithms >> static_cast<unsigned>(CollAlgorithm::in_network) & 1u) && !lc.in_network)
      throw Error("NCCL_ALGO=" + c.algorithm_note + " but level '" + lv.name + "' of " + r.plan.machine_file +
                  " has no in-network reduction");
    lc.algorithms = c.algorithms;
  }
}

}  // namespace

PreparedRow prepare_row(const DataRow& row, const RowPlan& plan) {
  PreparedFiles once;
  return prepare_row(row, plan, once);
}

PreparedRow prepare_row(const DataRow& row, const RowPlan& plan, PreparedFiles& files) {
  PreparedRow r;
  r.row = &row;
  r.plan = plan;
  auto mach = files.machines.find(plan.machine_file);
  if (mach == files.machines.end())
    mach = files.machines.emplace(plan.machine_file, read_machine(plan.machine_file)).first;
  r.machine = mach->second.spec;
  r.efficiency_raw = mach->second.efficiency_raw;
  // A format the PE lacks runs at the next wider one; fp16 rows on a bf16-only PE use bf16.
  DTypes dt = plan.dtype;
  for (DType* t : {&dt.weights, &dt.kv, &dt.activations})
    if (*t == DType::fp16 && r.machine.pe.flops[static_cast<std::size_t>(DType::fp16)] <= 0) *t = DType::bf16;
  r.plan.dtype = dt;
  if (plan.measure == Measure::collective) {
    prepare_collective(r, files);
    return r;
  }
  if (plan.measure == Measure::gemm || plan.measure == Measure::copy) {
    r.model.name = "kernel";
    r.model.layers = 1;
    r.model.hidden = r.model.heads = r.model.kv_heads = r.model.head_dim = 1;
    r.model.ffn = r.model.vocab = 1;
  } else {
    auto model = files.models.find(plan.model_file);
    if (model == files.models.end())
      model = files.models.emplace(plan.model_file, load_model_file(plan.model_file)).first;
    r.model = model->second;
  }
  r.model.dtype = dt;
  return r;
}

namespace {

// One stage timed alone (an operator measured on its own): the stage's share plus what the
// model adds to a step of that one stage (launch exposure).
double single_stage_time(const EvalContext& ctx, const LatencyModel& lat, const StageWork& w,
                         double fraction) {
  StepWork one;
  StageWork& s = one.push();
  s = w;
  s.count = 1;
  one.tokens = 0;
  StageList out;
  lat.time_step(ctx, one, out);
  double t = 0;
  for (int i = 0; i < out.size; ++i) {
    const Stage& st = out.items[static_cast<std::size_t>(i)];
    t += (i == 0 ? fraction : 1.0) * st.count * st.visible_s;
  }
  return t;
}

struct PointEvaluator {
  const PreparedRow& row;
  const std::shared_ptr<const LatencyModel>& latency;
  const std::shared_ptr<const MemoryModel>& memory;
  MachineSpec machine;

  double run(Mode mode, std::int64_t context, Evaluation& e) const {
    Workload w;
    w.mode = mode;
    w.context = context;
    w.batch = row.plan.batch;
    w.chunk = mode == Mode::prefill ? context : 0;
    const EvalContext ctx = make_eval_context(row.model, machine, w);
    Evaluator ev(ctx, latency, memory, {});
    ev.evaluate(row.plan.config, e);
    if (!e.valid)
      throw Error("configuration " + format_config(row.plan.config, machine) +
                  " is not valid: " + describe_invalid(e.layout.reason, row.model, machine, row.plan.config));
    return e.totals.latency_s;
  }

  double op_stage(Evaluation& e) const {
    const RowPlan& p = row.plan;
    run(p.stage_decode ? Mode::decode : Mode::prefill, p.input, e);
    // Timed alone, the stage is a step of its own (one launch, measured to completion): a
    // decode-mode context, whose steps always carry the latency model's step stage.
    Workload w;
    w.mode = Mode::decode;
    w.context = p.input;
    w.batch = p.batch;
    const EvalContext ctx = make_eval_context(row.model, machine, w);
    for (int i = 0; i < e.work.size; ++i) {
      const StageWork& s = e.work.stages[static_cast<std::size_t>(i)];
      if (p.stage == s.name) return single_stage_time(ctx, *latency, s, p.stage_fraction);
    }
    throw Error("stage " + p.stage + " not in the step");
  }

  double kernel() const {
    const RowPlan& p = row.plan;
    Workload w;
    w.mode = Mode::decode;
    w.context = 1;
    const EvalContext ctx = make_eval_context(row.model, machine, w);
    StageWork s;
    s.name = p.measure == Measure::gemm ? "gemm" : "copy";
    s.block = StageBlock::ffn;
    s.count = 1;
    s.kernels = 1;
    if (p.measure == Measure::gemm) {
      s.flops = s.accounted_flops = 2 * p.gemm_m * p.gemm_n * p.gemm_k;
      s.hbm_bytes = s.accounted_hbm_bytes =
          (p.gemm_m * p.gemm_k + p.gemm_k * p.gemm_n + p.gemm_m * p.gemm_n) * ctx.act_bytes;
      s.gemm = {p.gemm_m, p.gemm_n, p.gemm_k};
    } else {
      s.hbm_bytes = s.accounted_hbm_bytes = 2 * p.copy_bytes;  // read once, write once
    }
    return single_stage_time(ctx, *latency, s, 1.0);
  }

  // One collective call timed alone: a stage with the collective only, through the latency
  // model (its CommRates apply), no framework cost (the rows' framework is `none`).
  double collective(CollectiveDetail* detail) const {
    const CollectivePlan& c = row.plan.collective;
    Workload w;
    w.mode = Mode::decode;
    w.context = 1;
    const EvalContext ctx = make_eval_context(row.model, machine, w);
    StepWork one;
    StageWork& s = one.push();
    s.name = "collective";
    s.block = StageBlock::ffn;
    s.count = 1;
    s.kernels = 1;
    Collective& coll = s.comms[0];
    coll.kind = c.kind;
    coll.ranks = static_cast<std::int32_t>(c.ranks);
    coll.bytes = c.bytes;
    coll.link = first_level_group(machine, c.ranks);
    s.comm_count = 1;
    one.tokens = 0;
    StageList out;
    latency->time_step(ctx, one, out);
    double t = 0;
    for (int i = 0; i < out.size; ++i) {
      const Stage& st = out.items[static_cast<std::size_t>(i)];
      t += st.count * st.visible_s;
    }
    if (out.size < 1 || !out.items[0].has_comm_algorithm)
      throw Error("no collective algorithm applies on level '" + machine.levels.front().name + "'");
    const Stage& st = out.items[0];
    if (detail) {
      detail->seconds = t;
      detail->algorithm = st.comm_algorithm;
      detail->protocol = st.comm_protocol;
      detail->bw_efficiency = st.comm_bw_efficiency;
      detail->extra_latency_s = st.comm_extra_latency;
    }
    return t;
  }

  // Prefill + decode steps at contexts S .. S+O-2 (exact up to 16 steps, else a 9-point
  // trapezoid: a step's time is piecewise linear in the context).
  double request(Evaluation& e) const {
    const RowPlan& p = row.plan;
    double t = run(Mode::prefill, p.input, e);
    const std::int64_t n = p.output - 1;
    if (n <= 0) return t;
    if (n <= 16) {
      for (std::int64_t i = 0; i < n; ++i) t += run(Mode::decode, p.input + i, e);
      return t;
    }
    // Steps i = 0..n-1: sum f(i) = integral of f over [0, n-1] + (f(0) + f(n-1))/2, exact for
    // a linear f (Euler-Maclaurin); the integral by the trapezoid rule on 9 points.
    const int k = 9;
    const double first = run(Mode::decode, p.input, e);
    double prev_x = 0, prev_y = first, area = 0;
    for (int j = 1; j < k; ++j) {
      const double x = static_cast<double>(n - 1) * j / (k - 1);
      const double y = run(Mode::decode, p.input + static_cast<std::int64_t>(std::llround(x)), e);
      area += (x - prev_x) * (prev_y + y) / 2;
      prev_x = x;
      prev_y = y;
    }
    return t + area + (first + prev_y) / 2;
  }
};

}  // namespace

double predict_row(const PreparedRow& row, const std::shared_ptr<const LatencyModel>& latency,
                   const ParamSet& efficiency, const std::shared_ptr<const MemoryModel>& memory,
                   CollectiveDetail* detail) {
  PointEvaluator pe{row, latency, memory, row.machine};
  pe.machine.efficiency = efficiency;
  const RowPlan& p = row.plan;
  Evaluation e;
  double si = 0;
  switch (p.measure) {
    case Measure::prefill:
      si = pe.run(Mode::prefill, p.input, e);
      break;
    case Measure::decode_step:
      si = pe.run(Mode::decode, p.input + p.output / 2, e);
      break;
    case Measure::op_stage:
      si = pe.op_stage(e);
      break;
    case Measure::gemm:
    case Measure::copy:
      si = pe.kernel();
      break;
    case Measure::collective:
      si = pe.collective(detail);
      if (p.derived == Derived::busbw) si = all_reduce_busbw(p.collective.bytes, si, p.collective.ranks);
      break;
    case Measure::request: {
      const double e2e = pe.request(e);
      const double seqs = static_cast<double>(p.batch) * p.config.dp;
      switch (p.derived) {
        case Derived::time:
          si = e2e;
          break;
        case Derived::tokens_per_s:
          return seqs * static_cast<double>(p.output) / e2e;
        case Derived::tokens_per_s_per_pe:
          return seqs * static_cast<double>(p.output) / e2e / static_cast<double>(p.n_devices);
        case Derived::requests_per_s:
          return seqs / e2e;
        case Derived::time_per_token:
          si = e2e / (static_cast<double>(p.batch) * static_cast<double>(p.output));
          break;
        case Derived::busbw:
          break;
      }
      break;
    }
  }
  return si * p.to_unit;
}

// ---- public: reports -------------------------------------------------------------------------

ErrorStats error_stats(const std::vector<double>& apes) {
  ErrorStats s;
  s.n = apes.size();
  if (apes.empty()) return s;
  std::vector<double> v = apes;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  s.median_ape = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  double sum = 0;
  for (double x : v) sum += x;
  s.mean_ape = sum / static_cast<double>(n);
  return s;
}

namespace {
// Progress and cancellation every 64 rows.
void row_progress(const ProgressCallback& cb, std::size_t done, std::size_t total, const char* phase) {
  if (done % 64 != 0) return;
  throw_if_cancelled();
  report_progress(cb, done, total, phase);
}
}  // namespace

std::vector<ModelReport> validate_data(const std::vector<DataRow>& rows, const PluginRegistry& registry,
                                       const ValidateOptions& options) {
  const std::string root = options.data_root.empty() ? std::string(".") : options.data_root;
  const Aliases aliases =
      load_aliases(options.aliases.empty() ? default_aliases_path(root) : options.aliases);

  // Plan and load every row once.
  std::vector<RowPlan> plans;
  std::vector<std::optional<PreparedRow>> prepared;
  PreparedFiles files;
  for (const DataRow& r : rows) {
    row_progress(options.on_progress, plans.size(), rows.size(), "rows prepared");
    plans.push_back(plan_row(r, aliases, root));
    prepared.emplace_back();
    if (options.latency_only && !is_latency_metric(r.metric)) continue;
    if (plans.back().mapped) {
      try {
        prepared.back() = prepare_row(r, plans.back(), files);
        // The raw efficiency block is kept once per machine file (in `files`), not per row.
        std::vector<RawParam>().swap(prepared.back()->efficiency_raw);
      } catch (const Error& e) {
        plans.back().mapped = false;
        plans.back().reason = e.what();
      }
    }
  }

  PluginChoice memory_choice;
  memory_choice.name = "standard";
  const std::shared_ptr<const MemoryModel> memory = registry.create_memory(memory_choice);

  std::vector<ModelReport> reports;
  for (const std::string& name : options.latency) {
    const LoadedPlugin& plugin =
        registry.require(PluginKind::latency, name, SourceLocation{"--latency", 0, 0});
    bool has_framework = false;
    for (std::uint32_t i = 0; i < plugin.descriptor->param_count; ++i)
      if (std::string(plugin.descriptor->params[i].name) == "framework") has_framework = true;
    std::map<std::string, std::shared_ptr<const LatencyModel>> by_framework;
    std::map<std::string, ParamSet> efficiency_by_machine;

    ModelReport rep;
    rep.latency = name;
    std::map<std::string, std::vector<double>> apes_by_source;
    std::vector<std::string> source_order;
    std::vector<double> all;
    std::map<std::string, std::vector<double>> apes_by_group;
    std::vector<std::string> group_order;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      row_progress(options.on_progress, reports.size() * rows.size() + i,
                   options.latency.size() * rows.size(), "rows predicted");
      const DataRow& r = rows[i];
      if (options.latency_only && !is_latency_metric(r.metric)) continue;
      const RowPlan& p = plans[i];
      if (!p.mapped || !prepared[i]) {
        rep.unmapped.push_back({r.id, r.source, r.metric, p.reason});
        continue;
      }
      const std::string fw = has_framework ? p.framework : "";
      auto& lat = by_framework[fw];
      if (!lat) {
        PluginChoice c;
        c.name = name;
        if (has_framework) {
          RawParam fp;
          fp.key = "framework";
          fp.text = fw;
          fp.where = SourceLocation{aliases.file, 0, 0};
          c.params.push_back(fp);
        }
        lat = registry.create_latency(c);
      }
      auto eff = efficiency_by_machine.find(p.machine_file);
      if (eff == efficiency_by_machine.end())
        eff = efficiency_by_machine
                  .emplace(p.machine_file,
                           registry.machine_params(name, files.machines.at(p.machine_file).efficiency_raw,
                                                   p.machine_file))
                  .first;
      double predicted = 0;
      CollectiveDetail detail;
      try {
        predicted = predict_row(*prepared[i], lat, eff->second, memory, &detail);
      } catch (const Error& e) {
        rep.unmapped.push_back({r.id, r.source, r.metric, e.what()});
        continue;
      }
      RowResult res;
      res.id = r.id;
      res.source = r.source;
      res.metric = r.metric;
      res.unit = r.unit;
      res.framework = p.framework;
      res.measured = p.measured;
      res.predicted = predicted;
      res.ape = std::abs(predicted - p.measured) / p.measured;
      if (p.measure == Measure::collective) {
        res.is_collective = true;
        res.collective = prepared[i]->plan.collective;
        res.machine = fs::path(p.machine_file).stem().string();
        res.detail = detail;
        if (!apes_by_group.count(res.collective.group)) group_order.push_back(res.collective.group);
        apes_by_group[res.collective.group].push_back(res.ape);
      }
      if (!res.collective.apart) {  // rows whose hardware is ambiguous enter no median but their own
        if (!apes_by_source.count(r.source)) source_order.push_back(r.source);
        apes_by_source[r.source].push_back(res.ape);
        all.push_back(res.ape);
      }
      rep.rows.push_back(std::move(res));
    }
    rep.overall = error_stats(all);
    for (const std::string& s : source_order) rep.by_source.emplace_back(s, error_stats(apes_by_source[s]));
    for (const std::string& g : group_order) rep.by_group.emplace_back(g, error_stats(apes_by_group[g]));
    reports.push_back(std::move(rep));
  }
  return reports;
}

namespace {
std::string pct(double f) { return fixed(100 * f, 1) + " %"; }
std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}
std::string clip(const std::string& s, std::size_t n) { return s.size() <= n ? s : s.substr(0, n - 1) + "~"; }

// 1 KiB = 1024 B, as nccl-tests labels sizes.
std::string human_bytes(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  return num(b) + " " + units[u];
}

std::string human_time(double s) {
  if (s >= 1) return num(s) + " s";
  if (s >= 1e-3) return num(s * 1e3) + " ms";
  return num(s * 1e6) + " us";
}

std::string algorithm_label(const CollectiveDetail& d) {
  std::string a = coll_algorithm_name(d.algorithm);
  if (d.protocol != Protocol::none) a += std::string("/") + protocol_name(d.protocol);
  return a;
}

// The measured time of a collective row (s): the row's time, or for busbw the time that
// bandwidth implies (t = M / algbw, algbw = busbw · n / (2(n-1))).
double measured_seconds(const RowResult& r) {
  if (r.predicted <= 0 || r.measured <= 0) return 0;
  // busbw is inversely proportional to the time, a latency proportional.
  return r.collective.kind == CommKind::all_reduce ? r.detail.seconds * r.predicted / r.measured
                                                   : r.detail.seconds * r.measured / r.predicted;
}

void print_collectives(std::ostream& os, const ModelReport& rep, bool show_rows) {
  bool any = false;
  for (const RowResult& r : rep.rows) any = any || r.is_collective;
  if (!any) return;
  if (show_rows) {
    os << "collective rows (M per rank; t = the predicted time of one call; busbw = M/t * 2(n-1)/n):\n";
    TextTable t(
        {"id", "machine", "collective", "n", "M", "algorithm", "t", "measured", "predicted", "unit", "APE",
         "group"},
        {TextTable::Align::right, TextTable::Align::left, TextTable::Align::left, TextTable::Align::right,
         TextTable::Align::right, TextTable::Align::left, TextTable::Align::right, TextTable::Align::right,
         TextTable::Align::right, TextTable::Align::left, TextTable::Align::right, TextTable::Align::left});
    for (const RowResult& r : rep.rows) {
      if (!r.is_collective) continue;
      const std::string kind = r.metric.substr(r.metric.find(':') + 1);
      t.add_row(
          {r.id, r.machine, kind, std::to_string(r.collective.ranks), human_bytes(r.collective.bytes),
           algorithm_label(r.detail), human_time(r.detail.seconds), num(r.measured), num(r.predicted), r.unit,
           pct(r.ape),
           r.collective.apart ? "apart" : (r.collective.kind == CommKind::all_reduce ? "busbw" : "moe")});
    }
    t.print(os);
    os << "\n";
  }
  TextTable g(
      {"collective group", "n", "median APE", "mean APE"},
      {TextTable::Align::left, TextTable::Align::right, TextTable::Align::right, TextTable::Align::right});
  for (const auto& [name, st] : rep.by_group)
    g.add_row({name == kGroupMoEAmbiguous ? name + std::string(" (apart)") : name, std::to_string(st.n),
               pct(st.median_ape), pct(st.mean_ape)});
  g.print(os);
  os << "\n";
}
}  // namespace

void print_reports(std::ostream& os, const std::vector<ModelReport>& reports, bool show_rows) {
  for (const ModelReport& rep : reports) {
    os << "== latency model: " << rep.latency << " ==\n";
    if (show_rows) {
      TextTable t({"id", "source", "metric", "framework", "measured", "predicted", "unit", "APE"},
                  {TextTable::Align::right, TextTable::Align::left, TextTable::Align::left,
                   TextTable::Align::left, TextTable::Align::right, TextTable::Align::right,
                   TextTable::Align::left, TextTable::Align::right});
      for (const RowResult& r : rep.rows)
        t.add_row({r.id, clip(source_label(r.source), 26), r.metric, r.framework, num(r.measured),
                   num(r.predicted), r.unit, pct(r.ape)});
      t.print(os);
      os << "\n";
    }
    print_collectives(os, rep, show_rows);
    TextTable s(
        {"source", "n", "median APE", "mean APE"},
        {TextTable::Align::left, TextTable::Align::right, TextTable::Align::right, TextTable::Align::right});
    for (const auto& [src, st] : rep.by_source)
      s.add_row({clip(source_label(src), 40), std::to_string(st.n), pct(st.median_ape), pct(st.mean_ape)});
    s.add_separator();
    s.add_row(
        {"overall", std::to_string(rep.overall.n), pct(rep.overall.median_ape), pct(rep.overall.mean_ape)});
    s.print(os);
    if (!rep.unmapped.empty()) {
      os << "\nunmapped rows (" << rep.unmapped.size() << "):\n";
      TextTable u({"id", "metric", "reason"},
                  {TextTable::Align::right, TextTable::Align::left, TextTable::Align::left});
      for (const UnmappedRow& r : rep.unmapped) u.add_row({r.id, r.metric, r.reason});
      u.print(os, "  ");
    }
    const std::size_t total = rep.rows.size() + rep.unmapped.size();
    os << "\nmapped " << rep.rows.size() << " of " << total << " rows\n\n";
  }
}

namespace {
nlohmann::json report_json(const ModelReport& rep) {
  nlohmann::json j;
  j["latency"] = rep.latency;
  j["rows"] = nlohmann::json::array();
  for (const RowResult& r : rep.rows) {
    nlohmann::json row = {{"id", r.id},
                          {"source", r.source},
                          {"metric", r.metric},
                          {"unit", r.unit},
                          {"framework", r.framework},
                          {"measured", r.measured},
                          {"predicted", r.predicted},
                          {"ape", r.ape}};
    if (r.is_collective) {
      const CollectivePlan& c = r.collective;
      row["collective"] = {{"kind", comm_kind_name(c.kind)},
                           {"ranks", c.ranks},
                           {"bytes_per_rank_B", c.bytes},
                           {"machine", r.machine},
                           {"notes_algorithm", c.algorithm_note},
                           {"algorithm", coll_algorithm_name(r.detail.algorithm)},
                           {"protocol", protocol_name(r.detail.protocol)},
                           {"predicted_time_s", r.detail.seconds},
                           {"measured_time_s", measured_seconds(r)},
                           {"bw_efficiency", r.detail.bw_efficiency},
                           {"extra_latency_s", r.detail.extra_latency_s},
                           {"group", c.group},
                           {"apart", c.apart}};
      if (c.kind == CommKind::all_to_all) {
        row["collective"]["tokens_per_rank"] = c.tokens;
        row["collective"]["payload_B_per_element"] = c.payload_bytes;
      }
    }
    j["rows"].push_back(std::move(row));
  }
  j["unmapped"] = nlohmann::json::array();
  for (const UnmappedRow& r : rep.unmapped)
    j["unmapped"].push_back({{"id", r.id}, {"source", r.source}, {"metric", r.metric}, {"reason", r.reason}});
  nlohmann::json by = nlohmann::json::object();
  for (const auto& [src, st] : rep.by_source)
    by[src] = {
        {"label", source_label(src)}, {"n", st.n}, {"median_ape", st.median_ape}, {"mean_ape", st.mean_ape}};
  nlohmann::json groups = nlohmann::json::object();
  for (const auto& [g, st] : rep.by_group)
    groups[g] = {{"n", st.n}, {"median_ape", st.median_ape}, {"mean_ape", st.mean_ape}};
  j["summary"] = {
      {"by_collective_group", groups},
      {"overall",
       {{"n", rep.overall.n}, {"median_ape", rep.overall.median_ape}, {"mean_ape", rep.overall.mean_ape}}},
      {"by_source", by},
      {"mapped", rep.rows.size()},
      {"unmapped", rep.unmapped.size()}};
  return j;
}
}  // namespace

std::string reports_json(const std::vector<ModelReport>& reports) {
  if (reports.size() == 1) {
    nlohmann::json one = report_json(reports[0]);
    one["version"] = kVersion;
    return one.dump(2) + "\n";
  }
  nlohmann::json j;
  j["version"] = kVersion;
  j["models"] = nlohmann::json::array();
  for (const ModelReport& r : reports) j["models"].push_back(report_json(r));
  return j.dump(2) + "\n";
}

}  // namespace tessera::validation
