#pragma once
// Reads scenario, model and machine YAML files (docs/specification.md §2) into typed specs. Collects every
// problem found and throws InputErrors with `FILE:LINE:COL: error: MESSAGE` diagnostics.
#include <string>
#include <vector>

#include "scenario/fields/field_access.hpp"  // set_machine_field, get_machine_field
#include "scenario/scenario.hpp"
#include "tessera/export.hpp"

namespace tessera {

struct LoadOptions {
  std::vector<std::string> set;  // --set key=value (dotted paths from the scenario's root)
  std::string model_override;    // --model FILE (YAML model file or HF config.json)
  std::string machine_override;  // --machine FILE
  // A Hugging Face config.json given as text in place of a model file (Python's
  // Scenario.with_model(dict)): read by the same reader (scenario/hf_config.hpp), its
  // diagnostics located at `model_hf_label`; takes precedence over model_override.
  std::string model_hf_json;
  std::string model_hf_label = "<dict>";
  std::string data_root;  // folder holding models/ machines/ (default: the source tree)
};

// The default scenario `tessera run` uses with no file.
TESSERA_API std::string default_scenario_path(const LoadOptions& options);

TESSERA_API Scenario load_scenario(const std::string& path, const LoadOptions& options);
// A scenario given as YAML (or JSON) text instead of a file (the Python module's
// Scenario.from_dict): every diagnostic is located at `label` ("<dict>") with its key path;
// relative file paths inside resolve against `base_dir`.
// The scenario of the file `path` from its text read earlier: as load_scenario(path) gives it,
// its relative paths resolved against `base_dir` ("": the file's folder as `path` names it)
// (Python keeps a loaded scenario's text and folder, so that its worker processes run the same one).
TESSERA_API Scenario load_scenario_file_text(const std::string& text, const std::string& path,
                                             const std::string& base_dir, const LoadOptions& options);
TESSERA_API Scenario load_scenario_text(const std::string& text, const std::string& label,
                                        const std::string& base_dir, const LoadOptions& options);
TESSERA_API ModelSpec load_model_file(const std::string& path);
// `blocks`: where the file's per-plugin blocks go (`plugins:`, `efficiency:`), as written.
TESSERA_API MachineSpec load_machine_file(const std::string& path,
                                          std::vector<MachineBlock>* blocks = nullptr);

// Validates any Tessera YAML file by its `kind:` (model, machine or scenario).
TESSERA_API void validate_file(const std::string& path, const LoadOptions& options);

}  // namespace tessera
