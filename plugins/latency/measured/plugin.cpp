// Entry of latency/measured: its two scenario parameters; its machine block is calibrated's
// (the machine file's `efficiency:` block, read through the same schema: calibrated.hpp).
#include <memory>

#include "measured.hpp"

namespace {

using tessera::Dimension;
using tessera::ParamSpec;
using tessera::ParamType;

const ParamSpec kParams[] = {
    {"framework", ParamType::string, Dimension::none, "generic", tessera::kNoMin, tessera::kNoMax, nullptr, 0,
     "serving framework: latency/calibrated's overhead profile for the stages no table covers (its choices: "
     "`tessera plugins latency/calibrated`), and the tables that apply (a table's `framework`, or any)"},
    {"tables", ParamType::string, Dimension::none, "", tessera::kNoMin, tessera::kNoMax, nullptr, 0,
     "folder (or one file) of operator tables to use instead of the built-in data/kernel-tables/*.csv "
     "(scripts/measure/ writes them; format in plugins/latency/measured/README.md)"},
};

tessera::PluginObject* create(const tessera::ParamSet& params) {
  using namespace tessera::plugins;
  const std::string& name = params.text("framework");
  const FrameworkProfile* p = find_framework_profile(name);
  if (!p) {
    std::string known;
    for (const FrameworkProfile& f : framework_profiles())
      known += (known.empty() ? "" : ", ") + std::string(f.name);
    throw tessera::PluginError("latency/measured: no overhead profile for framework '" + name + "' (" +
                               known + ")");
  }
  const std::string dir = params.has("tables") ? params.text("tables") : std::string();
  return new MeasuredLatency(dir.empty() ? load_builtin_tables() : load_tables_from(dir), name,
                             std::make_shared<const CalibratedLatency>(*p));
}

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::latency,
    .name = "measured",
    .version = "1.0.0",
    .summary = "measured operator tables (GEMM, attention, copy, all-reduce), interpolated in log space; "
               "latency/calibrated for every stage they do not cover, each stage marked in explain",
    .params = kParams,
    .machine_params = tessera::plugins::calibrated_machine_params(),
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
