#pragma once
// The plugin ABI. Each plugin library exports one entry, `tessera_plugin_entry`, returning
// a static descriptor. Its first two fields are plain integers so that the host can refuse
// a plugin built against another ABI before reading anything else.
#include <cstdint>
#include <iterator>
#include <memory>
#include <span>
#include <string>

#include "tessera/plugin/param_set.hpp"
#include "tessera/plugin/param_spec.hpp"
#include "tessera/plugin/plugin_object.hpp"
#include "tessera/version.hpp"

namespace tessera {

// The ABI covers the entry and this descriptor: bump it when either changes. A change to one
// kind's interface (or the types it passes), or a new kind, bumps that kind's interface version
// instead (docs/plugin-guide.md §11). 2: SDK v2 (every kind's interface changed with it); 3: the
// descriptor's roles (machine_block_key, fallback, create_with_fallback, roles, fit).
inline constexpr std::uint32_t kAbiVersion = 3;
// The SDK release a plugin is built against: the project version (tessera/version.hpp).
inline constexpr const char* kFrameworkVersion = kVersion;

enum class PluginKind : std::uint32_t {
  latency = 1,
  memory = 2,
  search = 3,
  objective = 4,
  serving = 5,
  scheduler = 6
};

// Every kind, in the order listings show them.
inline constexpr PluginKind kAllPluginKinds[] = {PluginKind::latency, PluginKind::memory,
                                                 PluginKind::search,  PluginKind::objective,
                                                 PluginKind::serving, PluginKind::scheduler};

// Interface version of each kind (checked after the ABI version).
// latency 2: Stage names its collective algorithm, LinkCost its group shape; 3: time_step is
// handed a StepCall (configuration, layout, step shape), Stage names its memory tier; 4: the
// mixed iteration of serving (StepKind::mixed_step, StepShape::mixed_*), Workload's serve mode;
// 5: Stage names where its time came from (Stage::source: a measured table or a fallback);
// 6: ModelSpec's layer kinds (layer_types, attention, moe.router_bias), EvalContext's local
// layer counts, the attn.core.sliding/.chunked stages; 7: EvalContext without the workload
// (immutable per model and machine), the step's workload in StepCall::workload;
// 8: PESpec::hbm_reported; 9: Stage::call_overhead_s; 10: ModelSpec::ffn_types (each layer's FFN);
// 11: the sparse, linear, mamba and none mixers (ModelSpec::sparse, linear, mamba;
// attention.output_gate; DTypes::state; EvalContext::state_bytes, mixer_layers;
// StepShape::ffn_free_layers; LayerFfn::none); 12: speculative decoding (a decode step of
// StepShape::queries new tokens per sequence, StepShape::draft_fc_inputs, the draft.fc stage;
// ModelSpec::mtp_layers); 13: the MoE exchange kernel per phase (EvalContext::moe_a2a),
// Collective::route_top_k, route_experts (DeepEP's normal kernels), MoESpec::load_cv, eplb,
// redundant_experts (the router's skew and the deployment's expert-parallel load balancer).
inline constexpr std::uint32_t kLatencyInterfaceVersion = 13;
// memory 2: LinkCost carries the group shape; 3: Workload's serve mode, input and output;
// 4: ModelSpec's layer kinds, EvalContext's local layer counts, ShardSizes' per-kind KV;
// 5: evaluate() is handed the workload beside an EvalContext that no longer holds it;
// 6: PESpec::hbm_reported; 7: ModelSpec::ffn_types; 8: the sparse, linear, mamba and none
// mixers (ModelSpec, EvalContext, ShardSizes' per-kind weights, index keys and state); 9:
// ModelSpec::mtp_layers; 10: EvalContext::moe_a2a; MoESpec::load_cv, eplb, redundant_experts
// ((E + R)/ep experts per rank).
inline constexpr std::uint32_t kMemoryInterfaceVersion = 10;
// search 2: SearchScore carries every objective's value; 3: SearchStrategy::separable (a
// strategy whose runs over slices of the space add up to its run over the whole); 4:
// PESpec::hbm_reported.
inline constexpr std::uint32_t kSearchInterfaceVersion = 4;
// objective 2: evaluate() is handed the evaluated step (EvaluatedStep: stages, totals, memory);
// 3: and the serving metrics in a serving study (EvaluatedStep::serving, ::prefill), the
// machine's price (MachineSpec::price); 4: ModelSpec's layer kinds; 5: evaluate() is handed the
// scenario's workload beside an EvalContext that no longer holds it; 6:
// PESpec::hbm_reported; 7: ModelSpec::ffn_types; 8: the sparse, linear, mamba and none mixers;
// 9: ModelSpec::mtp_layers; 10: EvalContext::moe_a2a; MoESpec::load_cv, eplb, redundant_experts.
inline constexpr std::uint32_t kObjectiveInterfaceVersion = 10;
// serving 1: the kind (kinds/serving_model.hpp); before its first release, StepTimer gained
// decode_iteration and mixed_step's `prompts` (still 1: no serving plugin was released on 1's first form).
// 2: ModelSpec's layer kinds and EvalContext's local layer counts; 3: EvalContext
// without the workload (ServingRequest carries ISL and OSL); 4: PESpec::hbm_reported; 5:
// ModelSpec::ffn_types; 6: the sparse, linear, mamba and none mixers; 7: ServingRequest::cached
// (the prompt's tokens found in the prefix cache); 8: speculative decoding (ServingPoint::
// speculative_tokens, tokens_per_verify; StepTimer::verify_step, draft_step), ModelSpec::mtp_layers;
// 9: EvalContext::moe_a2a; MoESpec::load_cv, eplb, redundant_experts.
inline constexpr std::uint32_t kServingInterfaceVersion = 9;
// scheduler 1: the kind (kinds/scheduler_policy.hpp).
inline constexpr std::uint32_t kSchedulerInterfaceVersion = 1;

// The interface version of kind `k` in the headers being compiled (a plugin's build, or the host's).
constexpr std::uint32_t kind_interface_version(PluginKind k) {
  switch (k) {
    case PluginKind::latency:
      return kLatencyInterfaceVersion;
    case PluginKind::memory:
      return kMemoryInterfaceVersion;
    case PluginKind::search:
      return kSearchInterfaceVersion;
    case PluginKind::objective:
      return kObjectiveInterfaceVersion;
    case PluginKind::serving:
      return kServingInterfaceVersion;
    case PluginKind::scheduler:
      return kSchedulerInterfaceVersion;
  }
  return 0;
}

TESSERA_API const char* plugin_kind_name(PluginKind k);  // "latency"
// "latency, memory, search, objective, serving, scheduler": every kind, for messages.
TESSERA_API std::string plugin_kind_list();
TESSERA_API std::uint32_t plugin_kind_interface_version(PluginKind k);

class LatencyModel;

// Roles a plugin takes beside its kind (docs/plugin-guide.md "Roles"): bits of
// PluginDescriptor::roles. The host reads them from the descriptor and names no plugin.
enum PluginRole : std::uint32_t {
  // Latency: its predictions print an error band, read from data/error-bands.csv rows under its
  // name (a family without rows borrows its fallback's band, if it declares a fallback).
  kRoleErrorBand = 1u << 0,
  // Latency: `tessera calibrate --bands` may score it held out (none of its values was built from
  // the measured rows a held-out fold leaves out).
  kRoleBandScored = 1u << 1,
  // Latency: its values come from the measured operator tables (data/kernel-tables/*.csv):
  // validate-data and calibrate leave out the rows those tables were built from.
  kRoleKernelTables = 1u << 2,
};
inline constexpr std::uint32_t kKnownRoles = kRoleErrorBand | kRoleBandScored | kRoleKernelTables;

// A value `tessera calibrate` may fit (docs/accuracy.md "The calibrated model"): a machine-block
// parameter (a machine family's value) or a scenario parameter (a serving stack's profile value,
// taken from parameters only when the plugin declares a `profile_overrides` parameter). The
// range is the documented physical one, narrowed further by the parameter's ParamSpec.
enum class FitScale : std::uint32_t {
  logit = 0,   // an efficiency in (0, 1), searched on a logit scale
  log_us = 1,  // a time (s), searched on a log scale in µs
  log = 2,     // a positive count, on a log scale
};
enum class FitOwner : std::uint32_t { machine_block = 0, scenario = 1 };
struct FitSpec {
  const char* name = nullptr;  // the parameter (machine-block key or scenario parameter)
  FitOwner owner = FitOwner::machine_block;
  FitScale scale = FitScale::logit;
  double lo = 0, hi = 1;    // the documented physical range (SI)
  double start = 0;         // scenario values: where the fit starts (SI); machine-block values
                            // start at their ParamSpec default
  bool needs_8bit = false;  // fitted only for a family with rows whose GEMMs run in <= 8 bits
};

// A latency plugin that falls back on another (PluginDescriptor::fallback) is created with it:
// the host creates the fallback from the parameters both declare and hands it over.
using CreateWithFallback = PluginObject* (*)(const ParamSet& params,
                                             std::shared_ptr<const LatencyModel> fallback);

struct PluginDescriptor {
  std::uint32_t abi_version;      // kAbiVersion the plugin was built against
  std::uint32_t descriptor_size;  // sizeof(PluginDescriptor) the plugin was built with
  PluginKind kind;
  std::uint32_t kind_version;     // k<Kind>InterfaceVersion the plugin was built against
  const char* name;               // id = "<kind>/<name>"
  const char* version;            // the plugin's semantic version
  const char* summary;            // one line
  const char* framework_version;  // kFrameworkVersion the plugin was built against
  const ParamSpec* params;        // scenario parameters: plugins: {<kind>: {name: ..., <params>}}
  std::uint32_t param_count;
  const ParamSpec* machine_params;  // latency plugins: the machine file's `plugins: {<name>: ...}` block
  std::uint32_t machine_param_count;
  // Creates the plugin object from validated parameters; may throw tessera::Error.
  PluginObject* (*create)(const ParamSet& params);
  // Roles (docs/plugin-guide.md "Roles"; latency plugins):
  const char* machine_block_key;            // a top-level machine-file key read as this plugin's machine
                                            // block, besides `plugins: {<name>: ...}`; nullptr: none
  const char* fallback;                     // the latency plugin this one falls back on; nullptr: none
  CreateWithFallback create_with_fallback;  // with a fallback: the factory (create unused)
  std::uint32_t roles;                      // PluginRole bits
  const FitSpec* fit;                       // the values `tessera calibrate` may fit
  std::uint32_t fit_count;
};

// What a plugin says about itself, by name (designated initialisers); make_descriptor() fills
// in the rest. Leave out what does not apply (a plugin without parameters, machine_params):
//   const PluginDescriptor kDescriptor = make_descriptor({
//       .kind = PluginKind::latency,
//       .name = "example",
//       .version = "1.0.0",
//       .summary = "one line",
//       .params = kParams,  // a `const ParamSpec kParams[]`: its length is taken, not written
//       .create = &create,
//   });
struct PluginInfo {
  PluginKind kind;
  const char* name;                        // id = "<kind>/<name>"
  const char* version;                     // the plugin's semantic version
  const char* summary;                     // one line
  std::span<const ParamSpec> params = {};  // scenario parameters
  std::span<const ParamSpec> machine_params =
      {};  // latency plugins: the machine's `plugins: {<name>: ...}` block
  PluginObject* (*create)(const ParamSet& params) = nullptr;
  // Roles (docs/plugin-guide.md "Roles"); leave out what does not apply.
  const char* machine_block_key = nullptr;
  const char* fallback = nullptr;
  CreateWithFallback create_with_fallback = nullptr;
  std::uint32_t roles = 0;
  std::span<const FitSpec> fit = {};
};

// The descriptor of `info`: the ABI version, descriptor size, kind interface version and
// framework version of the headers being compiled, and the length of each parameter table.
constexpr PluginDescriptor make_descriptor(const PluginInfo& info) {
  return PluginDescriptor{
      .abi_version = kAbiVersion,
      .descriptor_size = sizeof(PluginDescriptor),
      .kind = info.kind,
      .kind_version = kind_interface_version(info.kind),
      .name = info.name,
      .version = info.version,
      .summary = info.summary,
      .framework_version = kFrameworkVersion,
      .params = info.params.data(),
      .param_count = static_cast<std::uint32_t>(std::size(info.params)),
      .machine_params = info.machine_params.data(),
      .machine_param_count = static_cast<std::uint32_t>(std::size(info.machine_params)),
      .create = info.create,
      .machine_block_key = info.machine_block_key,
      .fallback = info.fallback,
      .create_with_fallback = info.create_with_fallback,
      .roles = info.roles,
      .fit = info.fit.data(),
      .fit_count = static_cast<std::uint32_t>(std::size(info.fit)),
  };
}

// The factory of a plugin that takes no parameters: `.create = &create_default<MyModel>`.
template <class T>
PluginObject* create_default(const ParamSet&) {
  return new T();
}

}  // namespace tessera

