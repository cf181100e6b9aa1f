#pragma once
// The alias table (data/aliases.yaml): which model file, machine file and serving-framework
// profile a measured row's model, hardware and software columns name (docs/accuracy.md "How a
// row is mapped").
#include <string>
#include <vector>

#include "tessera/dtype.hpp"
#include "tessera/export.hpp"

namespace tessera::accuracy {

struct AliasRule {
  std::string match;     // case-insensitive substring of the column (models, hardware, software)
  std::string locator;   // frameworks only: also a substring of source_locator ("" = any)
  std::string target;    // model / machine file stem, or framework name (vllm, tensorrt-llm, ...)
  std::string unmapped;  // non-empty: rows matching this rule are not mapped, for this reason
  std::string version;   // frameworks only: the version when the software column states none
                         // (a bound the source supports elsewhere, e.g. its date), else ""
  int line = 0;          // 1-based line in the alias file (0: built in code)
  // Frameworks only: which layer of a serving stack the rule names (`layer:` in the file). A
  // software column often names several ("vLLM 0.5.0 (PyTorch 2.3)", "NIM (TensorRT-LLM
  // engine)"): the outermost layer is what serves the requests, so it wins over any length.
  enum Layer : int { runtime = 0, engine = 1, service = 2 };
  int layer = engine;
};
// A precision the `precision` column leaves partly unstated, read from another public source
// (`precisions:` in the file): rows whose precision, model and source_locator contain `match`,
// `model` and `locator` take `dtype`; `source` says where each format was read. An empty `match`
// (with a `locator`) also covers a blank precision column.
struct PrecisionRule {
  std::string match, model, locator;
  DTypes dtype;
  std::string source;
  int line = 0;
};
// A dataset whose lengths vary per sample, with its published mean prompt and output lengths
// (`datasets:` in the file): rows whose notes contain `match` (and model / source_locator `model` /
// `locator`) and state no ISL/OSL take them (a request stream of fixed lengths at the means;
// docs/accuracy.md "Rows under a load").
struct DatasetRule {
  std::string match;
  std::string model,
      locator;  // also substrings of the row's model (blanks, `-`, `_` alike) and source_locator ("" = any)
  std::int64_t input_mean = 0, output_mean = 0;  // tokens
  std::string source;
  int line = 0;
};
struct Aliases {
  std::string file;
  std::vector<AliasRule> models, hardware, frameworks;
  std::vector<PrecisionRule> precisions;
  std::vector<DatasetRule> datasets;
};
TESSERA_API Aliases load_aliases(const std::string& path);

// The rule a column value (and, for frameworks, the row's source_locator) selects: of the rules
// whose `match` (and `locator`) are case-insensitive substrings, those of the outermost layer
// (service over engine over runtime: "vLLM ... PyTorch 2.3" takes `vLLM`, not `PyTorch`), and of
// those the most specific — the longest match + locator text; between equally long ones, the
// earlier in the file. A match of under 4 characters counts only as a word of its own ("NIM" is
// not in "minimum"). nullptr: none. `fold_separators`: blanks, `-` and `_` compare equal
// (model names: "Llama 3.1 70B" is "Llama-3.1-70B").
// "TensorRT-LLM (PyTorch backend)" thus takes `TensorRT-LLM` over `PyTorch`, "GB200 NVL72"
// takes `GB200` over `B200`, "H200" takes `H200` over `H20`, wherever the rules stand.
TESSERA_API const AliasRule* select_rule(const std::vector<AliasRule>& rules, const std::string& value,
                                         const std::string& locator = "", bool fold_separators = false);

// The precision rule of a row: of the rules whose match, model (blanks, `-` and `_` alike) and
// locator occur in the row's columns (case-insensitive), the longest match + model + locator;
// the earlier when equally long. nullptr: none.
TESSERA_API const PrecisionRule* select_precision(const std::vector<PrecisionRule>& rules,
                                                  const std::string& precision, const std::string& model,
                                                  const std::string& locator);

// The dataset rule whose match occurs in `notes` and whose model and locator occur in the row's
// model and source_locator (case-insensitive; models with blanks, `-` and `_` alike), the longest
// match + model + locator; the earlier when equally long. nullptr: none.
TESSERA_API const DatasetRule* select_dataset(const std::vector<DatasetRule>& rules, const std::string& notes,
                                              const std::string& model, const std::string& locator);

// A rule no value can select: every value it matches is taken by another rule (one at least as
// specific that also matches the rule's own text, earlier when equally long). `by` is that rule.
struct ShadowedRule {
  const AliasRule* rule = nullptr;
  const AliasRule* by = nullptr;
};
// The shadowed rules of one section, in file order (empty: every rule is reachable).
TESSERA_API std::vector<ShadowedRule> shadowed_rules(const std::vector<AliasRule>& rules,
                                                     bool fold_separators = false);

// The framework version a software column states right after the selected rule's `match`:
// "vLLM 0.6.3" -> "0.6.3", "TensorRT-LLM v0.5 (...)" -> "0.5", "TensorRT-LLM 1.0.0rc4" ->
// "1.0.0rc4", "vLLM main, ..." -> "main"; "" when the text after the match is not a version
// ("TensorRT-LLM (PyTorch backend)", "DeepSpeed-Inference (>=0.7.3)").
TESSERA_API std::string framework_version(const std::string& software, const AliasRule& rule);
// data_root/data/aliases.yaml
TESSERA_API std::string default_aliases_path(const std::string& data_root);

}  // namespace tessera::accuracy
