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
  const YNode* list = loader::member(*n, p, "value", true, "a list of drafters ([mtp, eagle] or [])", d);
  if (!list) return;
  if (!list->is_sequence()) {
    d.error(list->where,
            p + ".value: expected a list of drafters ([mtp, eagle] or []), found " + loader::describe(*list));
    return;
  }
  for (const YNode& item : list->items)
    if (auto i = pick(item, p + ".value", {"mtp", "eagle"}, d)) {
      const auto m = static_cast<SpeculativeMethod>(*i);
      for (SpeculativeMethod k : v.speculative.methods)
        if (k == m) d.error(item.where, p + ".value: " + item.value + " is listed twice");
      v.speculative.methods.push_back(m);
    }
}

}  // namespace tessera::stacks_yaml
