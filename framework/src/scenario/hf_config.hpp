#pragma once
// Hugging Face config.json -> a model mapping in the loader's tree (see hf_config.cpp).
#include <optional>
#include <string>

#include "scenario/yaml_tree.hpp"

namespace tessera::loader {

// nullopt (with diagnostics) when the file cannot be read or its architecture is unsupported.
std::optional<YNode> hf_config_tree(const std::string& path, Diags& d);

}  // namespace tessera::loader
