// The number formats of a launch script (scenario/serving_stacks/stack_precision.hpp).
#include "scenario/serving_stacks/stack_precision.hpp"

#include <array>

#include "core/text/nearest_name.hpp"

namespace tessera {

namespace {

constexpr std::array<const char*, 3> kRoles = {"weights", "kv", "activations"};

bool quantized(DType t) { return dtype_bytes(t) < 2; }

bool written_for(const ServingStackVersion& v, FormatRole role, DType t) {
  for (const ServingStackFlag& f : v.flags)
    for (const FormatCondition& c : f.formats)
      if (c.role == role && c.dtype == t) return true;
  return false;
}

}  // namespace

const char* format_role_name(FormatRole r) { return kRoles[static_cast<std::size_t>(r)]; }

DType checkpoint_weights(const DTypes& d) {
  DType out = d.weights;
  for (WeightPart p : {WeightPart::attention, WeightPart::ffn, WeightPart::experts,
                       WeightPart::shared_experts, WeightPart::lm_head, WeightPart::other})
    if (dtype_bytes(d.weights_of(p)) < dtype_bytes(out)) out = d.weights_of(p);
  return out;
}

DTypes served_dtypes(const ModelSpec& model) {
  DTypes d = model.dtype;
  if (!model.has_moe) d.expert_weights = std::nullopt;
  return d;
}

DType format_of(FormatRole r, const DTypes& d) {
  switch (r) {
    case FormatRole::weights:
      return checkpoint_weights(d);
    case FormatRole::kv:
      return d.kv;
    case FormatRole::activations:
      break;
  }
  return d.activations;
}

bool format_holds(const FormatCondition& c, const DTypes& d) { return format_of(c.role, d) == c.dtype; }

void set_format(const FormatCondition& c, DTypes& d) {
  if (c.role == FormatRole::weights) d.weights = c.dtype;
  if (c.role == FormatRole::kv) d.kv = c.dtype;
  if (c.role == FormatRole::activations) d.activations = c.dtype;
}

std::string unwritable_precision(const ServingStackProfile& f, const DTypes& d) {
  const ServingStackVersion& v = f.versions.front();
  const std::string who = f.title + " " + v.version;
  for (FormatRole r : {FormatRole::weights, FormatRole::kv}) {
    const DType t = format_of(r, d);
    if (!quantized(t) || written_for(v, r, t)) continue;
    return who + " has no flag for " + (r == FormatRole::weights ? "weights" : "a KV cache") + " in " +
           dtype_name(t) + " (data/frameworks.yaml lists none with `when: [" + format_role_name(r) + "=" +
           dtype_name(t) + "]`): a script would serve another precision than the study priced";
  }
  const DType act = d.activations, w = checkpoint_weights(d);
  if (quantized(act) && act != w)
    return who + " has no flag for activations in " + dtype_name(act) + " beside " + dtype_name(w) +
           " weights (a quantization method sets the activations' format with the weights': fp8 with fp8, "
           "nvfp4 with nvfp4)";
  return "";
}

namespace stacks_yaml {

std::optional<FormatCondition> format_condition(const YNode& n, const std::string& path, Diags& d) {
  const std::size_t eq = n.value.find('=');
  const std::string role = n.value.substr(0, eq), format = n.value.substr(eq + 1);
  FormatCondition c;
  std::size_t i = 0;
  while (i < kRoles.size() && role != kRoles[i]) ++i;
  if (i == kRoles.size()) {
    d.error(n.where, path + ": expected ROLE=FORMAT with ROLE weights, kv or activations, found '" + role +
                         "'" + did_you_mean(role, {kRoles.begin(), kRoles.end()}));
    return std::nullopt;
  }
  c.role = static_cast<FormatRole>(i);
  const std::optional<DType> t = dtype_from_name(format);
  if (!t) {
    d.error(n.where, path + ": expected a number format after '" + role + "=', found '" + format + "'" +
                         did_you_mean(format, dtype_names()));
    return std::nullopt;
  }
  c.dtype = *t;
  return c;
}

}  // namespace stacks_yaml

}  // namespace tessera
