// libFuzzer harness: a scenario YAML file through the loader, as `tessera validate` reads it
// (the file's `kind:` picks scenario, model or machine). The file lies in a `scenarios/`
// folder next to links to the shipped models/ and machines/, so `model: ../models/X.yaml`
// and names such as `machine: dgx-h100` resolve as they do for the shipped scenarios.
#include "fuzz_input.hpp"
#include "scenario/scenario_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = tessera::fuzz::temp_tree().write("scenarios/input.yaml", data, size);
  tessera::LoadOptions options;
  options.data_root = TESSERA_SOURCE_DIR;
  tessera::fuzz::expect_input_errors_only([&] { tessera::validate_file(path, options); });
  return 0;
}
