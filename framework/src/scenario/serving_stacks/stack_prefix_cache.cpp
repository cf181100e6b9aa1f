// A framework version's prefix caching and KV offload (stack_prefix_cache.hpp).
#include "scenario/serving_stacks/stack_prefix_cache.hpp"

#include "scenario/readers/schema_util.hpp"
#include "scenario/serving_stacks/stacks_yaml.hpp"

namespace tessera::stacks_yaml {

namespace {

void read_offload(const YNode& n, const std::string& path, StackKvOffload& out, Diags& d) {
  if (!loader::expect_mapping(n, path, d)) return;
  loader::check_keys(n, path, {"value", "write", "source"}, d);
  out.source = text_of(n, path, "source", true, d);
  if (const YNode* w = loader::member(n, path, "write", true, "through or on_eviction", d))
    if (auto i = pick(*w, path + ".write", {"through", "on_eviction"}, d)) out.write_through = *i == 0;
  for (std::size_t i : pick_list(n, path, {"dram", "ssd"}, "a list of tiers ([dram], [dram, ssd] or [])", d))
    out.tiers.push_back(static_cast<OffloadTierKind>(i));
}

}  // namespace

void read_prefix_cache(const YNode& version, const std::string& path, ServingStackVersion& v, Diags& d) {
  if (const YNode* p = version.find("prefix_caching")) {
    const std::string pp = path + ".prefix_caching";
    if (loader::expect_mapping(*p, pp, d)) {
      loader::check_keys(*p, pp, {"value", "source"}, d);
      v.prefix_caching_source = text_of(*p, pp, "source", true, d);
      if (const YNode* b = loader::member(*p, pp, "value", true, "true or false", d))
        v.prefix_caching = loader::read_bool(*b, pp + ".value", d).value_or(false);
    }
  }
  if (const YNode* o = version.find("kv_offload")) read_offload(*o, path + ".kv_offload", v.kv_offload, d);
}

}  // namespace tessera::stacks_yaml
