// validate-data's rows under a load, through the request simulator (analysis/accuracy/load_rows.hpp).
#include "analysis/accuracy/load_rows.hpp"

#include <algorithm>
#include <cmath>
#include <regex>
#include <sstream>

#include "analysis/accuracy/row_evaluation.hpp"
#include "analysis/accuracy/simulated_rows.hpp"
#include "analysis/capacity/capacity_search.hpp"
#include "analysis/capacity/configuration_sim.hpp"
#include "analysis/measurements/row_units.hpp"
#include "analysis/requests/request_sim.hpp"
#include "core/text/input_text.hpp"
#include "eval/evaluator.hpp"
#include "eval/host_step_timer.hpp"
#include "tessera/error.hpp"

namespace tessera::accuracy {

namespace {

std::optional<double> positive(const std::string& text) {
  try {
    const double v = std::stod(text);
    if (std::isfinite(v) && v > 0) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> stated_request_rate(const std::string& notes) {
  static const std::regex re(
      "(?:target_qps|request[_-]rate)\\s*[=: ]?\\s*([0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)|"
      "request rate(?: of)?\\s*[=:]?\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(?:req(?:uests)?/s|qps)|"
      "([0-9]+(?:\\.[0-9]+)?)\\s*(?:samples|requests|queries)/s offered load");
  const std::string t = lower(notes);
  std::smatch m;
  if (!std::regex_search(t, m, re)) return std::nullopt;
  return positive(m[1].matched ? m[1].str() : m[2].matched ? m[2].str() : m[3].str());
}

ServerLimits stated_server_limits(const std::string& notes) {
  static const std::regex ttft("ttft_latency\\s*[=:]?\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(ns|us|ms|s)\\b");
  static const std::regex tpot("tpot_latency\\s*[=:]?\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(ns|us|ms|s)\\b");
  const std::string t = lower(notes);
  const auto seconds = [](const std::smatch& m) {
    // The regex admits only ns, us, ms and s, each a time_unit_scale() unit (units per second).
    return positive(m[1].str()).value_or(0) / time_unit_scale(m[2].str()).value_or(1.0);
  };
  ServerLimits l;
  std::smatch m;
  if (std::regex_search(t, m, ttft)) l.ttft_p99_s = seconds(m);
  if (std::regex_search(t, m, tpot)) l.tpot_p99_s = seconds(m);
  return l;
}

namespace {
// The whole number after `key=` or `key:` (blanks around allowed), 0 when none or out of range.
std::int64_t stated_count(const std::string& notes, const std::regex& re) {
  std::smatch m;
  if (!std::regex_search(notes, m, re)) return 0;
  const auto v = positive(m[1].str());
  return v && *v <= (1 << 24) ? static_cast<std::int64_t>(*v) : 0;
}
}  // namespace

std::int64_t stated_sequence_cap(const std::string& notes) {
  static const std::regex batch("gpu_batch_size\\s*=\\s*(?:\\{[^:}]*:\\s*)?([0-9]+)");
  static const std::regex seqs("max[_-]num[_-]seqs\\s*[=: ]\\s*([0-9]+)\\b");
  const std::string t = lower(notes);
  const std::int64_t b = stated_count(t, batch);
  return b > 0 ? b : stated_count(t, seqs);
}

std::int64_t stated_token_budget(const std::string& notes) {
  static const std::regex re("max[_-]num[_-]batched[_-]tokens\\s*[=: ]\\s*([0-9]+)\\b");
  return stated_count(lower(notes), re);
}

LoadStream load_row_stream(const RowPlan& p) {
  const std::uint64_t base = p.statistic == "mean" ? 2000 : 4000;
  LoadStream s;
  if (p.rate_per_s > 0 || p.load_metric == "capacity") {
    const std::uint64_t c = static_cast<std::uint64_t>(std::max<std::int64_t>(1, p.max_sequences)) *
                            static_cast<std::uint64_t>(std::max<std::int64_t>(1, p.config.dp));
    s.warmup = std::max(base / 10, c);
    s.measured = std::max(base, 2 * c);
  } else {
    const auto clients = static_cast<std::uint64_t>(std::max<std::int64_t>(1, p.batch * p.config.dp));
    s.warmup = simulated_warmup(static_cast<std::int64_t>(clients));
    s.measured = std::max(base, 2 * clients);
  }
  return s;
}

std::string load_stream_key(const PreparedRow& row) {
  const RowPlan& p = row.plan;
  const DTypes& d = p.dtype;
  std::ostringstream k;
  k << std::hexfloat;
  const auto opt = [&k](const std::optional<DType>& t) { k << (t ? dtype_name(*t) : "-") << ','; };
  k << p.model_file << '|' << p.machine_file << '|' << p.framework << '@' << p.framework_version << '|'
    << p.engine_label << '|' << dtype_name(d.weights) << ',' << dtype_name(d.kv) << ','
    << dtype_name(d.activations) << ',';
  for (const auto& part :
       {d.attention_weights, d.ffn_weights, d.expert_weights, d.lm_head_weights, d.attention, d.dispatch})
    opt(part);
  k << '|' << format_config(p.config, row.machine) << '|' << p.input << '|' << p.output << '|' << p.rate_per_s
    << '|' << p.batch << '|' << p.max_sequences << '|' << p.token_budget << '|' << (p.statistic != "mean")
    << '|' << p.load_metric;
  if (p.load_metric == "capacity") k << '|' << p.limit_ttft_p99_s << '|' << p.limit_tpot_p99_s;
  return k.str();
}

namespace {

// The row's statistic read from a simulation of its stream.
double read_statistic(const RowPlan& p, const requests::SimResult& r) {
  const int slot = percentile_index(p.statistic);
  const auto pick = [&](const requests::MetricSummary& m) {
    return (slot < 0 ? m.mean : m.percentile[static_cast<std::size_t>(slot)]) * p.to_unit;
  };
  if (p.load_metric == "ttft") return pick(r.ttft);
  if (p.load_metric == "tpot") return pick(r.tpot);
  if (p.load_metric == "itl") return pick(r.itl);
  if (p.load_metric == "e2e") return pick(r.e2e);
  if (p.load_metric == "tokens") return r.output_tokens_per_s * p.to_unit;
  if (p.load_metric == "tokens_per_pe")
    return r.output_tokens_per_s / static_cast<double>(p.n_devices) * p.to_unit;
  if (p.load_metric == "requests") return r.requests_per_s * p.to_unit;
  throw Error("under a load: nothing to read for '" + p.load_metric + "'");
}

}  // namespace

LoadAnswer predict_load_row(const PreparedRow& row, const std::shared_ptr<const LatencyModel>& latency,
                            const ParamSet& efficiency, const std::shared_ptr<const MemoryModel>& memory,
                            LoadCache* cache) {
  const RowPlan& p = row.plan;
  const bool capacity = p.load_metric == "capacity";
  // A stream simulated for an earlier row (its engine set-up included) is read, not rebuilt.
  const std::string key = cache ? load_stream_key(row) : std::string();
  if (cache && capacity)
    if (const auto hit = cache->capacities.find(key); hit != cache->capacities.end()) return hit->second;
  if (cache && !capacity)
    if (const auto hit = cache->streams.find(key); hit != cache->streams.end()) {
      LoadAnswer a = hit->second.first;
      a.value = read_statistic(p, hit->second.second);
      return a;
    }

  RowEvaluation re(row, latency, efficiency, memory);
  const Evaluator& ev = re.evaluator();
  const std::int64_t osl = re.output();
  HostStepTimer& timer = re.timer();
  const std::int64_t budget = p.token_budget > 0 ? p.token_budget : kSimulatedTokenBudget;
  timer.set_token_budget(budget);
  timer.set_max_sequences(p.max_sequences);
  const requests::ReplicaKv kv =
      requests::replica_kv(ev, p.config, re.layout(), timer, budget, p.max_sequences);

  LoadAnswer a;
  a.max_sequences = p.max_sequences;
  a.token_budget = budget;
  a.kv_blocks = kv.blocks;
  a.block_tokens = kv.block_tokens;
  const LoadStream sizes = load_row_stream(p);
  const std::uint64_t measured = sizes.measured;
  requests::StreamSpec stream;
  stream.input.kind = requests::LengthKind::fixed;
  stream.input.value = p.input;
  stream.output.kind = requests::LengthKind::fixed;
  stream.output.value = osl;
  stream.seed = 1;
  if (p.rate_per_s > 0 || capacity) {
    stream.arrival.kind = requests::ArrivalKind::poisson;
    stream.arrival.rate_per_s = p.rate_per_s > 0 ? p.rate_per_s : 1.0;
  } else {
    a.clients = p.batch * p.config.dp;
    stream.arrival.kind = requests::ArrivalKind::concurrency;
    stream.arrival.concurrency = a.clients;
  }
  stream.warmup = sizes.warmup;
  stream.requests = stream.warmup + measured;
  // A percentile row keeps every value (exact); the capacity checks its P99 limits on the
  // simulator's sketches (within 0.5 %), seven times faster on these streams.
  requests::SimOptions o = row_sim_options(p.max_sequences, budget, kv.blocks, kv.block_tokens, p.config.dp,
                                           p.statistic != "mean");
  const std::string too_long = "request simulator: a request of " + std::to_string(p.input + osl) +
                               " tokens does not fit the replica's KV (" + std::to_string(kv.blocks) +
                               " blocks of " + std::to_string(kv.block_tokens) + ")";

  if (capacity) {
    // MLPerf Server's question: the largest Poisson rate whose P99 TTFT and P99 TPOT stay within
    // the limits, searched from the engine's decode-bound rate (its full batch B, the smaller of its
    // sequence cap and what its KV holds at ISL + OSL, decoding at context ISL + OSL/2: dp x B /
    // (OSL x step(B))) over 64x either way.
    for (const auto& [metric, limit] :
         {std::pair{SloLatency::ttft, p.limit_ttft_p99_s}, std::pair{SloLatency::tpot, p.limit_tpot_p99_s}})
      if (limit > 0)
        o.slo.push_back(SloTarget{.metric = metric, .percentile = 99, .limit_s = limit, .where = {}});
    requests::CapacitySettings settings;
    settings.min_requests = measured;
    settings.max_requests = 2 * measured;
    settings.max_factor = 64;
    const std::int64_t fits =
        std::max<std::int64_t>(1, kv.blocks * kv.block_tokens / std::max<std::int64_t>(1, p.input + osl));
    const std::int64_t full = std::max<std::int64_t>(1, std::min(p.max_sequences, fits));
    const double step =
        timer.decode_iteration(full, static_cast<double>(p.input) + 0.5 * static_cast<double>(osl));
    const double start =
        std::isfinite(step) && step > 0
            ? static_cast<double>(p.config.dp) * static_cast<double>(full) / (static_cast<double>(osl) * step)
            : static_cast<double>(p.config.dp);
    const auto probe = [&](const requests::StreamSpec& s) {
      requests::SimResult r = requests::simulate(s, timer, o);
      if (r.rejected > 0) throw Error(too_long);
      return r;
    };
    requests::Capacity cap;
    try {
      cap = requests::search_capacity(stream, start, settings, probe);
    } catch (const std::invalid_argument& e) {
      throw Error(std::string("request simulator: ") + e.what());
    }
    if (!cap.found)
      throw Error("capacity: no Poisson rate down to " + std::to_string(start / settings.max_factor) +
                  " requests/s meets the P99 limits");
    if (cap.stop == requests::CapacityStop::ceiling)
      throw Error("capacity: every probed Poisson rate up to " + std::to_string(start * settings.max_factor) +
                  " requests/s met the P99 limits (no limit binds)");
    a.rate_per_s = cap.load;
    a.measured = cap.at.measured;
    a.probes = cap.probes.size();
    // At a rate the engine sustains (every P99 limit met over a stream several times its capacity),
    // completions equal arrivals: the completed tokens/s is the rate times the OSL. (The simulator's
    // own figure spans the first arrival to the last finish, the drain included.)
    a.value = cap.load * static_cast<double>(osl) * p.to_unit;
    if (cache) cache->capacities.emplace(key, a);
    return a;
  }

  requests::SimResult r;
  try {
    r = requests::simulate(stream, timer, o);
  } catch (const std::invalid_argument& e) {
    throw Error(std::string("request simulator: ") + e.what());
  }
  if (r.rejected > 0) throw Error(too_long);
  a.rate_per_s = p.rate_per_s;
  a.measured = r.measured;
  if (cache) cache->streams.emplace(key, std::make_pair(a, r));
  a.value = read_statistic(p, r);
  return a;
}

}  // namespace tessera::accuracy
