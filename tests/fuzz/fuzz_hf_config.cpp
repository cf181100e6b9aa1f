// libFuzzer harness: a Hugging Face config.json through the located JSON tree and the HF reader
// (json_tree + hf_config), with and without a user-named family. Any input must end in a tree
// or in located diagnostics: no crash, no exception other than the framework's, no hang.
// Seeds: tests/fuzz/corpus/hf_config/.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "scenario/hf_config.hpp"
#include "tessera/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const char* family : {"", "llama", "deepseek_v3", "qwen2_moe", "falcon", "gptj"}) {
    tessera::loader::Diags d;
    std::optional<tessera::loader::HfFamily> chosen;
    if (*family) chosen = tessera::loader::HfFamily{family, tessera::SourceLocation{"fuzz.yaml", 1, 1}};
    try {
      const auto tree = tessera::loader::hf_config_tree_from_text(text, "fuzz/config.json", d, chosen);
      // Every refusal is located: a diagnostic of the JSON text carries a line.
      if (!tree && d.empty()) __builtin_trap();
    } catch (const tessera::InputError&) {
    }
  }
  return 0;
}
