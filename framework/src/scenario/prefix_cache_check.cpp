// serving.prefix_cache and serving.requests.conversation across the scenario (prefix_cache_check.hpp).
#include "scenario/prefix_cache_check.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "scenario/loader_errors.hpp"
#include "scenario/readers/schema_util.hpp"

namespace tessera {

bool prefix_caching_on(const Scenario& s) {
  const PrefixCacheSpec& p = s.serving.prefix_cache;
  if (p.enabled_given) return p.enabled;
  if (p.hit_ratio > 0 || !p.offload.empty()) return true;  // asked for by what it needs
  return s.framework.set && s.framework.version().prefix_caching;
}

std::int64_t cached_prefix(const Scenario& s, std::int64_t input) {
  const double h = s.serving.prefix_cache.hit_ratio;
  if (input <= 1 || !(h > 0) || !prefix_caching_on(s)) return 0;
  return std::clamp<std::int64_t>(std::llround(h * static_cast<double>(input)), 0, input - 1);
}

const HostTierSpec& host_tier(const MachineSpec& m, OffloadTierKind t) {
  return t == OffloadTierKind::ssd ? m.host_memory.ssd : m.host_memory.dram;
}

const char* offload_tier_name(OffloadTierKind t) { return t == OffloadTierKind::ssd ? "ssd" : "dram"; }

namespace loader {

namespace {

// Where serving.<block>.<key> is written (its key), else the block's key, else the file.
SourceLocation where_of(const YNode& tree, const char* block, const char* key,
                        const SourceLocation& fallback) {
  const YNode* serving = tree.find("serving");
  const YNode* b = serving && serving->is_mapping() ? serving->find(block) : nullptr;
  if (b && b->is_mapping())
    if (const YEntry* e = b->find_entry(key)) return e->key_where;
  return fallback;
}

void check_conversation(const YNode& tree, const Scenario& s, Diags& d) {
  const RequestsSpec& r = s.serving.requests;
  if (r.stream.conversation.turns <= 1) return;
  const SourceLocation at = where_of(tree, "requests", "conversation", r.where);
  if (r.stream.arrival.kind == requests::ArrivalKind::trace)
    d.error(at,
            "serving.requests.conversation: a trace gives every request itself; conversations are drawn "
            "(arrival: poisson, gamma, constant or concurrency)");
  if (s.serving.disaggregated.enabled)
    d.error(at,
            "serving.requests.conversation: the disaggregated simulation sends no later turns yet; "
            "conversations run on aggregated replicas");
}

}  // namespace

void check_prefix_cache(const YNode& tree, const Scenario& s, const MachineSpec* machine, Diags& d) {
  check_conversation(tree, s, d);
  const PrefixCacheSpec& p = s.serving.prefix_cache;
  if (!p.given) return;
  const bool off = p.enabled_given && !p.enabled;
  if (p.hit_ratio > 0) {
    const SourceLocation at = where_of(tree, "prefix_cache", "hit_ratio", p.where);
    if (s.serving.requests.given)
      d.error(at,
              "serving.prefix_cache.hit_ratio: the request simulation finds its hits from the stream's "
              "shared prefixes and conversations (serving.requests.prefix, .conversation); the hit "
              "ratio is the steady-state study's");
    if (off) d.error(at, "serving.prefix_cache.hit_ratio: prefix caching is off (enabled: false)");
    if (s.serving.disaggregated.enabled)
      d.error(at, "serving.prefix_cache.hit_ratio: not modelled for disaggregated pools yet");
  }
  if (p.offload.empty()) return;
  const SourceLocation at = where_of(tree, "prefix_cache", "offload", p.where);
  if (!s.serving.requests.given)
    d.error(at,
            "serving.prefix_cache.offload: KV offload is simulated request by request; give "
            "serving.requests (docs/physics.md §12.7)");
  if (off)
    d.error(at,
            "serving.prefix_cache.offload: offloaded KV is found again by its prefix; prefix caching is "
            "off (enabled: false)");
  if (s.serving.disaggregated.enabled)
    d.error(at, "serving.prefix_cache.offload: not simulated for disaggregated pools yet");
  for (std::size_t i = 0; i < p.offload.size(); ++i) {
    const OffloadTierKind t = p.offload[i];
    const std::string name = offload_tier_name(t);
    if ((i == 0 && t != OffloadTierKind::dram) || (i > 0 && p.offload[i - 1] >= t))
      d.error(at,
              "serving.prefix_cache.offload: expected [dram] or [dram, ssd] (an SSD tier sits below host "
              "DRAM in every engine), found " +
                  name + (i == 0 ? " first" : std::string(" after ") + offload_tier_name(p.offload[i - 1])));
    if (machine && !(host_tier(*machine, t).capacity > 0))
      d.error(at, "serving.prefix_cache.offload: the machine (" + s.machine_file +
                      ") states no host_memory." + name +
                      " (capacity, bandwidth, link; docs/scenario-format.md \"Machine file\")");
  }
}

void check_prefix_cache_stack(const YNode& tree, const Scenario& s) {
  const PrefixCacheSpec& p = s.serving.prefix_cache;
  if (!s.framework.set || p.offload.empty()) return;
  const ServingStackVersion& v = s.framework.version();
  Diags d;
  for (OffloadTierKind t : p.offload) {
    bool has = false;
    for (OffloadTierKind k : v.kv_offload.tiers) has = has || k == t;
    if (!has)
      d.error(where_of(tree, "prefix_cache", "offload", p.where),
              "serving.prefix_cache.offload: " + s.framework.profile.title + " " + v.version +
                  " offloads KV to " +
                  (v.kv_offload.tiers.empty()       ? std::string("no tier")
                   : v.kv_offload.tiers.size() == 1 ? "dram only"
                                                    : "dram and ssd") +
                  ", not to " + offload_tier_name(t) +
                  (v.kv_offload.source.empty() ? std::string() : " (" + v.kv_offload.source + ")"));
  }
  if (!d.empty()) throw_errors(d);
}

}  // namespace loader

}  // namespace tessera
