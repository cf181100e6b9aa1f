#pragma once
// Readers of the values of data/frameworks.yaml (docs/frameworks.md) shared by the profile's
// reader (stack_profile.cpp) and the KV-cache block's (stack_kv_cache.cpp): a choice
// read as its index in a list of names, a text value read at a key.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "scenario/readers/schema_util.hpp"
#include "scenario/readers/yaml_tree.hpp"

namespace tessera::stacks_yaml {

using loader::Diags;
using loader::YNode;

inline std::optional<std::size_t> pick(const YNode& n, const std::string& path,
                                       const std::vector<std::string>& names, Diags& d) {
  auto v = loader::read_choice(n, path, names, d);
  if (!v) return std::nullopt;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == *v) return i;
  return std::nullopt;
}

inline std::string text_of(const YNode& map, const std::string& path, const char* key, bool required,
                           Diags& d) {
  const YNode* n = loader::member(map, path, key, required, "text", d);
  if (!n) return "";
  if (n->is_scalar()) return n->value;
  d.error(n->where, loader::join_path(path, key) + ": expected text, found " + loader::describe(*n));
  return "";
}

}  // namespace tessera::stacks_yaml
