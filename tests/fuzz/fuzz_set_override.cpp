// libFuzzer harness: `--set key=value` overrides (the dotted-path override path and the YAML
// value parser behind it) applied to the default scenario. Each line of the input is one
// `--set` item, so several overrides can interact.
#include <algorithm>
#include <vector>

#include "fuzz_input.hpp"
#include "scenario/scenario_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tessera::LoadOptions options;
  options.data_root = TESSERA_SOURCE_DIR;
  const std::string_view text = tessera::fuzz::as_text(data, size);
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    options.set.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  static const std::string scenario = tessera::default_scenario_path(options);
  tessera::fuzz::expect_input_errors_only([&] { tessera::load_scenario(scenario, options); });
  return 0;
}
