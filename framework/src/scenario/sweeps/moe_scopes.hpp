#pragma once
// The default parallelism space offers attention data parallelism (ffn_shard_scope TP+CP+DP: the
// FFN sharded across DP ranks, every DP rank running attention on its own sequences) only to MoE
// models, as serving stacks do (SGLang --enable-dp-attention, vLLM's DP + EP, TensorRT-LLM
// enable_attention_dp all shard experts, never a dense FFN). A scenario listing the scope keeps it.
#include "scenario/readers/yaml_tree.hpp"
#include "scenario/scenario.hpp"
#include "tessera/export.hpp"

namespace tessera {

// Drops TP+CP+DP from `sweep`'s ffn_shard_scope list when the scenario (`tree`, after overrides)
// does not list sweep.parallelism.ffn_shard_scope and `model` has no MoE layers.
TESSERA_API void offer_attention_dp_to_moe_only(const loader::YNode& tree, const ModelSpec& model,
                                                Sweep& sweep);

}  // namespace tessera
