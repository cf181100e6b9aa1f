#pragma once
// The number formats a launch script states (docs/frameworks.md "Precision"): data/frameworks.yaml
// writes a flag for a format with a `when:` item ROLE=FORMAT (weights=fp8, kv=fp8,
// activations=bf16). `weights` is the checkpoint's quantization: the narrowest format of the
// model's weight matrices (an MoE model whose experts are mxfp4 and whose attention is bf16 is an
// mxfp4 checkpoint, as gpt-oss is).
#include <optional>
#include <string>

#include "scenario/serving_stacks/stack_profile.hpp"
#include "scenario/serving_stacks/stacks_yaml.hpp"
#include "tessera/export.hpp"
#include "tessera/model.hpp"

namespace tessera {

TESSERA_API const char* format_role_name(FormatRole r);  // "weights", "kv", "activations"
// The checkpoint's weight format: the narrowest (fewest bytes) of every weight part's.
TESSERA_API DType checkpoint_weights(const DTypes& d);
// The model's formats as a launch script states them: a part the model lacks (experts of a dense
// model) does not make its checkpoint's format.
TESSERA_API DTypes served_dtypes(const ModelSpec& model);
TESSERA_API DType format_of(FormatRole r, const DTypes& d);
TESSERA_API bool format_holds(const FormatCondition& c, const DTypes& d);
// Sets `d`'s format of c's role to c's (a launch script read back: the weights' format stands for
// the checkpoint's).
TESSERA_API void set_format(const FormatCondition& c, DTypes& d);
// "" when the version writes a flag (or a comment) for every quantized format `d` serves (the
// checkpoint's weights and the KV cache narrower than 16 bits) and its activations are not
// quantized beyond what the checkpoint's method implies (fp8 weights run fp8 activations, nvfp4
// weights nvfp4 ones), else why it cannot: what --deploy refuses (exit 2) rather than write a
// script that serves another precision.
TESSERA_API std::string unwritable_precision(const ServingStackProfile& f, const DTypes& d);

namespace stacks_yaml {
// A `when:` item ROLE=FORMAT (its text holds '='), or nullopt with a diagnostic.
std::optional<FormatCondition> format_condition(const YNode& n, const std::string& path, Diags& d);
}  // namespace stacks_yaml

}  // namespace tessera
