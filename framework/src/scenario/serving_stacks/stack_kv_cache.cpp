// A framework version's KV-cache rule (scenario/serving_stacks/stack_kv_cache.hpp): the
// `kv_cache:` reader, the rules' knobs and their checks.
#include "scenario/serving_stacks/stack_kv_cache.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/text/nearest_name.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/serving_stacks/stacks_yaml.hpp"

namespace tessera {

namespace stacks_yaml {

void read_kv_cache(const YNode& n, const std::string& path, ServingStackKvCache& kv, Diags& d) {
  if (!loader::expect_mapping(n, path, d)) return;
  loader::check_keys(n, path, {"rule", "source", "defaults"}, d);
  kv.where = n.where;
  if (const YNode* r = loader::member(n, path, "rule", true, "vllm, sglang or trtllm", d))
    if (auto i = pick(*r, path + ".rule", {"vllm", "sglang", "trtllm"}, d))
      kv.rule = static_cast<KvRule>(*i + 1);
  kv.source = text_of(n, path, "source", true, d);
  const YNode* defs = loader::member(n, path, "defaults", true, "a mapping of knob: {value, source}", d);
  if (!defs || !loader::expect_mapping(*defs, path + ".defaults", d)) return;
  const auto& knobs = kv_rule_knobs(kv.rule);
  for (const auto& e : defs->entries) {
    const std::string kp = path + ".defaults." + e.key;
    if (std::find(knobs.begin(), knobs.end(), e.key) == knobs.end()) {
      d.error(e.key_where, kp + ": not a knob of the " + std::string(kv_rule_name(kv.rule)) + " rule" +
                               did_you_mean(e.key, knobs));
      continue;
    }
    if (!loader::expect_mapping(e.value, kp, d)) continue;
    loader::check_keys(e.value, kp, {"value", "source"}, d);
    KvKnobValue k;
    k.name = e.key;
    k.where = e.key_where;
    k.source = text_of(e.value, kp, "source", true, d);
    if (const YNode* v = loader::member(e.value, kp, "value", true, "a number or auto", d)) {
      std::optional<double> read;
      if (v->is_scalar() && v->value == "auto") {
        if (e.key != "mem_fraction_static")
          d.error(v->where, kp + ".value: `auto` is SGLang's mem_fraction_static only; expected a number");
        k.value = -1;
      } else if (kv_knob_is_bytes(e.key)) {
        read = loader::read_quantity(*v, kp + ".value", Dimension::bytes, d, e.key != "gpu_memory");
      } else {
        read = loader::read_real(*v, kp + ".value", d);
      }
      if (read) {  // every stated number is checked, a -1 too (only `auto` is auto)
        k.value = *read;
        if (const std::string p = kv_knob_problem(e.key, k.value); !p.empty())
          d.error(v->where, kp + ".value: expected " + p);
      }
    }
    kv.defaults.push_back(std::move(k));
  }
}

}  // namespace stacks_yaml

const char* kv_rule_name(KvRule r) {
  constexpr const char* k[] = {"none", "vllm", "sglang", "trtllm"};
  return k[static_cast<std::size_t>(r)];
}

const std::vector<std::string>& kv_rule_knobs(KvRule r) {
  static const std::vector<std::string> none{"gpu_memory"};
  static const std::vector<std::string> vllm{"gpu_memory",    "gpu_memory_utilization", "block_size",
                                             "sampler_bytes", "max_num_seqs",           "non_torch",
                                             "non_torch_tp"};
  static const std::vector<std::string> sglang{"gpu_memory", "mem_fraction_static", "page_size",
                                               "load_overhead"};
  static const std::vector<std::string> trtllm{"gpu_memory", "free_gpu_memory_fraction", "tokens_per_block",
                                               "max_tokens"};
  switch (r) {
    case KvRule::vllm:
      return vllm;
    case KvRule::sglang:
      return sglang;
    case KvRule::trtllm:
      return trtllm;
    case KvRule::none:
      break;
  }
  return none;
}

void apply_kv_knob(EngineKv& e, const std::string& knob, double value) {
  if (knob == "gpu_memory") {
    e.gpu_memory = value;
  } else if (knob == "sampler_bytes") {
    e.sampler_bytes = value;
  } else if (knob == "max_num_seqs") {
    e.max_num_seqs = static_cast<std::int64_t>(value);
  } else if (knob == "non_torch") {
    e.non_torch = value;
  } else if (knob == "non_torch_tp") {
    e.non_torch_tp = value;
  } else if (knob == "load_overhead") {
    e.load_overhead = value;
  } else if (knob == "block_size" || knob == "page_size" || knob == "tokens_per_block") {
    e.block = static_cast<std::int64_t>(value);
  } else if (knob == "max_tokens") {
    e.max_tokens = static_cast<std::int64_t>(value);
  } else if (knob == "gpu_memory_utilization" || knob == "mem_fraction_static" ||
             knob == "free_gpu_memory_fraction") {
    e.memory_fraction = value;
  } else {
    throw Error("apply_kv_knob: '" + knob + "' is not a KV-cache knob");
  }
}

EngineKv engine_kv_defaults(const ServingStackProfile& profile, const ServingStackVersion& v) {
  EngineKv e;
  e.rule = v.kv_cache.rule;
  e.label = profile.title + " " + v.version;
  for (const KvKnobValue& k : v.kv_cache.defaults) apply_kv_knob(e, k.name, k.value);
  return e;
}

bool kv_knob_is_bytes(const std::string& knob) {
  return knob == "gpu_memory" || knob == "sampler_bytes" || knob == "non_torch" || knob == "non_torch_tp" ||
         knob == "load_overhead";
}

std::string kv_knob_problem(const std::string& knob, double value) {
  if (!std::isfinite(value)) return "a finite number";
  if (knob == "block_size" || knob == "page_size" || knob == "tokens_per_block")
    return value >= 1 && value <= kMaxKvBlock && value == std::floor(value) ? ""
                                                                            : "a block of 1 to 65536 tokens";
  if (knob == "max_tokens")
    return value >= 0 && value <= kMaxKvCount && value == std::floor(value)
               ? ""
               : "a token count from 0 (none) to 10^12";
  if (knob == "max_num_seqs")
    return value >= 1 && value <= kMaxKvCount && value == std::floor(value)
               ? ""
               : "a sequence count from 1 to 10^12";
  if (knob == "gpu_memory") return value > 0 ? "" : "a positive memory size";
  if (kv_knob_is_bytes(knob)) return value >= 0 ? "" : "a non-negative size";
  return value > 0 && value <= 1 ? "" : "a memory fraction in (0, 1]";
}

}  // namespace tessera
