// The model file's fields (field_table.hpp), with the paths they take inside a scenario.
// docs/scenario-format.md "Model file".
#include <iterator>

#include "scenario/fields/field_row_builders.hpp"

namespace tessera::schema {

namespace {

using namespace rows;
constexpr FieldFile M = FieldFile::model;
constexpr double kDim = kNoMax;  // bounded by the limit model.dimension
constexpr const char* kLimit = "model.dimension";

constexpr ParamChoice kModelKind[] = {{"model", "a model file"}};
constexpr ParamChoice kFfnKinds[] = {{"gated", "SwiGLU/GeGLU: gate, up and down projections (3 matrices)"},
                                     {"plain", "up and down projections (2 matrices)"}};
constexpr ParamChoice kLayerKinds[] = {
    {"full", "attention over every earlier token"},
    {"sliding", "attention over the last attention.sliding_window tokens"},
    {"chunked", "attention over the tokens of its own chunk of attention.chunk tokens"},
    {"sparse", "attention over the sparse_attention.top_k earlier tokens an indexer picks (DeepSeek-V3.2)"},
    {"linear", "Gated DeltaNet linear attention of the linear_attention block: a recurrent state, no KV"},
    {"mamba", "a Mamba-2 mixer of the mamba block: a recurrent state, no KV"},
    {"none", "no token mixer (Nemotron-H's MLP-only layers)"}};

constexpr ParamChoice kLayerFfns[] = {{"dense", "the dense FFN of size ffn"},
                                      {"moe", "the mixture of experts of the moe block"},
                                      {"none", "no FFN (Nemotron-H's mamba and attention layers)"}};

constexpr FieldRow kModelRows[] = {
    integer("model.schema_version", M, nullptr, 1, 1, "file format version: 1 (required in a model file)"),
    choice("model.kind", M, nullptr, kModelKind, "model (required in a model file)"),
    text("model.name", M, nullptr, "the model's name, e.g. Llama-3.1-70B (required in a model file)"),
    text("model.description", M, "", "free text"),
    text("model.hf_id", M, "",
         "the model's Hugging Face repository (e.g. meta-llama/Llama-3.1-70B-Instruct), named by --deploy's "
         "launch lines; absent: the model's name"),
    integer("model.layers", M, nullptr, 1, kDim, "transformer layers L",
            int_slot([](const FieldSite& s) { return &s.model->layers; }), kLimit),
    integer("model.hidden", M, nullptr, 1, kDim, "hidden size H",
            int_slot([](const FieldSite& s) { return &s.model->hidden; }), kLimit),
    integer("model.heads", M, nullptr, 1, kDim, "attention (query) heads",
            int_slot([](const FieldSite& s) { return &s.model->heads; }), kLimit),
    integer("model.kv_heads", M, "", 1, kDim, "key/value heads, a divisor of heads; absent: heads (no GQA)",
            int_slot([](const FieldSite& s) { return &s.model->kv_heads; }), kLimit),
    integer("model.head_dim", M, "", 1, kDim,
            "width of one head; absent: hidden / heads (MLA: mla.nope_dim + mla.rope_dim)",
            int_slot([](const FieldSite& s) { return &s.model->head_dim; }), kLimit),
    integer("model.ffn", M, nullptr, 1, kDim, "intermediate size I of the dense FFN",
            int_slot([](const FieldSite& s) { return &s.model->ffn; }), kLimit),
    choice("model.ffn_kind", M, "gated", kFfnKinds, "FFN shape"),
    integer("model.vocab", M, nullptr, 1, kDim, "vocabulary size V",
            int_slot([](const FieldSite& s) { return &s.model->vocab; }), kLimit),
    integer("model.mtp_layers", M, "0", 0, 16,
            "multi-token-prediction modules the checkpoint ships (HF num_nextn_predict_layers), drafters for "
            "serving.speculative method mtp; not among `layers`",
            int_slot([](const FieldSite& s) { return &s.model->mtp_layers; })),
    boolean("model.tied_embeddings", M, "false", "the LM head shares the embedding matrix",
            bool_slot([](const FieldSite& s) { return &s.model->tied_embeddings; })),
    mapping("model.bias", M, "", "which projections carry a bias vector: {attention, mlp}"),
    boolean("model.bias.attention", M, "false", "the Q, K, V (and output) projections carry a bias",
            bool_slot([](const FieldSite& s) { return &s.model->attention_bias; })),
    boolean("model.bias.mlp", M, "false", "the FFN projections carry a bias",
            bool_slot([](const FieldSite& s) { return &s.model->mlp_bias; })),
    mapping("model.dtype", M, "", "number formats of the model's parts (a scenario's dtype: overrides them)"),
    dtype("model.dtype.weights", M, "bf16", "every weight matrix whose part is not named below"),
    dtype("model.dtype.attention_weights", M, "", "attention projection weights; absent: weights"),
    dtype("model.dtype.ffn_weights", M, "", "dense FFN weights; absent: weights"),
    dtype("model.dtype.expert_weights", M, "", "routed and shared expert weights; absent: weights"),
    dtype("model.dtype.lm_head_weights", M, "", "LM head (and embedding) weights; absent: weights"),
    dtype("model.dtype.kv", M, "bf16", "KV cache storage"),
    dtype("model.dtype.attention", M, "",
          "the format attention computes in (QK^T, PV); absent: the wider of activations and bf16"),
    dtype("model.dtype.activations", M, "bf16", "activations between layers and GEMM inputs"),
    dtype("model.dtype.dispatch", M, "", "MoE dispatch payload and expert GEMM input; absent: activations"),
    dtype("model.dtype.state", M, "",
          "recurrent state of linear and mamba layers; absent: activations (vLLM's mamba cache "
          "dtype auto)"),
    mapping("model.moe", M, "", "mixture of experts; absent: a dense model"),
    integer("model.moe.experts", M, nullptr, 1, kDim, "routed experts E",
            int_slot([](const FieldSite& s) { return &s.model->moe.experts; }), kLimit),
    integer("model.moe.top_k", M, nullptr, 1, kDim, "distinct experts per token K, at most experts",
            int_slot([](const FieldSite& s) { return &s.model->moe.top_k; }), kLimit),
    integer("model.moe.expert_ffn", M, nullptr, 1, kDim, "intermediate size of one expert",
            int_slot([](const FieldSite& s) { return &s.model->moe.expert_ffn; }), kLimit),
    integer("model.moe.shared_experts", M, "0", 0, kDim, "always-on experts of size expert_ffn",
            int_slot([](const FieldSite& s) { return &s.model->moe.shared_experts; }), kLimit),
    integer("model.moe.dense_layers", M, "0", 0, kDim, "leading layers with the dense FFN, fewer than layers",
            int_slot([](const FieldSite& s) { return &s.model->moe.dense_layers; }), kLimit),
    boolean("model.moe.router_bias", M, "false", "the router carries a bias vector of experts (gpt-oss)",
            bool_slot([](const FieldSite& s) { return &s.model->moe.router_bias; })),
    real("model.moe.load_cv", M, "0", 0, 10, false,
         "the router's systematic skew: coefficient of variation of the experts' routed load, fitted "
         "to a published measurement (docs/physics.md §4 \"MoE load\"); 0: uniform routing",
         real_slot([](const FieldSite& s) { return &s.model->moe.load_cv; })),
    mapping("model.mla", M, "", "multi-head latent attention (DeepSeek-V2/V3); absent: standard attention"),
    integer("model.mla.kv_lora_rank", M, nullptr, 1, kDim, "compressed KV width (cached)",
            int_slot([](const FieldSite& s) { return &s.model->mla.kv_lora_rank; }), kLimit),
    integer("model.mla.q_lora_rank", M, "0", 0, kDim, "compressed Q width; 0: no Q compression",
            int_slot([](const FieldSite& s) { return &s.model->mla.q_lora_rank; }), kLimit),
    integer("model.mla.rope_dim", M, nullptr, 1, kDim, "decoupled RoPE key width (cached)",
            int_slot([](const FieldSite& s) { return &s.model->mla.rope_dim; }), kLimit),
    integer("model.mla.nope_dim", M, nullptr, 1, kDim, "per-head non-RoPE query/key width",
            int_slot([](const FieldSite& s) { return &s.model->mla.nope_dim; }), kLimit),
    integer("model.mla.v_head_dim", M, nullptr, 1, kDim, "per-head value width",
            int_slot([](const FieldSite& s) { return &s.model->mla.v_head_dim; }), kLimit),
    list(choice("model.layer_types", M, "", kLayerKinds,
                "each layer's attention kind, one per layer in order (Hugging Face's layer_types: "
                "full_attention, sliding_attention); absent: every layer full")),
    list(choice("model.layer_pattern", M, "", kLayerKinds,
                "the attention kinds of a group of layers, repeated to cover the layers and cut at "
                "layers ([sliding, sliding, sliding, full]: 3 sliding to 1 full); not with layer_types")),
    list(choice(
        "model.ffn_types", M, "", kLayerFfns,
        "each layer's FFN, one per layer in order (Llama-4 Maverick's alternating dense and moe "
        "layers); not with moe.dense_layers; absent: moe.dense_layers leading dense layers, then moe")),
    list(choice("model.ffn_pattern", M, "", kLayerFfns,
                "the FFN kinds of a group of layers, repeated to cover the layers and cut at layers "
                "([dense, moe]: every second layer moe); not with ffn_types")),
    mapping("model.attention", M, "", "local attention sizes and attention sinks"),
    integer("model.attention.sliding_window", M, "", 1, kDim,
            "W: tokens a sliding layer's query reads, its own included (required with a sliding layer)",
            int_slot([](const FieldSite& s) { return &s.model->attention.sliding_window; }), kLimit),
    integer(
        "model.attention.chunk", M, "", 1, kDim,
        "C: chunk size of a chunked layer (Llama 4's attention_chunk_size; required with a chunked layer)",
        int_slot([](const FieldSite& s) { return &s.model->attention.chunk; }), kLimit),
    boolean("model.attention.sinks", M, "false",
            "one learned sink logit per query head and layer (gpt-oss): parameters, no KV",
            bool_slot([](const FieldSite& s) { return &s.model->attention.sinks; })),
    boolean("model.attention.output_gate", M, "false",
            "a sigmoid gate on each head's output from a query projection twice as wide (Qwen3-Next)",
            bool_slot([](const FieldSite& s) { return &s.model->attention.output_gate; })),
    mapping("model.sparse_attention", M, "",
            "DeepSeek sparse attention's indexer and top-k (required with a sparse layer)"),
    integer("model.sparse_attention.index_heads", M, nullptr, 1, kDim, "the lightning indexer's heads",
            int_slot([](const FieldSite& s) { return &s.model->sparse.index_heads; }), kLimit),
    integer("model.sparse_attention.index_head_dim", M, nullptr, 1, kDim,
            "width of an indexer head and of the index key cached per token (FP8, one fp32 scale)",
            int_slot([](const FieldSite& s) { return &s.model->sparse.index_head_dim; }), kLimit),
    integer("model.sparse_attention.top_k", M, nullptr, 1, kDim, "earlier tokens each query attends to",
            int_slot([](const FieldSite& s) { return &s.model->sparse.top_k; }), kLimit),
    mapping("model.linear_attention", M, "", "Gated DeltaNet's sizes (required with a linear layer)"),
    integer("model.linear_attention.key_heads", M, nullptr, 1, kDim, "query and key heads n_k",
            int_slot([](const FieldSite& s) { return &s.model->linear.key_heads; }), kLimit),
    integer("model.linear_attention.value_heads", M, nullptr, 1, kDim,
            "value heads n_v, a multiple of key_heads; one state each",
            int_slot([](const FieldSite& s) { return &s.model->linear.value_heads; }), kLimit),
    integer("model.linear_attention.key_head_dim", M, nullptr, 1, kDim, "key head width d_k",
            int_slot([](const FieldSite& s) { return &s.model->linear.key_head_dim; }), kLimit),
    integer("model.linear_attention.value_head_dim", M, nullptr, 1, kDim, "value head width d_v",
            int_slot([](const FieldSite& s) { return &s.model->linear.value_head_dim; }), kLimit),
    integer("model.linear_attention.conv_kernel", M, "4", 1, kDim,
            "width of the causal convolution over q, k and v",
            int_slot([](const FieldSite& s) { return &s.model->linear.conv_kernel; }), kLimit),
    integer("model.linear_attention.chunk", M, "64", 1, kDim,
            "chunk of the prefill scan (flash-linear-attention's chunk_gated_delta_rule: 64)",
            int_slot([](const FieldSite& s) { return &s.model->linear.chunk; }), kLimit),
    mapping("model.mamba", M, "", "Mamba-2's sizes (required with a mamba layer)"),
    integer("model.mamba.heads", M, nullptr, 1, kDim, "SSM heads n_h (inner width heads x head_dim)",
            int_slot([](const FieldSite& s) { return &s.model->mamba.heads; }), kLimit),
    integer("model.mamba.head_dim", M, nullptr, 1, kDim, "channels P of one head",
            int_slot([](const FieldSite& s) { return &s.model->mamba.head_dim; }), kLimit),
    integer("model.mamba.state_size", M, nullptr, 1, kDim, "state size N per channel",
            int_slot([](const FieldSite& s) { return &s.model->mamba.state_size; }), kLimit),
    integer("model.mamba.groups", M, "1", 1, kDim, "groups n_g sharing B and C, a divisor of heads",
            int_slot([](const FieldSite& s) { return &s.model->mamba.groups; }), kLimit),
    integer("model.mamba.conv_kernel", M, "4", 1, kDim, "width of the causal convolution over x, B and C",
            int_slot([](const FieldSite& s) { return &s.model->mamba.conv_kernel; }), kLimit),
    integer("model.mamba.chunk", M, "256", 1, kDim,
            "chunk Q of the SSD algorithm in prefill (mamba_ssm's default 256; HF chunk_size)",
            int_slot([](const FieldSite& s) { return &s.model->mamba.chunk; }), kLimit),
    boolean("model.parallel_block", M, "false", "attention and FFN read the same input (GPT-J, Falcon)",
            bool_slot([](const FieldSite& s) { return &s.model->parallel_block; })),
};

}  // namespace

std::span<const FieldRow> model_field_rows() { return {kModelRows, std::size(kModelRows)}; }

}  // namespace tessera::schema
