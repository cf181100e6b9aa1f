// `tessera validate-data`: a measured row -> its RowPlan. The mapping rules are written down
// in docs/accuracy.md ("How a row is mapped").
#include "analysis/row_plan.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>

#include "analysis/collective_rows.hpp"

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

// The version the software column gives the framework: the first "vN[.N...]" or "N.N[...]"
// token ("TensorRT-LLM v0.7a" -> "0.7a", "lmdeploy v0.1.0a1" -> "0.1.0a1"), "main" for a build of
// the main branch, "" when none ("version not stated"). Numbers of other software in the
// column are skipped by the word in front of them (CUDA 12.6, TensorRT 10.1.0, NCCL 2.18.5,
// driver 560, NVCC 12.8).
bool other_software_before(const std::string& s, std::size_t i) {
  std::size_t e = i;
  while (e > 0 && s[e - 1] == ' ') --e;
  std::size_t b = e;
  while (b > 0 && std::isalnum(static_cast<unsigned char>(s[b - 1]))) --b;
  const std::string w = s.substr(b, e - b);
  for (const char* o : {"CUDA", "TensorRT", "NCCL", "driver", "NVCC", "cuDNN"})
    if (w == o) return true;
  return false;
}

std::string framework_version(const std::string& software) {
  const std::string& s = software;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const bool word_start = i == 0 || !std::isalnum(static_cast<unsigned char>(s[i - 1]));
    if (!word_start) continue;
    std::size_t j = i;
    if (s[j] == 'v' || s[j] == 'V') ++j;
    if (j >= s.size() || !std::isdigit(static_cast<unsigned char>(s[j]))) {
      if (s.compare(i, 4, "main") == 0 &&
          (i + 4 == s.size() || !std::isalnum(static_cast<unsigned char>(s[i + 4]))))
        return "main";
      continue;
    }
    std::size_t k = j;
    while (k < s.size() && (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '.')) ++k;
    const std::string tok = s.substr(j, k - j);
    if (tok.find('.') != std::string::npos && !other_software_before(s, i)) return tok;
  }
  return "";
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
  p.framework_version = framework_version(row.software);
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

}  // namespace tessera::validation
