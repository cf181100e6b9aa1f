#pragma once
// Models, machines and an evaluation helper for the physics tests, built directly in C++
// (no YAML): these tests check the physics, not the loader.
//
// Every number here is the published dimension of the model or the machine (docs/specification.md §2); the
// tests derive their expected values from these dimensions by hand, never from the code.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "eval/evaluator.hpp"
#include "latency/overlap/overlap.hpp"
#include "latency/roofline/roofline.hpp"
#include "memory/standard/standard.hpp"
#include "tessera/machine.hpp"
#include "tessera/model.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/workload.hpp"

namespace tessera::test {

// ---- models ----------------------------------------------------------------------------

// Llama-3.1-70B: L80 H8192 h_q64 h_kv8 d128 I28672 gated V128256 untied, bf16.
inline ModelSpec llama31_70b() {
  ModelSpec m;
  m.name = "Llama-3.1-70B";
  m.layers = 80;
  m.hidden = 8192;
  m.heads = 64;
  m.kv_heads = 8;
  m.head_dim = 128;
  m.ffn = 28672;
  m.ffn_kind = FfnKind::gated;
  m.vocab = 128256;
  m.tied_embeddings = false;
  return m;
}

// Llama-3.1-8B: L32 H4096 h_q32 h_kv8 d128 I14336 gated V128256 untied, bf16.
inline ModelSpec llama31_8b() {
  ModelSpec m;
  m.name = "Llama-3.1-8B";
  m.layers = 32;
  m.hidden = 4096;
  m.heads = 32;
  m.kv_heads = 8;
  m.head_dim = 128;
  m.ffn = 14336;
  m.ffn_kind = FfnKind::gated;
  m.vocab = 128256;
  m.tied_embeddings = false;
  return m;
}

// Mixtral-8x7B: L32 H4096 h_q32 h_kv8 d128, 8 experts top-2 of I_e 14336, no shared or dense
// layers, V32000 untied, bf16.
inline ModelSpec mixtral_8x7b() {
  ModelSpec m;
  m.name = "Mixtral-8x7B";
  m.layers = 32;
  m.hidden = 4096;
  m.heads = 32;
  m.kv_heads = 8;
  m.head_dim = 128;
  m.ffn = 14336;
  m.ffn_kind = FfnKind::gated;
  m.vocab = 32000;
  m.tied_embeddings = false;
  m.has_moe = true;
  m.moe.experts = 8;
  m.moe.top_k = 2;
  m.moe.expert_ffn = 14336;
  m.moe.shared_experts = 0;
  m.moe.dense_layers = 0;
  return m;
}

// GPT-3-175B: multi-head attention (h_kv = h_q), plain (GELU) FFN, tied embeddings, biases.
// L96 H12288 h_q96 h_kv96 d128 I49152 V50257.
inline ModelSpec gpt3_175b() {
  ModelSpec m;
  m.name = "GPT-3-175B";
  m.layers = 96;
  m.hidden = 12288;
  m.heads = 96;
  m.kv_heads = 96;
  m.head_dim = 128;
  m.ffn = 49152;
  m.ffn_kind = FfnKind::plain;
  m.vocab = 50257;
  m.tied_embeddings = true;
  m.attention_bias = true;
  m.mlp_bias = true;
  return m;
}

// DeepSeek-V3: MLA (kv_lora 512, q_lora 1536, rope 64, nope 128, v 128), L61 H7168 h_q128,
// 3 dense layers of I 18432, then MoE: 256 routed experts top-8 of I_e 2048 + 1 shared,
// V129280 untied.
inline ModelSpec deepseek_v3() {
  ModelSpec m;
  m.name = "DeepSeek-V3";
  m.layers = 61;
  m.hidden = 7168;
  m.heads = 128;
  m.kv_heads = 128;
  m.head_dim = 192;  // nope + rope
  m.ffn = 18432;
  m.ffn_kind = FfnKind::gated;
  m.vocab = 129280;
  m.tied_embeddings = false;
  m.has_moe = true;
  m.moe.experts = 256;
  m.moe.top_k = 8;
  m.moe.expert_ffn = 2048;
  m.moe.shared_experts = 1;
  m.moe.dense_layers = 3;
  m.has_mla = true;
  m.mla.kv_lora_rank = 512;
  m.mla.q_lora_rank = 1536;
  m.mla.rope_dim = 64;
  m.mla.nope_dim = 128;
  m.mla.v_head_dim = 128;
  return m;
}

// ---- machines --------------------------------------------------------------------------

inline void set_peak(MachineSpec& m, DType t, double flops) {
  m.pe.flops[static_cast<std::size_t>(t)] = flops;
}

// DGX-H100 cluster: 8 GPUs per node on NVLink (450 GB/s, 3 us), 32 nodes on 50 GB/s per GPU
// (8 us), each node's uplink 400 GB/s.
inline MachineSpec dgx_h100() {
  MachineSpec m;
  m.name = "DGX-H100";
  m.pe.name = "gpu";
  set_peak(m, DType::bf16, 989e12);
  set_peak(m, DType::fp8, 1979e12);
  m.pe.hbm_capacity = 80e9;
  m.pe.hbm_bandwidth = 3.35e12;
  m.pe.hbm_usable = 0.92;
  m.levels.push_back({"node", 8, 450e9, 3e-6, LinkTopology::switched, 0});
  m.levels.push_back({"cluster", 32, 50e9, 8e-6, LinkTopology::switched, 400e9});
  m.stage_overhead = 0;
  return m;
}

// The seed's machine: PE 128/256 TFLOP/s (bf16/fp8), 16 GB HBM at 1 TB/s (usable 0.9);
// cube of 16 PEs (400 GB/s, 0.1 us, all-to-all), sip of 8 cubes (200 GB/s, 0.3 us, ring),
// system of 16 sips (100 GB/s, 1 us, switch).
inline MachineSpec cube_sip() {
  MachineSpec m;
  m.name = "cube-sip";
  m.pe.name = "pe";
  set_peak(m, DType::bf16, 128e12);
  set_peak(m, DType::fp8, 256e12);
  m.pe.hbm_capacity = 16e9;
  m.pe.hbm_bandwidth = 1e12;
  m.pe.hbm_usable = 0.9;
  m.levels.push_back({"cube", 16, 400e9, 0.1e-6, LinkTopology::all_to_all, 0});
  m.levels.push_back({"sip", 8, 200e9, 0.3e-6, LinkTopology::ring, 0});
  m.levels.push_back({"system", 16, 100e9, 1e-6, LinkTopology::switched, 0});
  m.stage_overhead = 0;
  return m;
}

// ---- workloads and configs ----------------------------------------------------------------

inline Workload decode(std::int64_t context, std::int64_t batch = 1) {
  Workload w;
  w.mode = Mode::decode;
  w.context = context;
  w.batch = batch;
  return w;
}

inline Workload prefill(std::int64_t context, std::int64_t batch = 1, std::int64_t chunk = 0) {
  Workload w;
  w.mode = Mode::prefill;
  w.context = context;
  w.batch = batch;
  w.chunk = chunk;
  return w;
}

enum class Latency { overlap, roofline };

// Evaluates one configuration with the reference plugins linked directly (no plugin host):
// latency/overlap or latency/roofline, memory/standard with no reserve, no objectives.
inline Evaluation evaluate(const ModelSpec& model, const MachineSpec& machine, const Workload& workload,
                           const ParallelConfig& config, Latency which = Latency::overlap) {
  const EvalContext ctx = make_eval_context(model, machine);
  std::shared_ptr<const LatencyModel> lat;
  if (which == Latency::overlap)
    lat = std::make_shared<tessera::plugins::OverlapLatency>();
  else
    lat = std::make_shared<tessera::plugins::RooflineLatency>();
  const Evaluator ev(ctx, workload, lat, std::make_shared<tessera::plugins::StandardMemory>(0.0), {});
  Evaluation out;
  ev.evaluate(config, out);
  return out;
}

// Attention-DP: dp replicas of tp, the FFN sharded over all tp x dp ranks, experts over ep of them.
inline ParallelConfig attention_dp_config(int tp, int dp, int ep) {
  ParallelConfig c;
  c.tp = tp;
  c.dp = dp;
  c.ep = ep;
  c.ffn_shard_scope = FfnShardScope::tp_cp_dp;
  return c;
}

// The step work's stage of that name, or nullptr.
inline const StageWork* work_stage(const Evaluation& e, const char* name) {
  for (int i = 0; i < e.work.size; ++i)
    if (std::string_view(e.work.stages[static_cast<std::size_t>(i)].name) == name)
      return &e.work.stages[static_cast<std::size_t>(i)];
  return nullptr;
}

// The stage of that name, or nullptr.
inline const Stage* find_stage(const Evaluation& e, const std::string& name) {
  for (const Stage& s : e.stages)
    if (name == s.name) return &s;
  return nullptr;
}

}  // namespace tessera::test
