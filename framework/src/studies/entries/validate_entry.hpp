#pragma once
// `validate`'s façade entry (docs/architecture.md "The study façade"): one model, machine or
// scenario file checked as `tessera run` would load it (by its `kind:`; a .json file is a Hugging
// Face config.json). A scenario's plugin choices and parameters, its machine's blocks and the
// sizing checks `run` (or `serve`) and, with a hardware sweep, `explore` apply before any work are
// checked too; a machine level without a `collectives:` block is a warning. The CLI
// (`tessera validate FILE...`) prints each file's result.
#include <memory>
#include <string>
#include <vector>

#include "host/plugin_registry.hpp"
#include "scenario/collectives_warnings.hpp"  // format_warning: how a warning is printed
#include "studies/scenario_options.hpp"
#include "tessera/error.hpp"
#include "tessera/export.hpp"

namespace tessera::studies {

struct FileCheck {
  std::vector<Diagnostic> errors;    // empty: the file is good
  std::vector<Diagnostic> warnings;  // printed after the errors
};

class TESSERA_API ValidateEntry {
 public:
  // `load`: --set, --model, --machine; the plugins of the plugin path (loaded on the first
  // scenario, only those it names).
  ValidateEntry(LoadOptions load, std::vector<std::string> plugin_paths,
                std::vector<std::string> plugin_overrides);
  ~ValidateEntry();
  ValidateEntry(const ValidateEntry&) = delete;
  ValidateEntry& operator=(const ValidateEntry&) = delete;

  FileCheck check(const std::string& file);

 private:
  LoadOptions load_;
  std::vector<std::string> plugin_paths_, plugin_overrides_;
  std::unique_ptr<PluginRegistry> registry_;
};

}  // namespace tessera::studies
