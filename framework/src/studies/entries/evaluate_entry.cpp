#include "studies/entries/evaluate_entry.hpp"

#include <cmath>

#include "analysis/search/search_driver.hpp"
#include "core/cancellation.hpp"
#include "eval/batch_evaluator.hpp"
#include "eval/grid_space.hpp"
#include "studies/documents/search_document.hpp"

namespace tessera::studies {
namespace {

struct NumberColumn {
  const char* name;
  double ConfigRecord::*field;
};
constexpr std::array<NumberColumn, kEvaluateNumbers> kNumbers = {{
    {"latency_s", &ConfigRecord::latency_s},
    {"throughput_tok_s", &ConfigRecord::throughput_tok_s},
    {"pipeline_throughput_tok_s", &ConfigRecord::pipeline_throughput_tok_s},
    {"efficiency", &ConfigRecord::efficiency},
    {"compute_util", &ConfigRecord::compute_util},
    {"bw_util", &ConfigRecord::bw_util},
    {"weights_bytes", &ConfigRecord::weights_bytes},
    {"kv_bytes", &ConfigRecord::kv_bytes},
    {"transient_bytes", &ConfigRecord::transient_bytes},
    {"used_bytes", &ConfigRecord::used_bytes},
    {"budget_bytes", &ConfigRecord::budget_bytes},
    {"hbm_utilization", &ConfigRecord::hbm_utilization},
}};

}  // namespace

const std::array<const char*, kEvaluateNumbers>& evaluate_number_columns() {
  static const std::array<const char*, kEvaluateNumbers> names = [] {
    std::array<const char*, kEvaluateNumbers> n{};
    for (std::size_t d = 0; d < kNumbers.size(); ++d) n[d] = kNumbers[d].name;
    return n;
  }();
  return names;
}

std::vector<std::string> objective_columns(const Session& session) {
  std::vector<std::string> names;
  for (const auto& o : session.evaluator().objectives())
    names.push_back("objective_" + objective_key(objective_info(o)));
  return names;
}

void evaluate_batch(const Session& session, const std::vector<ParallelConfig>& configs, unsigned threads,
                    const EvaluateColumns& out, const std::function<void(std::size_t done)>& on_progress) {
  BatchEvaluator pool(threads);
  std::vector<Evaluation> buffers(pool.threads());
  std::vector<ConfigRecord> records(pool.threads());
  const double nan = std::nan("");
  pool.run_indexed(
      configs.size(),
      [&](std::size_t begin, std::size_t end, std::size_t t) {
        Evaluation& e = buffers[t];
        ConfigRecord& r = records[t];
        for (std::size_t i = begin; i < end; ++i) {
          session.evaluator().evaluate(configs[i], e);
          fill_record_numbers(session, e, r);
          for (std::size_t d = 0; d < kNumbers.size(); ++d)
            out.numbers[d][i] = r.valid ? r.*kNumbers[d].field : nan;
          for (std::size_t o = 0; o < out.objectives.size(); ++o)
            out.objectives[o][i] = r.valid ? r.objectives[o] : nan;
          out.pes[i] = r.pes;
          out.valid[i] = r.valid;
          out.fits_memory[i] = r.fits_memory;
          out.feasible[i] = r.feasible;
        }
      },
      on_progress);
  throw_if_cancelled();
}

std::vector<ParallelConfig> sweep_configurations(const Session& session) {
  const GridSpace space(session.scenario().sweep, session.model(), session.machine(),
                        session.scenario().workload);
  return space.valid_configs();
}

}  // namespace tessera::studies
