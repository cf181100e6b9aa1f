#include "studies/entries/report_entry.hpp"

#include <optional>

#include "core/text/input_file.hpp"
#include "tessera/error.hpp"

namespace tessera::studies {

nlohmann::json read_result(const std::string& path, const ResultFieldCheck& check) {
  const std::string text = read_input_file(path, "the result file");
  {
    loader::Diags d;
    const std::optional<loader::JNode> tree = loader::parse_json_text(text, path, d, "");
    if (!tree) throw InputErrors(d.take());
    if (!tree->is_object() || !(tree->find("scenario") || tree->find("models")))
      throw InputError(path +
                       ": error: not the --json result of a tessera study (no \"scenario\", no \"models\")");
    check(*tree, d);
    if (!d.empty()) throw InputErrors(d.take());
  }  // the located tree is freed before the document is read again for the charts
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // the reader above accepted it: not expected
    throw InputError(path + ": error: not JSON: " + e.what());
  }
}

}  // namespace tessera::studies
