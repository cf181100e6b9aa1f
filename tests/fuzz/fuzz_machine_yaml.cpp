// libFuzzer harness: a machine YAML file through the loader (read, convert, schema, typed parse).
#include "fuzz_input.hpp"
#include "scenario/scenario_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = tessera::fuzz::temp_tree().write("machines-input.yaml", data, size);
  tessera::fuzz::expect_input_errors_only([&] { tessera::load_machine_file(path); });
  return 0;
}
