#pragma once
// Readers of the values of data/frameworks.yaml (docs/frameworks.md) shared by the profile's
// reader (stack_profile.cpp) and the KV-cache block's (stack_kv_cache.cpp): a choice
// read as its index in a list of names, a list of them, a text value read at a key.
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

// `map`'s `key:` (at `path`; `value:` unless named), a list of choices among `names`
// (`expectation` says which lists), each at most once: their indices in the file's order (a bad or
// repeated item is reported and left out).
inline std::vector<std::size_t> pick_list(const YNode& map, const std::string& path,
                                          const std::vector<std::string>& names,
                                          const std::string& expectation, Diags& d,
                                          const char* key = "value") {
  std::vector<std::size_t> out;
  const YNode* v = loader::member(map, path, key, true, expectation, d);
  if (!v) return out;
  const std::string at = path + "." + key;
  if (!v->is_sequence()) {
    d.error(v->where, at + ": expected " + expectation + ", found " + loader::describe(*v));
    return out;
  }
  for (const YNode& item : v->items)
    if (auto i = pick(item, at, names, d)) {
      for (std::size_t k : out)
        if (k == *i) d.error(item.where, at + ": " + item.value + " is listed twice");
      out.push_back(*i);
    }
  return out;
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
