// Restricting a scenario's space to a framework version (scenario/serving_stacks/stack_restriction.hpp).
#include "scenario/serving_stacks/stack_restriction.hpp"

#include <algorithm>

#include "scenario/scenario.hpp"

namespace tessera {

namespace {

std::string who(const ServingStackChoice& fw) { return fw.profile.title + " " + fw.version().version; }

// Keeps the values `keep` accepts; records the others under one reason.
template <class T, class Keep, class Text>
void drop_if(std::vector<T>& values, Keep keep, Text text, const std::string& knob, const std::string& reason,
             const ServingStackChoice& fw, std::vector<DroppedValues>& out) {
  DroppedValues dv{knob, "", reason, 0};
  std::vector<T> kept;
  for (const T& v : values) {
    if (keep(v)) {
      kept.push_back(v);
    } else {
      dv.values += (dv.count ? ", " : "") + text(v);
      ++dv.count;
    }
  }
  if (dv.count == 0) return;
  if (kept.empty())
    throw InputErrors({Diagnostic{fw.where, "framework: " + fw.label() + ": " + knob + " keeps no value: " +
                                                dv.values + " dropped (" + reason + ")"}});
  values = std::move(kept);
  out.push_back(std::move(dv));
}

std::string num(std::int64_t v) { return std::to_string(v); }

}  // namespace

bool attention_dp(const ParallelConfig& c) {
  return c.dp > 1 && c.ffn_shard_scope == FfnShardScope::tp_cp_dp;
}

std::int64_t kv_split_degree(const ParallelConfig& c, const ModelSpec& model) {
  const std::int64_t hkv = model.has_mla ? 1 : std::max<std::int64_t>(1, model.kv_heads);
  if (c.kv_shard_mode != KvShardMode::split || c.tp <= hkv) return 1;
  return c.tp / hkv;
}

std::vector<DroppedValues> restrict_sweep(Sweep& s, const ServingStackChoice& fw, const ModelSpec& model) {
  const ServingStackVersion& v = fw.version();
  const std::string w = who(fw);
  std::vector<DroppedValues> out;
  auto gt1 = [](std::int32_t x) { return x == 1; };
  auto n32 = [](std::int32_t x) { return num(x); };
  if (!v.cp)
    drop_if(s.cp, gt1, n32, "sweep.parallelism.cp", w + " has no prefill context parallelism", fw, out);
  if (!v.pp) drop_if(s.pp, gt1, n32, "sweep.parallelism.pp", w + " has no pipeline parallelism", fw, out);
  if (!v.dp) drop_if(s.dp, gt1, n32, "sweep.parallelism.dp", w + " has no data parallelism", fw, out);
  if (v.ep == EpRule::none)
    drop_if(s.ep, gt1, n32, "sweep.parallelism.ep", w + " has no expert parallelism", fw, out);
  auto scope_text = [](FfnShardScope x) { return std::string(ffn_shard_scope_name(x)); };
  const bool any_cp = std::any_of(s.cp.begin(), s.cp.end(), [](std::int32_t x) { return x > 1; });
  const bool any_dp = std::any_of(s.dp.begin(), s.dp.end(), [](std::int32_t x) { return x > 1; });
  // A scope equivalent to TP (cp = 1, or dp = 1) drops no configuration: not reported.
  if (!v.cp && any_cp)
    drop_if(
        s.ffn_shard_scope, [](FfnShardScope x) { return x != FfnShardScope::tp_cp; }, scope_text,
        "sweep.parallelism.ffn_shard_scope", w + " has no context parallelism to shard the FFN over", fw,
        out);
  if (any_dp && (v.attention_dp == AttentionDpRule::none || !model.has_moe))
    drop_if(
        s.ffn_shard_scope, [](FfnShardScope x) { return x != FfnShardScope::tp_cp_dp; }, scope_text,
        "sweep.parallelism.ffn_shard_scope",
        v.attention_dp == AttentionDpRule::none
            ? w + " has no attention data parallelism"
            : "attention data parallelism (experts across TP x DP) needs an MoE model; " + model.name +
                  " is dense",
        fw, out);
  drop_if(
      s.tp_placement,
      [&](std::int8_t x) {
        return std::find(v.tp_placement.begin(), v.tp_placement.end(), x) != v.tp_placement.end();
      },
      [](std::int8_t x) { return x == 0 ? std::string("pe") : "level " + std::to_string(x); },
      "sweep.parallelism.tp_placement", w + " places a TP group's ranks together (inside one node)", fw, out);
  if (v.cp) {
    drop_if(
        s.cp_ring_variant,
        [&](CpRingVariant x) {
          return std::find(v.cp_ring_variant.begin(), v.cp_ring_variant.end(), x) != v.cp_ring_variant.end();
        },
        [](CpRingVariant x) { return std::string(cp_ring_variant_name(x)); },
        "sweep.parallelism.cp_ring_variant", w + " has no such ring", fw, out);
    drop_if(
        s.cp_placement,
        [&](std::int8_t x) {
          return std::find(v.cp_placement.begin(), v.cp_placement.end(), x) != v.cp_placement.end();
        },
        [](std::int8_t x) { return x == 0 ? std::string("pe") : "level " + std::to_string(x); },
        "sweep.parallelism.cp_placement", w + " cannot place CP groups there", fw, out);
  }
  auto n64 = [](std::int64_t x) { return num(x); };
  if (v.max_batch > 0)
    drop_if(
        s.serving_batch, [&](std::int64_t b) { return b <= v.max_batch; }, n64, "sweep.serving.batch",
        w + " runs at most " + num(v.max_batch) + " sequences", fw, out);
  if (v.finite_token_budget)
    drop_if(
        s.serving_token_budget, [](std::int64_t t) { return t > 0; }, n64, "sweep.serving.token_budget",
        w + " needs a finite token budget per iteration (0 = no limit is not a flag value)", fw, out);
  return out;
}

const char* stack_miss_text(ServingStackMiss m) {
  switch (m) {
    case ServingStackMiss::none:
      return "";
    case ServingStackMiss::ep_not_tp_dp:
      return "ep must be 1 or tp*dp (--enable-expert-parallel spans the whole TP x DP group)";
    case ServingStackMiss::moe_dp_needs_attention_dp:
      return "an MoE model with dp > 1 shares its experts over TP x DP (ffn_shard_scope TP+CP+DP)";
    case ServingStackMiss::attention_dp_needs_tp1:
      return "attention data parallelism runs attention without TP (tp 1, every rank a replica)";
    case ServingStackMiss::kv_split:
      return "kv_shard_mode split with tp > kv_heads (the KV split inside the TP group) is not available";
    case ServingStackMiss::count:
      break;
  }
  return "";
}

ServingStackMiss stack_miss(const ServingStackVersion& v, const ParallelConfig& c, const ModelSpec& model) {
  if (v.ep == EpRule::tp_dp && c.ep > 1 && c.ep != std::int64_t{c.tp} * c.dp * c.cp)
    return ServingStackMiss::ep_not_tp_dp;
  if (v.attention_dp == AttentionDpRule::moe && model.has_moe && c.dp > 1 &&
      c.ffn_shard_scope != FfnShardScope::tp_cp_dp)
    return ServingStackMiss::moe_dp_needs_attention_dp;
  if (v.attention_dp_tp1 && attention_dp(c) && c.tp > 1) return ServingStackMiss::attention_dp_needs_tp1;
  if (!v.kv_split && kv_split_degree(c, model) > 1) return ServingStackMiss::kv_split;
  return ServingStackMiss::none;
}

std::int64_t flag_term_value(FlagTerm t, const DeployPoint& p, const ModelSpec& model) {
  switch (t) {
    case FlagTerm::tp:
      return p.config.tp;
    case FlagTerm::pp:
      return p.config.pp;
    case FlagTerm::dp:
      return p.config.dp;
    case FlagTerm::ep:
      return p.config.ep;
    case FlagTerm::cp:
      return p.config.cp;
    case FlagTerm::batch:
      return p.batch;
    case FlagTerm::token_budget:
      return p.token_budget;
    case FlagTerm::dcp:
      return kv_split_degree(p.config, model);
    case FlagTerm::offload_gib:
      // a replica's PEs (cp x tp x pp) together
      return static_cast<std::int64_t>(p.offload_dram_bytes * static_cast<double>(p.config.cp) * p.config.tp *
                                       p.config.pp / (1024.0 * 1024.0 * 1024.0));
    case FlagTerm::offload_gb:
      return static_cast<std::int64_t>(p.offload_dram_bytes / 1e9);
    case FlagTerm::offload_bytes:
      return static_cast<std::int64_t>(p.offload_dram_bytes);
    case FlagTerm::spec_steps:
      return p.spec_steps;
    case FlagTerm::spec_draft_tokens:
      return p.spec_steps + 1;
    case FlagTerm::redundant_experts:
      return p.redundant_experts;
    case FlagTerm::expert_slots:
      return model.moe.experts + p.redundant_experts;
  }
  return 1;
}

bool flag_condition_holds(FlagCondition c, const DeployPoint& p, const ModelSpec& model,
                          const ServingStackProfile& f) {
  using R = DeployPoint::Role;
  switch (c) {
    case FlagCondition::pp_gt1:
      return p.config.pp > 1;
    case FlagCondition::dp_gt1:
      return p.config.dp > 1;
    case FlagCondition::ep_gt1:
      return p.config.ep > 1;
    case FlagCondition::cp_gt1:
      return p.config.cp > 1;
    case FlagCondition::attention_dp:
      return attention_dp(p.config);
    case FlagCondition::no_attention_dp:
      return !attention_dp(p.config);
    case FlagCondition::kv_split:
      return kv_split_degree(p.config, model) > 1;
    case FlagCondition::prefill:
      return p.role == R::prefill;
    case FlagCondition::decode:
      return p.role == R::decode;
    case FlagCondition::disaggregated:
      return p.role != R::aggregated;
    case FlagCondition::aggregated:
      return p.role == R::aggregated;
    case FlagCondition::replicas_flag:
      return f.replicas_by_flag;
    case FlagCondition::prefix_caching:
      return p.prefix_caching;
    case FlagCondition::no_prefix_caching:
      return !p.prefix_caching;
    case FlagCondition::offload_dram:
      return p.offload_dram_bytes > 0;
    case FlagCondition::offload_ssd:
      return p.offload_ssd;
    case FlagCondition::speculative_mtp:
      return p.spec_steps > 0 && p.spec_method == SpeculativeMethod::mtp;
    case FlagCondition::speculative_eagle:
      return p.spec_steps > 0 && p.spec_method == SpeculativeMethod::eagle;
    case FlagCondition::speculative_draft:
      return p.spec_steps > 0 && p.spec_method == SpeculativeMethod::draft;
    case FlagCondition::ep_full: {
      // The FFN group (docs/physics.md §4): TP, TP x CP or TP x CP x DP by the shard scope.
      const ParallelConfig& c = p.config;
      std::int64_t group = c.tp;
      if (c.ffn_shard_scope != FfnShardScope::tp) group *= c.cp;
      if (c.ffn_shard_scope == FfnShardScope::tp_cp_dp) group *= c.dp;
      return c.ep > 1 && c.ep == group;
    }
    case FlagCondition::eplb:
      return p.eplb;
  }
  return false;
}

}  // namespace tessera