// Declares the plugin's entry. Use once per plugin library, in plugin.cpp:
//   TESSERA_PLUGIN(kDescriptor)   where kDescriptor is a namespace-scope PluginDescriptor.
// The entry is the exported object `tessera_plugin_entry`: a pointer to the function that returns
// the descriptor, laid out as Boost.DLL's BOOST_DLL_ALIAS lays out an alias (an `extern "C"`
// const void* with default visibility, weak, in the section "boostdll"), so
// boost::dll::import_alias reads it too. It is written out here rather than taken from
// <boost/dll/alias.hpp>: that header (with <filesystem> and Boost.Predef) more than doubled the
// preprocessed size of every file that includes the SDK (docs/testing.md "Build time").
#if !defined(__ELF__)
#error "TESSERA_PLUGIN: the plugin entry is defined for ELF platforms (Linux) only"
#endif
#define TESSERA_PLUGIN(descriptor)                                                                  \
  namespace {                                                                                       \
  const ::tessera::PluginDescriptor* tessera_plugin_entry_impl() { return &(descriptor); }          \
  }                                                                                                 \
  namespace _autoaliases {                                                                          \
  extern "C" __attribute__((visibility("default"))) const void* tessera_plugin_entry;               \
  __attribute__((section("boostdll"))) __attribute__((weak)) const void* tessera_plugin_entry =     \
      reinterpret_cast<const void*>(reinterpret_cast<::std::intptr_t>(&tessera_plugin_entry_impl)); \
  }
