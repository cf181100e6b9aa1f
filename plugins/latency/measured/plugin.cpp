// Entry of latency/measured: its two scenario parameters and its roles: it falls back on
// latency/calibrated (created by the host, through the SDK) and reads calibrated's machine block.
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

// The host creates latency/calibrated from the parameters both declare (`framework`: its overhead
// profile; an unknown name is refused there) and hands it over (docs/plugin-guide.md "Roles").
tessera::PluginObject* create(const tessera::ParamSet& params,
                              std::shared_ptr<const tessera::LatencyModel> fallback) {
  using namespace tessera::plugins;
  const std::string dir = params.has("tables") ? params.text("tables") : std::string();
  return new MeasuredLatency(dir.empty() ? load_builtin_tables() : load_tables_from(dir),
                             params.text("framework"), std::move(fallback));
}

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::latency,
    .name = "measured",
    .version = "1.0.0",
    .summary = "measured operator tables (GEMM, attention, copy, all-reduce), interpolated in log space; "
               "latency/calibrated for every stage they do not cover, each stage marked in explain",
    .params = kParams,
    // No machine parameters of its own: it reads calibrated's block, with calibrated's schema.
    .fallback = "calibrated",
    .create_with_fallback = &create,
    .roles = tessera::kRoleErrorBand | tessera::kRoleKernelTables,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
