#pragma once
// Parameter counts of the model's parts (elements, not bytes). Internal to the physics.
#include "tessera/model.hpp"

namespace tessera {

double attention_params_per_layer(const ModelSpec& m);       // q, k, v, o (or MLA projections)
double ffn_params(const ModelSpec& m, double intermediate);  // one dense FFN of that width
double expert_params(const ModelSpec& m);                    // one routed or shared expert
double expert_matrix_params(const ModelSpec& m);             // its matrices only (GEMM FLOPs)
double embedding_params(const ModelSpec& m);                 // V * H
double indexer_params(const ModelSpec& m);                   // a sparse layer's lightning indexer
double linear_attention_params(const ModelSpec& m);          // one Gated DeltaNet layer
double mamba_params(const ModelSpec& m);                     // one Mamba-2 layer
double mixer_params(const ModelSpec& m, AttentionKind k);    // one layer's mixer of kind k

}  // namespace tessera
