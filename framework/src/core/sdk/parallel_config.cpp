// tessera/parallel_config.hpp: knob names, and the "cp=8,tp=4,..." text form of a config.
#include "tessera/parallel_config.hpp"

#include <cctype>
#include <charconv>
#include <string>
#include <vector>

#include "core/text/input_text.hpp"
#include "core/text/nearest_name.hpp"
#include "tessera/error.hpp"
#include "tessera/machine.hpp"

namespace tessera {

const char* kv_shard_mode_name(KvShardMode m) {
  switch (m) {
    case KvShardMode::split:
      return "split";
    case KvShardMode::replicate:
      return "replicate";
  }
  return "unknown";
}

const char* ffn_shard_scope_name(FfnShardScope s) {
  switch (s) {
    case FfnShardScope::tp:
      return "TP";
    case FfnShardScope::tp_cp:
      return "TP+CP";
    case FfnShardScope::tp_cp_dp:
      return "TP+CP+DP";
  }
  return "unknown";
}

const char* cp_ring_variant_name(CpRingVariant v) {
  switch (v) {
    case CpRingVariant::kv:
      return "kv";
    case CpRingVariant::qoml:
      return "qoml";
    case CpRingVariant::tree:
      return "tree";
  }
  return "unknown";
}

std::string format_config(const ParallelConfig& c, const MachineSpec& m) {
  std::string s;
  s += "cp=" + std::to_string(c.cp);
  s += ",tp=" + std::to_string(c.tp);
  s += ",pp=" + std::to_string(c.pp);
  s += ",dp=" + std::to_string(c.dp);
  s += ",ep=" + std::to_string(c.ep);
  s += ",kv_shard_mode=";
  s += kv_shard_mode_name(c.kv_shard_mode);
  s += ",ffn_shard_scope=";
  s += ffn_shard_scope_name(c.ffn_shard_scope);
  s += ",tp_placement=" + m.placement_name(c.tp_placement);
  s += ",cp_placement=" + m.placement_name(c.cp_placement);
  s += ",cp_ring_variant=";
  s += cp_ring_variant_name(c.cp_ring_variant);
  return s;
}

namespace {

template <typename E, std::size_t N>
E parse_choice(const std::string& key, const std::string& value, const E (&values)[N],
               const char* (*name)(E)) {
  std::vector<std::string> names;
  for (E v : values) {
    if (lower(value) == lower(name(v))) return v;
    names.emplace_back(name(v));
  }
  std::string all;
  for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
  throw InputError("config: " + key + "=" + value + ": expected one of " + all + did_you_mean(value, names));
}

}  // namespace

ParallelConfig parse_config(std::string_view text, const MachineSpec& m) {
  ParallelConfig c;
  c.cp_placement = m.levels.empty() ? 0 : 1;
  static const std::vector<std::string> kKeys(kParallelKnobs.begin(), kParallelKnobs.end());
  std::vector<std::string> placements{"pe"};
  if (m.pe.name != "pe") placements.push_back(m.pe.name);
  for (const auto& l : m.levels) placements.push_back(l.name);

  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t comma = rest.find_first_of(", ");
    const std::string item = trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos)
      throw InputError("config: '" + item + "' is not key=value (e.g. \"cp=8,tp=4\")");
    const std::string key = lower(trim(item.substr(0, eq)));
    const std::string value = trim(item.substr(eq + 1));
    if (key == "cp" || key == "tp" || key == "pp" || key == "dp" || key == "ep") {
      std::int32_t v = 0;
      const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || ptr != value.data() + value.size() || v < 1)
        throw InputError("config: " + key + "=" + value + ": expected a positive integer");
      (key == "cp" ? c.cp : key == "tp" ? c.tp : key == "pp" ? c.pp : key == "dp" ? c.dp : c.ep) = v;
    } else if (key == "kv_shard_mode") {
      static constexpr KvShardMode kAll[] = {KvShardMode::split, KvShardMode::replicate};
      c.kv_shard_mode = parse_choice(key, value, kAll, kv_shard_mode_name);
    } else if (key == "ffn_shard_scope") {
      static constexpr FfnShardScope kAll[] = {FfnShardScope::tp, FfnShardScope::tp_cp,
                                               FfnShardScope::tp_cp_dp};
      c.ffn_shard_scope = parse_choice(key, value, kAll, ffn_shard_scope_name);
    } else if (key == "cp_ring_variant") {
      static constexpr CpRingVariant kAll[] = {CpRingVariant::kv, CpRingVariant::qoml, CpRingVariant::tree};
      c.cp_ring_variant = parse_choice(key, value, kAll, cp_ring_variant_name);
    } else if (key == "tp_placement" || key == "cp_placement") {
      const auto p = m.placement_index(value);
      if (!p) {
        std::string all;
        for (const auto& n : placements) all += (all.empty() ? "" : ", ") + n;
        throw InputError("config: " + key + "=" + value + ": no such placement on machine '" + m.name +
                         "'; expected one of " + all + did_you_mean(value, placements));
      }
      (key == "tp_placement" ? c.tp_placement : c.cp_placement) = static_cast<std::int8_t>(*p);
    } else {
      throw InputError("config: unknown knob '" + key + "'" + did_you_mean(key, kKeys) +
                       "; knobs: cp, tp, pp, dp, ep, kv_shard_mode, ffn_shard_scope, "
                       "tp_placement, cp_placement, cp_ring_variant");
    }
  }
  return c;
}

}  // namespace tessera
