// A disaggregated pool's own parallelism (scenario/sweeps/pool_parallelism.hpp).
#include "scenario/sweeps/pool_parallelism.hpp"

#include <algorithm>
#include <string>

#include "tessera/physics/layout.hpp"

namespace tessera {

namespace {

template <typename T>
bool listed(const std::vector<T>& values, T v) {
  return values.empty() || std::find(values.begin(), values.end(), v) != values.end();
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& x : v) out += (out.empty() ? "" : ", ") + x;
  return "[" + out + "]";
}

template <typename T, typename Name>
void check_knob(const loader::YNode* pool, const char* knob, const std::string& path,
                const std::vector<T>& pool_values, const std::vector<T>& sweep_values, Name name,
                loader::Diags& d) {
  const loader::YNode* n = pool ? pool->find(knob) : nullptr;
  if (!n) return;
  std::vector<std::string> sweep_text;
  for (T v : sweep_values) sweep_text.push_back(name(v));
  for (std::size_t i = 0; i < pool_values.size(); ++i) {
    if (std::find(sweep_values.begin(), sweep_values.end(), pool_values[i]) != sweep_values.end()) continue;
    const loader::YNode* at = n->is_sequence() && i < n->items.size() ? &n->items[i] : n;
    d.error(at->where, path + "." + knob + ": " + name(pool_values[i]) + " is not among sweep.parallelism." +
                           knob + " " + join(sweep_text) + " (a pool takes the sweep's configurations)");
  }
}

void check_pool(const loader::YNode& tree, const char* pool, const PoolParallelism& p, const Sweep& sw,
                loader::Diags& d) {
  const loader::YNode* n = &tree;
  for (const char* k : {"serving", "disaggregated", pool, "parallelism"})
    n = n && n->is_mapping() ? n->find(k) : nullptr;
  const std::string path = std::string("serving.disaggregated.") + pool + ".parallelism";
  const auto num = [](std::int32_t v) { return std::to_string(v); };
  check_knob(n, "cp", path, p.cp, sw.cp, num, d);
  check_knob(n, "tp", path, p.tp, sw.tp, num, d);
  check_knob(n, "pp", path, p.pp, sw.pp, num, d);
  check_knob(n, "dp", path, p.dp, sw.dp, num, d);
  check_knob(n, "ep", path, p.ep, sw.ep, num, d);
  check_knob(
      n, "ffn_shard_scope", path, p.ffn_shard_scope, sw.ffn_shard_scope,
      [](FfnShardScope s) { return std::string(ffn_shard_scope_name(s)); }, d);
}

}  // namespace

bool PoolParallelism::admits(const ParallelConfig& c) const {
  if (!listed(cp, c.cp) || !listed(tp, c.tp) || !listed(pp, c.pp) || !listed(dp, c.dp) || !listed(ep, c.ep))
    return false;
  if (ffn_shard_scope.empty()) return true;
  return std::any_of(ffn_shard_scope.begin(), ffn_shard_scope.end(),
                     [&](FfnShardScope s) { return canonical_scope(s, c.cp, c.dp) == c.ffn_shard_scope; });
}

void check_pool_parallelism(const loader::YNode& tree, const Scenario& s) {
  loader::Diags d;
  check_pool(tree, "prefill", s.serving.disaggregated.prefill, s.sweep, d);
  check_pool(tree, "decode", s.serving.disaggregated.decode, s.sweep, d);
  if (!d.empty()) throw InputErrors(d.take());
}

}  // namespace tessera
