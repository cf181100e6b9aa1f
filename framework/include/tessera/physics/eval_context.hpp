#pragma once
// Everything fixed for one scenario evaluation: the model, the machine, the workload, and
// the constants derived from them once (not per configuration).
#include "tessera/export.hpp"
#include "tessera/machine.hpp"
#include "tessera/model.hpp"
#include "tessera/workload.hpp"

namespace tessera {

struct EvalContext {
  const ModelSpec* model = nullptr;      // effective model (scenario dtype applied)
  const MachineSpec* machine = nullptr;  // effective machine (overrides applied)
  Workload workload;

  // Derived once by make_eval_context.
  double act_bytes = 2;     // a
  double weight_bytes = 2;  // w
  double kv_bytes = 2;      // k
  double gemm_peak = 0;     // FLOP/s for GEMMs: the wider of weight and activation dtypes
  double attn_peak = 0;     // FLOP/s for attention: the wider of KV and activation dtypes
  double hbm_bw = 0;        // B/s
  // Standard attention: 2*d elements per token per KV head. MLA: kv_lora_rank + rope_dim
  // elements per token for the single shared latent "head".
  double kv_elems_per_token_head = 0;
  std::int64_t kv_heads_eff = 0;  // h_kv, or 1 for MLA's shared latent cache
};

TESSERA_API EvalContext make_eval_context(const ModelSpec& model, const MachineSpec& machine,
                                          const Workload& workload);

}  // namespace tessera
