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
  loader::check_keys(*n, p, {"value", "source"}, d);
  v.speculative.source = text_of(*n, p, "source", true, d);
  for (std::size_t i :
       pick_list(*n, p, {"mtp", "eagle", "draft"}, "a list of drafters ([mtp, eagle, draft] or [])", d))
    v.speculative.methods.push_back(static_cast<SpeculativeMethod>(i));
}

}  // namespace tessera::stacks_yaml
