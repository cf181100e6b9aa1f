// The MoE exchange kernel of a framework version per phase (stack_moe_a2a.hpp).
#include "scenario/serving_stacks/stack_moe_a2a.hpp"

#include "scenario/readers/schema_util.hpp"
#include "scenario/serving_stacks/stack_launch.hpp"
#include "scenario/serving_stacks/stacks_yaml.hpp"

namespace tessera::stacks_yaml {

namespace {

const std::vector<std::string>& kernel_names() {
  static const std::vector<std::string> names{"deepep_normal", "deepep_low_latency", "gather_scatter",
                                              "all_reduce_gather"};
  return names;
}

std::optional<MoeA2a> kernel_at(const YNode& map, const std::string& path, const char* key, bool required,
                                Diags& d) {
  const YNode* n = loader::member(
      map, path, key, required, "deepep_normal, deepep_low_latency, gather_scatter or all_reduce_gather", d);
  if (!n) return std::nullopt;
  if (auto i = pick(*n, loader::join_path(path, key), kernel_names(), d)) return static_cast<MoeA2a>(*i);
  return std::nullopt;
}

}  // namespace

void read_flag_a2a(const YNode& flag, const std::string& path, ServingStackFlag& f, Diags& d) {
  f.a2a_prefill = kernel_at(flag, path, "a2a_prefill", false, d);
  f.a2a_decode = kernel_at(flag, path, "a2a_decode", false, d);
}

void read_moe_a2a(const YNode& version, const std::string& path, ServingStackVersion& v, Diags& d) {
  const YNode* n = version.find("moe_a2a");
  if (!n) return;
  const std::string p = path + ".moe_a2a";
  if (!loader::expect_mapping(*n, p, d)) return;
  loader::check_keys(*n, p, {"prefill", "decode", "source"}, d);
  v.moe_a2a.set = true;
  v.moe_a2a.prefill = kernel_at(*n, p, "prefill", true, d).value_or(MoeA2a::deepep_normal);
  v.moe_a2a.decode = kernel_at(*n, p, "decode", true, d).value_or(MoeA2a::deepep_low_latency);
  v.moe_a2a.source = text_of(*n, p, "source", true, d);
}

}  // namespace tessera::stacks_yaml

namespace tessera {

namespace {

// An attention-DP configuration (dp 2 replicas of tp 2, the FFN sharded over all 4 ranks) with
// the experts over the whole group (ep 4) or half of it (ep 2).
ParallelConfig attention_dp_probe(bool ep_full) {
  ParallelConfig c;
  c.tp = 2;
  c.dp = 2;
  c.ep = ep_full ? 4 : 2;
  c.ffn_shard_scope = FfnShardScope::tp_cp_dp;
  return c;
}

}  // namespace

std::array<MoeA2a, 4> stack_moe_a2a(const ServingStackProfile& profile, const ServingStackVersion& v,
                                    const ModelSpec& model, DeployPoint::Role role,
                                    const std::array<MoeA2a, 4>& fallback) {
  std::array<MoeA2a, 4> out = fallback;
  for (int phase = 0; phase < 2; ++phase) {
    const bool decode = phase == 1;
    for (int full = 0; full < 2; ++full) {
      DeployPoint p;
      p.config = attention_dp_probe(full == 1);
      p.role = role;
      p.dtypes = model.dtype;
      MoeA2a& k = out[static_cast<std::size_t>(2 * phase + full)];
      if (v.moe_a2a.set) k = decode ? v.moe_a2a.decode : v.moe_a2a.prefill;
      for (const ServingStackFlag& f : v.flags) {
        const std::optional<MoeA2a>& named = decode ? f.a2a_decode : f.a2a_prefill;
        if (named && flag_applies(f, p, model, profile)) {
          k = *named;
          break;
        }
      }
    }
  }
  return out;
}

}  // namespace tessera
