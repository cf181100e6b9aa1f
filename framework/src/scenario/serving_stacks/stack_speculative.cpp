// A framework version's speculative decoding (stack_speculative.hpp).
#include "scenario/serving_stacks/stack_speculative.hpp"

#include "scenario/readers/schema_util.hpp"
#include "scenario/serving_stacks/stacks_yaml.hpp"

namespace tessera::stacks_yaml {

void read_speculative(const YNode& version, const std::string& path, ServingStackVersion& v, Diags& d) {
  const YNode* n = version.find("speculative");
  if (!n) return;
  const std::string p = path + ".speculative";
  if (!loader::expect_mapping(*n, p, d)) return;
  loader::check_keys(*n, p, {"value", "no_attention_dp", "source"}, d);
  v.speculative.source = text_of(*n, p, "source", true, d);
  const std::vector<std::string> methods{"mtp", "eagle", "draft"};
  for (std::size_t i : pick_list(*n, p, methods, "a list of drafters ([mtp, eagle, draft] or [])", d))
    v.speculative.methods.push_back(static_cast<SpeculativeMethod>(i));
  // The drafters it refuses beside attention data parallelism.
  if (n->find("no_attention_dp"))
    for (std::size_t i : pick_list(*n, p, methods, "a list of drafters (e.g. [draft])", d, "no_attention_dp"))
      v.speculative.no_attention_dp.push_back(static_cast<SpeculativeMethod>(i));
}

}  // namespace tessera::stacks_yaml
