// libFuzzer harness: the other values the command line parses from text — `--config` (a
// parallel configuration for `explain`, against a shipped machine with placement levels) and
// `--limit NAME=N` / `--max-configs N`.
#include "fuzz_input.hpp"
#include "scenario/scenario_loader.hpp"
#include "tessera/limits.hpp"
#include "tessera/machine.hpp"
#include "tessera/parallel_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const tessera::MachineSpec machine =
      tessera::load_machine_file(std::string(TESSERA_SOURCE_DIR) + "/machines/cube-sip.yaml");
  const std::string_view text = tessera::fuzz::as_text(data, size);
  tessera::fuzz::expect_input_errors_only([&] {
    const tessera::ParallelConfig c = tessera::parse_config(text, machine);
    // What parses must print and parse back to the same configuration.
    if (tessera::parse_config(tessera::format_config(c, machine), machine) != c) __builtin_trap();
  });
  tessera::fuzz::expect_input_errors_only([&] {
    tessera::Limits limits;
    tessera::apply_limit_setting(limits, text);
  });
  return 0;
}
