#pragma once
// latency/measured: measured operator tables where they cover a stage, latency/calibrated for
// every other stage (README.md; docs/accuracy.md "Measured kernel tables").
//
// Per work stage: calibrated times the whole step first; then each stage whose operator, machine,
// format and shape a table covers (kernel_table.hpp) takes the table's time, interpolated
// multilinearly in log space, plus the stage's other kernels at calibrated's per-kernel cost.
// Every stage says where its time came from (Stage::source): "table NAME", or "fallback:
// calibrated (why)". Stages calibrated appends (step.overhead) stay calibrated's.
#include <memory>
#include <string>
#include <vector>

#include "kernel_table.hpp"
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// The tables built into the plugin (data/kernel-tables/*.csv at build time, tables_builtin.cpp):
// file stem and text of each.
struct BuiltinTable {
  const char* name;
  const char* text;
};
const std::vector<BuiltinTable>& builtin_tables();

// Tables parsed from the built-in texts, or from the CSV files of `dir` (a folder, or one file).
std::vector<KernelTable> load_builtin_tables();
std::vector<KernelTable> load_tables_from(const std::string& dir);

class MeasuredLatency final : public LatencyModel {
 public:
  MeasuredLatency(std::vector<KernelTable> tables, std::string framework,
                  std::shared_ptr<const LatencyModel> fallback)
      : tables_(std::move(tables)), framework_(std::move(framework)), fallback_(std::move(fallback)) {}
  void time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const override;

  const std::vector<KernelTable>& tables() const { return tables_; }

 private:
  std::vector<KernelTable> tables_;
  std::string framework_;  // the serving stack's name: a table applies to it or to "any"
  // The model it falls back on (its descriptor's fallback, created by the host: latency/calibrated).
  std::shared_ptr<const LatencyModel> fallback_;
};

// The reasons a stage falls back on calibrated without a table range (static strings).
inline constexpr const char* kNotTabled = "fallback: calibrated (no operator table covers this stage's kind)";
inline constexpr const char* kNoTable =
    "fallback: calibrated (no table for this operator, format and machine)";
inline constexpr const char* kStepStage = "calibrated (step overhead)";

}  // namespace tessera::plugins
