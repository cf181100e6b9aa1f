// validate-data's rows under a load, through the request simulator (analysis/load_rows.hpp).
#include "analysis/load_rows.hpp"

#include <algorithm>
#include <cmath>
#include <regex>

#include "analysis/requests/capacity_search.hpp"
#include "analysis/requests/configuration_sim.hpp"
#include "analysis/requests/request_sim.hpp"
#include "analysis/row_evaluation.hpp"
#include "analysis/simulated_rows.hpp"
#include "core/input_text.hpp"
#include "eval/evaluator.hpp"
#include "eval/host_step_timer.hpp"
#include "tessera/error.hpp"

namespace tessera::validation {

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
      "(?:target_qps|request_rate)\\s*[=:]?\\s*([0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)|"
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
    const double scale = m[2] == "ns" ? 1e-9 : m[2] == "us" ? 1e-6 : m[2] == "ms" ? 1e-3 : 1.0;
    return positive(m[1].str()).value_or(0) * scale;
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
  static const std::regex batch("gpu_batch_size\\s*=\\s*\\{[^:}]*:\\s*([0-9]+)\\s*\\}");
  static const std::regex seqs("max[_-]num[_-]seqs\\s*[=: ]\\s*([0-9]+)\\b");
  const std::int64_t b = stated_count(notes, batch);
  return b > 0 ? b : stated_count(notes, seqs);
}

std::int64_t stated_token_budget(const std::string& notes) {
  static const std::regex re("max[_-]num[_-]batched[_-]tokens\\s*[=: ]\\s*([0-9]+)\\b");
  return stated_count(notes, re);
}

std::uint64_t load_row_requests(const std::string& statistic) { return statistic == "mean" ? 2000 : 4000; }

LoadAnswer predict_load_row(const PreparedRow& row, const std::shared_ptr<const LatencyModel>& latency,
                            const ParamSet& efficiency, const std::shared_ptr<const MemoryModel>& memory) {
  const RowPlan& p = row.plan;
  const RowEvaluation re(row, latency, efficiency, memory);
  const Evaluator& ev = re.evaluator();
  const std::int64_t osl = re.output();
  Evaluation scratch;
  HostStepTimer timer(ev, p.config, re.layout(), scratch);
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
  const std::uint64_t measured = load_row_requests(p.statistic);
  requests::StreamSpec stream;
  stream.input.kind = requests::LengthKind::fixed;
  stream.input.value = p.input;
  stream.output.kind = requests::LengthKind::fixed;
  stream.output.value = osl;
  stream.seed = 1;
  if (p.rate_per_s > 0 || p.load_metric == "capacity") {
    stream.arrival.kind = requests::ArrivalKind::poisson;
    stream.arrival.rate_per_s = p.rate_per_s > 0 ? p.rate_per_s : 1.0;
    stream.warmup = measured / 10;
  } else {
    a.clients = p.batch * p.config.dp;
    stream.arrival.kind = requests::ArrivalKind::concurrency;
    stream.arrival.concurrency = a.clients;
    stream.warmup = simulated_warmup(a.clients);
  }
  stream.requests = stream.warmup + measured;
  requests::SimOptions o = row_sim_options(p.max_sequences, budget, kv.blocks, kv.block_tokens, p.config.dp,
                                           p.statistic != "mean");
  const std::string too_long = "request simulator: a request of " + std::to_string(p.input + osl) +
                               " tokens does not fit the replica's KV (" + std::to_string(kv.blocks) +
                               " blocks of " + std::to_string(kv.block_tokens) + ")";

  if (p.load_metric == "capacity") {
    // MLPerf Server's question: the largest Poisson rate whose P99 TTFT and P99 TPOT stay within
    // the limits, searched from 1 request/s per replica over 2^12 either way.
    for (const auto& [metric, limit] :
         {std::pair{SloLatency::ttft, p.limit_ttft_p99_s}, std::pair{SloLatency::tpot, p.limit_tpot_p99_s}})
      if (limit > 0)
        o.slo.push_back(SloTarget{.metric = metric, .percentile = 99, .limit_s = limit, .where = {}});
    requests::CapacitySettings settings;
    settings.min_requests = measured;
    settings.max_requests = 4 * measured;
    settings.max_factor = 4096;
    const auto probe = [&](const requests::StreamSpec& s) {
      requests::SimResult r = requests::simulate(s, timer, o);
      if (r.rejected > 0) throw Error(too_long);
      return r;
    };
    requests::Capacity cap;
    try {
      cap = requests::search_capacity(stream, static_cast<double>(p.config.dp), settings, probe);
    } catch (const std::invalid_argument& e) {
      throw Error(std::string("request simulator: ") + e.what());
    }
    if (!cap.found)
      throw Error("capacity: no Poisson rate down to " +
                  std::to_string(static_cast<double>(p.config.dp) / 4096) +
                  " requests/s meets the P99 limits");
    a.rate_per_s = cap.load;
    a.measured = cap.at.measured;
    a.probes = cap.probes.size();
    a.value = cap.at.output_tokens_per_s * p.to_unit;
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
  const int slot = percentile_index(p.statistic);
  const auto pick = [&](const requests::MetricSummary& m) {
    return (slot < 0 ? m.mean : m.percentile[static_cast<std::size_t>(slot)]) * p.to_unit;
  };
  if (p.load_metric == "ttft") {
    a.value = pick(r.ttft);
  } else if (p.load_metric == "tpot") {
    a.value = pick(r.tpot);
  } else if (p.load_metric == "itl") {
    a.value = pick(r.itl);
  } else if (p.load_metric == "e2e") {
    a.value = pick(r.e2e);
  } else if (p.load_metric == "tokens") {
    a.value = r.output_tokens_per_s * p.to_unit;
  } else if (p.load_metric == "tokens_per_pe") {
    a.value = r.output_tokens_per_s / static_cast<double>(p.n_devices) * p.to_unit;
  } else if (p.load_metric == "requests") {
    a.value = r.requests_per_s * p.to_unit;
  } else {
    throw Error("under a load: nothing to read for '" + p.load_metric + "'");
  }
  return a;
}

}  // namespace tessera::validation
