// validate-data's rows through the request simulator: analysis/accuracy/simulated_rows.hpp.
#include "analysis/accuracy/simulated_rows.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

#include "analysis/accuracy/row_evaluation.hpp"
#include "analysis/accuracy/serving_rows.hpp"
#include "analysis/capacity/configuration_sim.hpp"
#include "analysis/measurements/row_units.hpp"
#include "analysis/requests/request_sim.hpp"
#include "core/text/input_text.hpp"
#include "eval/evaluator.hpp"
#include "eval/host_step_timer.hpp"
#include "tessera/error.hpp"
#include "tessera/physics/eval_context.hpp"

namespace tessera::accuracy {

int percentile_index(const std::string& statistic) {
  for (std::size_t i = 0; i < requests::kPercentiles.size(); ++i)
    if (statistic == "p" + std::to_string(static_cast<int>(requests::kPercentiles[i])))
      return static_cast<int>(i);
  return -1;
}

requests::SimOptions row_sim_options(std::int64_t max_sequences, std::int64_t token_budget,
                                     std::int64_t kv_blocks, std::int64_t block_tokens, std::int64_t dp,
                                     bool exact) {
  requests::SimOptions o;
  o.limits.max_sequences = max_sequences;
  o.limits.token_budget = token_budget;
  o.limits.chunked_prefill = true;
  o.limits.kv_blocks = kv_blocks;
  o.limits.block_tokens = block_tokens;
  o.replicas = dp;
  o.exact = exact;
  return o;
}

long long stated_concurrency(const DataRow& row) {
  static const std::regex re("concurrency (of )?([0-9]+)");
  for (const std::string* text : {&row.notes, &row.source_locator}) {
    const std::string t = lower(*text);
    std::smatch m;
    if (std::regex_search(t, m, re)) return std::stoll(m[2].str());
    if (t.find("(concurrency)") != std::string::npos) {
      try {
        return row.batch.empty() ? -2 : std::stoll(row.batch);
      } catch (const std::exception&) {
        return -2;
      }
    }
  }
  return -1;
}

std::string rate_row_reason(const DataRow& row) {
  const std::string t = lower(row.notes);
  if (t.find("target_qps") == std::string::npos && t.find("offered load") == std::string::npos) return "";
  if (row.input_len.empty() || row.output_len.empty())
    return "measured under a request rate, but the prompt and output lengths vary per sample and the row "
           "states no length distribution (ISL/OSL blank)";
  return "measured under a request rate the row states only in its notes: not simulated";
}

bool states_load(const DataRow& row) {
  if (stated_concurrency(row) != -1) return true;
  const std::string t = lower(row.notes);
  return t.find("target_qps") != std::string::npos || t.find("offered load") != std::string::npos;
}

std::string simulated_row_reason(const DataRow& row, const RowPlan& plan) {
  if (std::string why = serving_row_reason(row, plan); !why.empty()) return why;
  const auto [base, statistic] = split_statistic(row.metric);
  if (statistic != "mean" && percentile_index(statistic) < 0)
    return "percentile " + statistic + ": the simulator reports P50, P90 and P99";
  if (plan.measure == Measure::request && plan.derived == Derived::time_per_token)
    return "an amortized time per token, not a per-request statistic";
  const std::string t = lower(row.notes);
  if (t.find("static batch") != std::string::npos) return "a static batch, not a stream of requests";
  const long long n = stated_concurrency(row);
  if (n == -1) return "no concurrency of clients stated in the notes or locator (a static or offline batch)";
  if (n < 0) return "a concurrency is named but its value is not the row's batch";
  if (n != plan.batch * plan.config.dp)
    return "the concurrency the notes state (" + std::to_string(n) + ") is not the row's batch";
  return "";
}

std::uint64_t simulated_warmup(std::int64_t clients) { return 2 * static_cast<std::uint64_t>(clients); }

std::uint64_t simulated_requests(std::int64_t clients) {
  return simulated_warmup(clients) + std::max<std::uint64_t>(500, 8 * static_cast<std::uint64_t>(clients));
}

SimulatedRow simulate_serving_row(const PreparedRow& row, const std::shared_ptr<const LatencyModel>& latency,
                                  const ParamSet& efficiency,
                                  const std::shared_ptr<const MemoryModel>& memory) {
  const RowPlan& p = row.plan;
  RowEvaluation re(row, latency, efficiency, memory);
  const Evaluator& ev = re.evaluator();
  const std::int64_t osl = re.output();
  HostStepTimer& timer = re.timer();
  timer.set_token_budget(kSimulatedTokenBudget);
  timer.set_max_sequences(p.batch);
  const requests::ReplicaKv kv =
      requests::replica_kv(ev, p.config, re.layout(), timer, kSimulatedTokenBudget, p.batch);

  SimulatedRow out;
  out.clients = p.batch * p.config.dp;
  requests::StreamSpec stream;
  stream.arrival.kind = requests::ArrivalKind::concurrency;
  stream.arrival.concurrency = out.clients;
  stream.input.kind = requests::LengthKind::fixed;
  stream.input.value = p.input;
  stream.output.kind = requests::LengthKind::fixed;
  stream.output.value = osl;
  stream.requests = simulated_requests(out.clients);
  stream.warmup = simulated_warmup(out.clients);
  stream.seed = 1;
  const requests::SimOptions o =
      row_sim_options(out.clients, kSimulatedTokenBudget, kv.blocks, kv.block_tokens, p.config.dp, true);
  requests::SimResult r;
  try {
    r = requests::simulate(stream, timer, o);
  } catch (const std::invalid_argument& e) {
    throw Error(std::string("request simulator: ") + e.what());
  }
  if (r.rejected > 0)
    throw Error("request simulator: a request of " + std::to_string(p.input + osl) +
                " tokens does not fit the replica's KV (" + std::to_string(kv.blocks) + " blocks of " +
                std::to_string(kv.block_tokens) + ")");
  out.requests = r.sent;
  out.warmup = stream.warmup;
  out.kv_blocks = kv.blocks;
  out.block_tokens = kv.block_tokens;
  out.preemptions = r.preemptions;

  const auto [base, statistic] = split_statistic(row.row->metric);
  out.statistic = statistic;
  const std::string notes = lower(row.row->notes);
  out.statistic_stated =
      statistic != "mean" ||
      ((notes.find("mean over") != std::string::npos || notes.find("average") != std::string::npos) &&
       notes.find("not stated") == std::string::npos);
  const int stat_index = percentile_index(statistic);  // (a lambda may not capture a structured binding)
  const auto pick = [&](const requests::MetricSummary& m) {
    out.p50 = m.percentile[0] * p.to_unit;
    const int i = stat_index;
    return (i < 0 ? m.mean : m.percentile[static_cast<std::size_t>(i)]) * p.to_unit;
  };
  switch (p.measure) {
    case Measure::prefill:
      out.predicted = pick(r.ttft);
      return out;
    case Measure::decode_step:
      out.predicted = pick(base == "itl" ? r.itl : r.tpot);
      return out;
    case Measure::request:
      switch (p.derived) {
        case Derived::time:
          out.predicted = pick(r.e2e);
          return out;
        case Derived::tokens_per_s:
          out.statistic = "rate";
          out.statistic_stated = true;
          out.predicted = r.output_tokens_per_s;
          return out;
        case Derived::tokens_per_s_per_pe:
          out.statistic = "rate";
          out.statistic_stated = true;
          out.predicted = r.output_tokens_per_s / static_cast<double>(p.n_devices);
          return out;
        case Derived::requests_per_s:
          out.statistic = "rate";
          out.statistic_stated = true;
          out.predicted = r.requests_per_s;
          return out;
        default:
          break;
      }
      break;
    default:
      break;
  }
  throw Error("not a request-level quantity");
}

}  // namespace tessera::accuracy
