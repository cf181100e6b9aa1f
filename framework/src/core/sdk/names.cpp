// Names of the small SDK enumerations (stage.hpp, kinds/latency_model.hpp, plugin/param_spec.hpp,
// plugin/descriptor.hpp).
#include "tessera/kinds/latency_model.hpp"
#include "tessera/plugin/descriptor.hpp"
#include "tessera/plugin/param_spec.hpp"
#include "tessera/stage.hpp"

namespace tessera {

const char* stage_block_name(StageBlock b) {
  switch (b) {
    case StageBlock::attention:
      return "attention";
    case StageBlock::ffn:
      return "ffn";
    case StageBlock::moe:
      return "moe";
    case StageBlock::head:
      return "head";
    case StageBlock::pipeline:
      return "pipeline";
  }
  return "unknown";
}

const char* step_kind_name(StepKind k) {
  switch (k) {
    case StepKind::decode_step:
      return "decode_step";
    case StepKind::pipeline_stage:
      return "pipeline_stage";
    case StepKind::prefill_chunk:
      return "prefill_chunk";
    case StepKind::single_stage:
      return "single_stage";
    case StepKind::mixed_step:
      return "mixed_step";
  }
  return "step";
}

const char* bound_name(Bound b) {
  switch (b) {
    case Bound::compute:
      return "compute";
    case Bound::memory:
      return "memory";
    case Bound::comm:
      return "comm";
    case Bound::overhead:
      return "overhead";
    case Bound::none:
      return "none";
  }
  return "unknown";
}

const char* param_type_name(ParamType t) {
  switch (t) {
    case ParamType::integer:
      return "int";
    case ParamType::real:
      return "real";
    case ParamType::boolean:
      return "bool";
    case ParamType::string:
      return "string";
    case ParamType::enumeration:
      return "enum";
    case ParamType::quantity:
      return "quantity";
    case ParamType::real_list:
      return "list";
  }
  return "unknown";
}

const char* plugin_kind_name(PluginKind k) {
  switch (k) {
    case PluginKind::latency:
      return "latency";
    case PluginKind::memory:
      return "memory";
    case PluginKind::search:
      return "search";
    case PluginKind::objective:
      return "objective";
    case PluginKind::serving:
      return "serving";
    case PluginKind::scheduler:
      return "scheduler";
  }
  return "unknown";
}

std::uint32_t plugin_kind_interface_version(PluginKind k) { return kind_interface_version(k); }

std::string plugin_kind_list() {
  std::string out;
  for (const PluginKind k : kAllPluginKinds)
    out += (out.empty() ? "" : ", ") + std::string(plugin_kind_name(k));
  return out;
}

}  // namespace tessera
