#pragma once
// Hugging Face config.json -> a model mapping in the loader's tree (see hf_config.cpp).
#include <optional>
#include <string>

#include "scenario/readers/yaml_tree.hpp"
#include "tessera/export.hpp"

namespace tessera::loader {

// The families whose config.json Tessera reads ("llama", "mistral", ..., "deepseek_v3").
const std::vector<std::string>& hf_families();

// The family named by the user (`model: {hf_config: PATH, family: llama}`), where written.
struct HfFamily {
  std::string name;
  SourceLocation where;
};

// nullopt (with diagnostics, each at FILE:LINE:COL) when the file cannot be read, is not valid
// JSON, has a refused value, or its `model_type` is not a supported family and `family` does
// not name one it follows.
std::optional<YNode> hf_config_tree(const std::string& path, Diags& d,
                                    const std::optional<HfFamily>& family = std::nullopt);

// The same from the file's text (`path` names it in diagnostics and gives the default name).
// Exported for the fuzz harness (tests/fuzz/fuzz_hf_config.cpp).
TESSERA_API std::optional<YNode> hf_config_tree_from_text(
    const std::string& text, const std::string& path, Diags& d,
    const std::optional<HfFamily>& family = std::nullopt);

}  // namespace tessera::loader
