// The default FFN shard scopes by model kind (scenario/sweeps/moe_scopes.hpp).
#include "scenario/sweeps/moe_scopes.hpp"

#include <algorithm>

namespace tessera {

void offer_attention_dp_to_moe_only(const loader::YNode& tree, const ModelSpec& model, Sweep& sweep) {
  const loader::YNode* sw = tree.is_mapping() ? tree.find("sweep") : nullptr;
  const loader::YNode* par = sw && sw->is_mapping() ? sw->find("parallelism") : nullptr;
  const bool listed = par && par->is_mapping() && par->find("ffn_shard_scope");
  if (listed || model.has_moe) return;
  auto& s = sweep.ffn_shard_scope;
  s.erase(std::remove(s.begin(), s.end(), FfnShardScope::tp_cp_dp), s.end());
}

}  // namespace tessera
