// `tessera validate-data`: a measured row -> its RowPlan. The mapping rules are written down
// in docs/accuracy.md ("How a row is mapped").
#include "analysis/accuracy/row_plan.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <system_error>

#include "analysis/accuracy/load_rows.hpp"
#include "analysis/accuracy/simulated_rows.hpp"
#include "analysis/measurements/collective_rows.hpp"
#include "analysis/measurements/row_precision.hpp"
#include "analysis/measurements/row_units.hpp"
#include "analysis/measurements/text_scan.hpp"

namespace tessera::accuracy {

namespace fs = std::filesystem;

namespace {

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

// `NAME\s*=\s*(\d+)` at `at`.
bool assignment(const std::string& s, std::size_t& at, const char* name, double& v) {
  const std::size_t n = std::strlen(name);
  if (s.compare(at, n, name) != 0) return false;
  at += n;
  skip_spaces(s, at);
  if (at >= s.size() || s[at] != '=') return false;
  ++at;
  skip_spaces(s, at);
  return scan_digits(s, at, v);
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

// `NAME=INT` pairs separated by commas at the very start of the notes ("M=1024,N=1024,K=1024",
// "groups=4,M_per_group=8192,N=4096,K=7168": measurements-2024-2026.csv's kernel convention).
bool leading_gemm_shape(const std::string& notes, double& m, double& n, double& k, double& groups) {
  std::size_t at = 0;
  double vm = 0, vn = 0, vk = 0, vg = 0, vmg = 0;
  for (int i = 0; i < 5; ++i) {
    skip_spaces(notes, at);
    double v = 0;
    if (assignment(notes, at, "groups", v)) {
      vg = v;
    } else if (assignment(notes, at, "M_per_group", v)) {
      vmg = v;
    } else if (assignment(notes, at, "M", v)) {
      vm = v;
    } else if (assignment(notes, at, "N", v)) {
      vn = v;
    } else if (assignment(notes, at, "K", v)) {
      vk = v;
    } else {
      break;
    }
    if (at >= notes.size() || notes[at] != ',') break;
    ++at;
  }
  if (vg > 0 && vmg > 0 && vm == 0) {
    vm = vmg;
  } else if (vg > 0 || vmg > 0) {
    return false;  // half a grouped shape
  }
  if (vm <= 0 || vn <= 0 || vk <= 0) return false;
  m = vm;
  n = vn;
  k = vk;
  groups = vg > 0 ? vg : 1;
  return true;
}

// "samples/s 41.1" or "Samples per second 177.5" (MLPerf loadgen's own words), any case.
std::optional<double> notes_samples_per_s(const std::string& as_written) {
  const std::string notes = lower(as_written);
  std::size_t at = notes.find("samples/s");
  std::size_t i = at + 9;
  if (at == std::string::npos) {
    at = notes.find("samples per second");
    if (at == std::string::npos) return std::nullopt;
    i = at + 18;
  }
  skip_spaces(notes, i);
  std::size_t end = i;
  while (end < notes.size() && (std::isdigit(static_cast<unsigned char>(notes[end])) || notes[end] == '.'))
    ++end;
  const auto v = real_cell(notes.substr(i, end - i));
  if (!v || *v <= 0) return std::nullopt;
  return v;
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
  const AliasRule* r = select_rule(aliases.hardware, row.hardware);
  if (!r) return unmapped(p, "hardware '" + row.hardware + "' has no alias (" + aliases.file + ")");
  if (!r->unmapped.empty()) return unmapped(p, r->unmapped);
  p.machine_file = (fs::path(root) / "machines" / (r->target + ".yaml")).string();
  if (!fs::exists(p.machine_file)) return unmapped(p, "machine file " + p.machine_file + " not found");
  return true;
}

bool map_model(const DataRow& row, const Aliases& aliases, const std::string& root, RowPlan& p) {
  const AliasRule* r = select_rule(aliases.models, row.model, "", true);
  if (!r) return unmapped(p, "model '" + row.model + "' has no alias (" + aliases.file + ")");
  if (!r->unmapped.empty()) return unmapped(p, r->unmapped);
  p.model_file = (fs::path(root) / "models" / (r->target + ".yaml")).string();
  if (!fs::exists(p.model_file)) return unmapped(p, "model file " + p.model_file + " not found");
  return true;
}

void map_serving_stack(const DataRow& row, const Aliases& aliases, RowPlan& p) {
  const AliasRule* r = select_rule(aliases.frameworks, row.software, row.source_locator);
  p.framework = r ? r->target : "generic";
  p.framework_version = r ? framework_version(row.software, *r) : "";
  // The version may follow another name of the same framework ("lmdeploy v0.1.0a1 (TurboMind
  // engine)": the TurboMind rule wins, the version follows "lmdeploy").
  if (r && p.framework_version.empty())
    for (const AliasRule& o : aliases.frameworks)
      if (&o != r && o.target == r->target && p.framework_version.empty())
        p.framework_version = framework_version(row.software, o);
  // A version the rule states for rows whose column states none (data/aliases.yaml says why).
  if (r && p.framework_version.empty()) p.framework_version = r->version;
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
  const bool ar_time = m == "collective_latency:all_reduce";
  const bool moe = m == "collective_latency:ep_dispatch" || m == "collective_latency:ep_combine";
  if (!busbw && !ar_time && !moe)
    return unmapped(p, "collective metric '" + m +
                           "' is not predicted (collective_busbw:all_reduce, collective_latency:all_reduce, "
                           "collective_latency:ep_dispatch, collective_latency:ep_combine are)");
  const auto scale = busbw ? bandwidth_unit_scale(row.unit) : time_unit_scale(row.unit);
  if (!scale)
    return unmapped(p, "unit '" + row.unit + "' is not a " + (busbw ? "bandwidth" : "time") + " unit");
  p.to_unit = *scale;
  if (!map_machine(row, aliases, root, p)) return false;
  const auto nd = int_cell(row.n_devices);
  if (busbw || ar_time) {
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
    c.group = kGroupAllReduce;  // "in a node" or "across nodes" once the machine is known
    if (busbw) p.derived = Derived::busbw;
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

// A throughput measured at full load: the notes say the clients sent without waiting.
bool full_load_stated(const std::string& notes) {
  for (const char* w : {"under maximum load", "at maximum load", "at full load", "infinite rate"})
    if (contains_ci(notes, w)) return true;
  return false;
}

// The KV rule of framework `name` at the listed version nearest `version` (data_root's
// data/frameworks.yaml), and its default cap on sequences (the rule's max_num_seqs, as vLLM's
// 1024; the batch flag's default when a plain number, as TensorRT-LLM's --max_batch_size 2048;
// the version's max_batch): a full-load row's engine ran with its defaults. Rule none when the
// file does not list the framework. Read per full-load or load row (at most 2 ms each: planning
// the 417 rows of measurements-serving-2026.csv, 91 such, takes 0.18 s), so an edited file is seen.
void resolve_engine(const std::string& root, const std::string& name, const std::string& version,
                    RowPlan& p) {
  std::error_code ec;
  if (!fs::is_regular_file(default_serving_stacks_path(root), ec)) return;
  const ServingStackCatalog catalog = load_serving_stack_catalog(default_serving_stacks_path(root));
  for (const ServingStackProfile& f : catalog.frameworks) {
    if (f.name != name || f.versions.empty()) continue;
    const ServingStackVersion& v = nearest_version(f, version);
    p.engine_kv = engine_kv_defaults(f, v);
    p.engine_label = f.name + "@" + v.version;
    // The smallest of the caps that apply (0: none).
    auto cap = [&p](std::int64_t n) {
      if (n > 0) p.engine_max_batch = p.engine_max_batch > 0 ? std::min(p.engine_max_batch, n) : n;
    };
    p.engine_max_batch = 0;
    cap(v.max_batch);
    cap(p.engine_kv.max_num_seqs);  // vLLM's default max_num_seqs (no row states one)
    for (const ServingStackFlag& flag : v.flags) {
      const std::string& t = flag.default_text;
      const bool number = !t.empty() && t.size() < 10 && std::all_of(t.begin(), t.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
      });
      if (flag.value.size() == 1 && flag.value.front() == FlagTerm::batch && number) cap(std::stoll(t));
    }
  }
}

// A full-load row (Measure::full_load): ISL and OSL stated, the batch found by the prediction.
RowPlan& plan_full_load(const DataRow& row, const std::string& root, RowPlan& p) {
  const auto in = int_cell(row.input_len);
  const auto out = int_cell(row.output_len);
  if (!in || *in < 1 || !out || *out < 1) {
    unmapped(p, "full load without a batch: the ISL and OSL must be stated (input_len, output_len)");
    return p;
  }
  p.measure = Measure::full_load;
  p.batch = 0;
  p.input = *in;
  p.output = *out;
  p.group = kGroupFullLoad;
  try {
    resolve_engine(root, p.framework, p.framework_version, p);
  } catch (const std::exception& e) {  // a broken frameworks file: this row says why
    unmapped(p, std::string("full load: the frameworks file: ") + e.what());
    return p;
  }
  p.mapped = true;
  return p;
}

// A row the request simulator answers (Measure::under_load, analysis/accuracy/load_rows.hpp): measured
// under a stated request rate, a percentile at a rate or a concurrency, or MLPerf Server's
// throughput. `batch` is the row's (0: not stated).
RowPlan& plan_under_load(const DataRow& row, const Aliases& aliases, const std::string& root, long long batch,
                         RowPlan& p) {
  if (p.load_metric.empty()) {
    switch (p.measure) {
      case Measure::prefill:
        if (row.metric == "prefill_latency") {
          unmapped(p, "prefill_latency under a load: not a per-request statistic the simulator reports");
          return p;
        }
        p.load_metric = "ttft";
        break;
      case Measure::decode_step:
        if (p.derived != Derived::time) {
          unmapped(p, "metric '" + row.metric +
                          "' under a load: not a per-request statistic the simulator reports");
          return p;
        }
        p.load_metric = row.metric == "itl" ? "itl" : "tpot";
        break;
      case Measure::request:
        p.load_metric = p.derived == Derived::time                  ? "e2e"
                        : p.derived == Derived::tokens_per_s        ? "tokens"
                        : p.derived == Derived::tokens_per_s_per_pe ? "tokens_per_pe"
                        : p.derived == Derived::requests_per_s      ? "requests"
                                                                    : "";
        break;
      default:
        break;
    }
    if (p.load_metric.empty()) {
      unmapped(p, "metric '" + row.metric + "' under a load: not a quantity the request simulator reports");
      return p;
    }
  }
  const bool rate_metric = p.load_metric == "tokens" || p.load_metric == "tokens_per_pe" ||
                           p.load_metric == "requests" || p.load_metric == "capacity";
  if (p.statistic != "mean" && (rate_metric || percentile_index(p.statistic) < 0)) {
    unmapped(p, "statistic " + p.statistic + " of " + row.metric +
                    ": the simulator reports the mean, P50, P90 and P99 of "
                    "TTFT, TPOT, ITL and E2E");
    return p;
  }
  if (p.load_metric == "capacity") {
    const ServerLimits lim = stated_server_limits(row.notes);
    if (lim.ttft_p99_s <= 0 && lim.tpot_p99_s <= 0) {
      unmapped(
          p, "MLPerf Server throughput without its latency limits in the notes (ttft_latency, tpot_latency)");
      return p;
    }
    p.limit_ttft_p99_s = lim.ttft_p99_s;
    p.limit_tpot_p99_s = lim.tpot_p99_s;
  } else if (const auto rate = stated_request_rate(row.notes)) {
    if (*rate > kLoadRowMaxRate) {
      unmapped(p, "a request rate above the simulator's 1e9 requests/s");
      return p;
    }
    p.rate_per_s = *rate;
  } else if (batch >= 1) {
    if (batch % p.config.dp != 0) {
      unmapped(p,
               "batch " + std::to_string(batch) + " does not split over dp=" + std::to_string(p.config.dp));
      return p;
    }
    // A closed loop of the row's clients: the concurrency the notes state must be the batch.
    const long long n = stated_concurrency(row);
    if (n < 0) {
      unmapped(p, "statistic " + p.statistic +
                      " of a static batch: no request rate or concurrency of clients stated");
      return p;
    }
    if (n != batch) {
      unmapped(p, "the concurrency the notes state (" + std::to_string(n) + ") is not the row's batch (" +
                      std::to_string(batch) + ")");
      return p;
    }
    if (batch > kLoadRowMaxClients) {
      unmapped(p, "a closed loop of " + std::to_string(batch) + " clients: more than the simulator's 1e6");
      return p;
    }
  } else {
    unmapped(p, "statistic " + p.statistic + " with neither a request rate nor a concurrency stated");
    return p;
  }
  const auto in = int_cell(row.input_len);
  const auto out = int_cell(row.output_len);
  if (in && *in >= 1 && out && *out >= 1) {
    p.input = *in;
    p.output = *out;
  } else if (const DatasetRule* d =
                 (!in && !out) ? select_dataset(aliases.datasets, row.notes, row.model, row.source_locator)
                               : nullptr) {
    p.input = d->input_mean;
    p.output = d->output_mean;
    p.lengths_from = d->match;
  } else {
    unmapped(p,
             "measured under a load, but the prompt and output lengths are not stated (ISL/OSL blank) and no "
             "`datasets:` rule of the alias table gives their means");
    return p;
  }
  try {
    resolve_engine(root, p.framework, p.framework_version, p);
  } catch (const std::exception& e) {  // a broken frameworks file: this row says why
    unmapped(p, std::string("under a load: the frameworks file: ") + e.what());
    return p;
  }
  const std::int64_t cap = stated_sequence_cap(row.notes);
  p.max_sequences = cap > 0 ? cap : p.engine_max_batch > 0 ? p.engine_max_batch : kLoadRowDefaultSequences;
  p.token_budget = stated_token_budget(row.notes);
  // The workload's batch: a closed loop's clients per replica; an open loop's is the simulator's.
  p.batch = p.rate_per_s > 0 || p.load_metric == "capacity" ? 1 : batch / p.config.dp;
  const LoadStream sizes = load_row_stream(p);
  if (sizes.warmup + sizes.measured > kLoadRowMaxRequests) {
    unmapped(p, "a steady state of this engine (" + std::to_string(p.max_sequences) + " sequences x " +
                    std::to_string(p.config.dp) + " replicas) needs " +
                    std::to_string(sizes.warmup + sizes.measured) + " simulated requests, more than 1e6");
    return p;
  }
  p.measure = Measure::under_load;
  p.group = kGroupUnderLoad;
  p.mapped = true;
  return p;
}

RowPlan plan_row(const DataRow& as_written, const Aliases& aliases, const std::string& root) {
  RowPlan p;
  // Metric and unit synonyms (`ITL`, `mean_tpot`, `tok/s/user`, `tok/s/GPU` on a total, ...) read
  // as the files' own names (row_units.hpp); everything else as written.
  DataRow row = as_written;
  const MetricUnit mu = canonical_metric_unit(as_written.metric, as_written.unit);
  row.metric = mu.metric;
  row.unit = mu.unit;
  // A statistic other than the mean (`ttft_p99`, `e2e_latency_median`): the base metric, the
  // statistic read from the request simulator's distribution (Measure::under_load).
  // The P50 of a static batch (no load stated) is its one value: read as the mean.
  if (const auto [base, statistic] = split_statistic(row.metric); base != row.metric) {
    row.metric = base;
    const bool load = states_load(row) || stated_request_rate(row.notes).has_value();
    if (!(statistic == "p50" && !trim(row.batch).empty() && !load)) p.statistic = statistic;
  }
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
  const bool is_time_metric = is_latency_metric(m) || m == "ms_per_token_amortized" || m == "itl" ||
                              m.rfind("kernel_latency:", 0) == 0;
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
  } else if (m == "tpot") {
    p.measure = Measure::decode_step;
  } else if (m == "itl") {
    // The token-weighted mean gap equals the mean decode step only for a fixed OSL and one token
    // per step: speculative decoding (several tokens per step, uneven gaps) is not predicted.
    for (const char* spec : {"speculative", "MTP", "EAGLE", "draft model"})
      if (contains_ci(row.notes, spec)) {
        unmapped(p, std::string("itl with speculative decoding ('") + spec +
                        "' in the notes): the gaps are not one decode step each");
        return p;
      }
    if (contains_ci(row.notes, "variable output") || contains_ci(row.notes, "variable input/output")) {
      unmapped(p,
               "itl over variable output lengths: token-weighted, it is not the decode step at a stated OSL");
      return p;
    }
    p.measure = Measure::decode_step;
  } else if (m == "decode_tok_s_per_user") {
    if (lower(trim(row.unit)) != "tok/s") {
      unmapped(p, "unit '" + row.unit + "' does not match metric " + m + " (tok/s)");
      return p;
    }
    p.measure = Measure::decode_step;
    p.derived = Derived::per_user_rate;
  } else if (m == "mfu") {
    // Only when the source counts what Tessera counts: the model's useful FLOPs against the
    // dense peak (notes `mfu_flops=model` and `peak=dense`).
    if (!contains_ci(row.notes, "mfu_flops=model") || !contains_ci(row.notes, "peak=dense")) {
      unmapped(p,
               "mfu: the source's FLOP count and peak are not stated as Tessera's (the model's useful FLOPs "
               "against the dense peak: notes `mfu_flops=model`, `peak=dense`)");
      return p;
    }
    if (trim(row.unit) != "%") {
      unmapped(p, "unit '" + row.unit + "' does not match metric mfu (%)");
      return p;
    }
    p.measure = Measure::decode_step;
    p.derived = Derived::mfu;
  } else if (m == "throughput_in_per_node" || m == "throughput_in_per_gpu" ||
             m == "throughput_out_per_node") {
    // One phase measured on its own (disaggregated deployments): the prefill of input_len tokens
    // for B sequences, or one decode step at context input_len + output_len/2; per GPU, or per
    // 8-GPU node (measurements-2024-2026.csv's convention).
    if (lower(row.unit).rfind("tok/s", 0) != 0) {
      unmapped(p, "unit '" + row.unit + "' does not match metric " + m);
      return p;
    }
    p.measure = m == "throughput_out_per_node" ? Measure::decode_step : Measure::prefill;
    p.derived = Derived::phase_tokens_per_s;
    p.devices_per_unit = m.size() > 9 && m.compare(m.size() - 9, 9, "_per_node") == 0 ? 8 : 1;
  } else if (m == "mlperf_server_throughput") {
    // The completed tokens/s of a Server run: at the largest Poisson rate within the round's P99
    // limits (MLPerf's question), through the request simulator.
    if (lower(row.unit).rfind("tok/s", 0) != 0) {
      unmapped(p, "unit '" + row.unit + "' does not match metric " + m);
      return p;
    }
    p.measure = Measure::request;
    p.derived = Derived::tokens_per_s;
    p.load_metric = "capacity";
  } else if (m == "throughput_unspecified") {
    unmapped(p, "a throughput its source does not say is of output tokens or of all tokens: not predicted");
    return p;
  } else if (m == "mlperf_offline_throughput") {
    if (lower(row.unit).rfind("tok/s", 0) != 0) {
      unmapped(p, "unit '" + row.unit + "' does not match metric " + m);
      return p;
    }
    p.measure = Measure::offline_bound;
    p.bound = true;
    p.group = kGroupOfflineBound;
  } else if (m == "kernel_tflops") {
    const std::string u = lower(trim(row.unit));
    if (u != "tflops" && u != "tflop/s") {
      unmapped(p, "unit '" + row.unit + "' does not match metric kernel_tflops (TFLOPS)");
      return p;
    }
    if (!leading_gemm_shape(row.notes, p.gemm_m, p.gemm_n, p.gemm_k, p.gemm_groups)) {
      unmapped(p,
               "kernel_tflops without a GEMM shape (M=..,N=..,K=.. or groups=..,M_per_group=..,N=..,K=..) "
               "at the start of the notes");
      return p;
    }
    p.measure = Measure::gemm;
    p.derived = Derived::flop_rate;
    p.to_unit = 1e-12;
  } else if (m == "kernel_latency:fused_moe" || m == "kernel_latency:attention_prefill" ||
             m == "kernel_latency:attention_decode") {
    // One stage of one layer timed alone, as op_latency: the experts' stage for the fused MoE
    // call (batch = tokens: a decode step of that many sequences), the attention core for the
    // attention backends (prefill of input_len tokens; decode with input_len cached).
    p.measure = Measure::op_stage;
    p.stage = m == "kernel_latency:fused_moe" ? "moe.experts" : "attn.core";
    p.stage_decode = m != "kernel_latency:attention_prefill";
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
  if (p.measure != Measure::gemm && p.measure != Measure::copy) {
    // A model the alias table refuses: that reason before any other cell's.
    const AliasRule* mr = select_rule(aliases.models, row.model, "", true);
    if (mr && !mr->unmapped.empty()) {
      unmapped(p, mr->unmapped);
      return p;
    }
  }
  std::string why;
  // The column's own words first; a precision it leaves partly unstated, read elsewhere (data/
  // aliases.yaml `precisions:`), only where they do not map: a rule never overrides the column.
  if (const auto dt = dtypes_from_precision(row.precision, why)) {
    p.dtype = *dt;
  } else if (const PrecisionRule* pr =
                 select_precision(aliases.precisions, row.precision, row.model, row.source_locator)) {
    p.dtype = pr->dtype;
  } else {
    unmapped(p, why);
    return p;
  }
  map_serving_stack(row, aliases, p);
  if (p.measure == Measure::gemm || p.measure == Measure::copy) {
    p.mapped = true;
    return p;
  }
  if (!map_model(row, aliases, root, p)) return p;
  if (!map_config(row, p)) return p;

  if (p.measure == Measure::offline_bound) {
    // Lengths vary per sample: the mean OSL = generated tokens/s / samples/s (both in the row);
    // the ISL is not stated and is taken as 0 and the batch as the largest whose KV fits, which
    // keeps the prediction a ceiling (row_prediction.cpp).
    const auto sps = notes_samples_per_s(row.notes);
    if (!sps) {
      unmapped(p,
               "MLPerf Offline: no 'samples/s <number>' in the notes (the mean output length is tokens/s "
               "over it)");
      return p;
    }
    p.output = std::max<std::int64_t>(1, std::llround(p.measured / *sps));
    p.input = 0;
    p.batch = 0;
    p.mapped = true;
    return p;
  }
  const auto batch = int_cell(row.batch);
  const bool no_batch = !batch || *batch < 1;
  // A stated request rate is the stream the row was measured under, with or without a batch.
  if (p.statistic != "mean" || !p.load_metric.empty() || stated_request_rate(row.notes))
    return plan_under_load(row, aliases, root, no_batch ? 0 : *batch, p);
  if (no_batch) {
    for (const char* load : {"offered load", "target_qps", "request rate"})
      if (contains_ci(row.notes, load)) {
        unmapped(p, std::string("measured under a request rate ('") + load +
                        "' in the notes), not at a stated concurrency (batch): the serving models take a "
                        "concurrency");
        return p;
      }
    if (full_load_stated(row.notes) && p.measure == Measure::request &&
        (p.derived == Derived::tokens_per_s || p.derived == Derived::tokens_per_s_per_pe ||
         p.derived == Derived::requests_per_s))
      return plan_full_load(row, root, p);
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
  const bool context_free = m == "kernel_latency:fused_moe";  // the experts' time needs no context
  if ((!in || *in < 1) && !context_free) {
    unmapped(p, "input_len not stated");
    return p;
  }
  p.input = in && *in >= 1 ? *in : 1;
  if (m.rfind("kernel_latency:", 0) == 0) {
    p.output = p.stage_decode ? 1 : 0;  // the stage's step: decode (fused MoE, decode attention) or prefill
  } else if (p.measure == Measure::op_stage) {
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

}  // namespace tessera::accuracy
