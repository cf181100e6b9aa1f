#pragma once
// `serving.speculative`: speculative decoding as a serving engine runs it (docs/physics.md §12.8,
// docs/scenario-format.md "Speculative decoding"). Read by the field table
// (scenario/fields/fields_speculative.cpp); checked by scenario/speculative_check.cpp.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tessera/error.hpp"
#include "tessera/model.hpp"

namespace tessera {

// The drafter: an MTP module the model ships (DeepSeek-V3/R1's, one decoder layer with the
// model's own FFN and an input projection over 2 hidden sizes), an EAGLE head (EAGLE-3: one
// dense decoder layer and an input projection over 3 hidden sizes), both on the target's lm_head,
// or a separate draft model (any model file sharing the target's vocabulary: its whole decode step
// per draft, its own weights and KV).
enum class SpeculativeMethod : std::uint8_t { mtp, eagle, draft };

// The method's name in scenarios and data/frameworks.yaml.
inline const char* speculative_method_name(SpeculativeMethod m) {
  return m == SpeculativeMethod::mtp ? "mtp" : m == SpeculativeMethod::eagle ? "eagle" : "draft";
}

struct SpeculativeSpec {
  bool given = false;
  SpeculativeMethod method = SpeculativeMethod::mtp;
  std::int64_t steps = 0;  // k: draft tokens per sequence per iteration (the drafter runs k times)
  // Acceptance, one of: a rate a (the geometric model: each draft token accepted with probability
  // a once the ones before it were), or a_i by position (i = 1..k, each given the ones before).
  double acceptance = -1;  // < 0: not given
  std::vector<double> acceptance_by_position;
  std::string head;  // the drafter's checkpoint (an EAGLE head's, a draft model's), for --deploy
  // method draft: the draft model as loaded (serving.speculative.model).
  std::shared_ptr<const ModelSpec> draft_model;
  SourceLocation where;  // the `speculative:` key

  // Whether the scenario drafts (the block given with k > 0).
  bool on() const { return given && steps > 0; }
  // The drafter's input projection, in hidden sizes: an MTP module's eh_proj takes the token's
  // embedding and the hidden state (2), EAGLE-3's fc three of the target's hidden states (3).
  // A draft model has none (0).
  double draft_fc_inputs() const {
    return method == SpeculativeMethod::mtp ? 2.0 : method == SpeculativeMethod::eagle ? 3.0 : 0.0;
  }
  // Its decoder layer: the model's own (MoE where the model has experts) for MTP, dense for EAGLE.
  bool draft_moe() const { return method == SpeculativeMethod::mtp; }
  // The acceptance of draft position i (1-based, i <= k).
  double accepted(std::int64_t i) const {
    if (!acceptance_by_position.empty()) return acceptance_by_position[static_cast<std::size_t>(i - 1)];
    return acceptance;
  }
  // The mean tokens a sequence gains per verify step: 1 + sum_{i=1..k} prod_{j<=i} a_j (the
  // accepted drafts and the one token the verifier adds); 1 without speculation.
  double tokens_per_verify() const {
    if (!on()) return 1.0;
    double e = 1, run = 1;
    for (std::int64_t i = 1; i <= steps; ++i) {
      run *= accepted(i);
      e += run;
    }
    return e;
  }
};

}  // namespace tessera
