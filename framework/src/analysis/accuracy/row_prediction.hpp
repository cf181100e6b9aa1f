#pragma once
// Predicting a mapped row: its model and machine loaded (once per file), then the quantity the
// row measured computed with a latency model, in the row's unit.
#include <memory>
#include <vector>

#include "analysis/accuracy/row_plan.hpp"
#include "eval/spec_files.hpp"
#include "host/plugin_choice.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/latency_model.hpp"
#include "tessera/kinds/memory_model.hpp"
#include "tessera/machine.hpp"
#include "tessera/model.hpp"
#include "tessera/plugin/param_set.hpp"

namespace tessera::accuracy {

// A mapped row with its model and machine loaded (once), ready to predict many times.
struct PreparedRow {
  const DataRow* row = nullptr;
  RowPlan plan;
  ModelSpec model;                       // dtypes applied
  MachineSpec machine;                   // efficiency left empty: the caller supplies it
  std::vector<RawParam> efficiency_raw;  // the machine file's `efficiency:` block as written
};
TESSERA_API PreparedRow prepare_row(const DataRow& row, const RowPlan& plan);

// Model and machine files read once each, for preparing many rows (validate_data: a CSV of
// 200k rows names a handful of files).
using PreparedFiles = SpecFiles;
TESSERA_API PreparedRow prepare_row(const DataRow& row, const RowPlan& plan, PreparedFiles& files);

// A collective row's prediction in detail (SI): the time, the algorithm the physics chose and
// the rates the latency model applied.
struct CollectiveDetail {
  double seconds = 0;
  CollAlgorithm algorithm = CollAlgorithm::ring;
  Protocol protocol = Protocol::none;
  double bw_efficiency = 1, extra_latency_s = 0;
};

// The prediction in the row's unit, with `latency` and the machine's validated efficiency
// block. Throws Error when the configuration is not valid on the machine. Collective rows
// fill `detail` when given.
TESSERA_API double predict_row(const PreparedRow& row, const std::shared_ptr<const LatencyModel>& latency,
                               const ParamSet& efficiency, const std::shared_ptr<const MemoryModel>& memory,
                               CollectiveDetail* detail = nullptr);

}  // namespace tessera::accuracy
