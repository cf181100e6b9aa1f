// serving.speculative across the scenario (speculative_check.hpp).
#include "scenario/speculative_check.hpp"

#include <cctype>
#include <string>

#include "core/text/shell_word.hpp"
#include "scenario/loader_errors.hpp"

namespace tessera::loader {

namespace {

const char* method_name(SpeculativeMethod m) { return m == SpeculativeMethod::mtp ? "mtp" : "eagle"; }

// The serving.speculative mapping as written (null when not a mapping).
const YNode* block_of(const YNode& tree) {
  const YNode* serving = tree.find("serving");
  const YNode* b = serving && serving->is_mapping() ? serving->find("speculative") : nullptr;
  return b && b->is_mapping() ? b : nullptr;
}

// Where serving.speculative.<key> is written, else the block's key.
SourceLocation where_of(const YNode& tree, const char* key, const SourceLocation& fallback) {
  if (const YNode* b = block_of(tree))
    if (const YEntry* e = b->find_entry(key)) return e->key_where;
  return fallback;
}

bool written(const YNode& tree, const char* key) {
  const YNode* b = block_of(tree);
  return b && b->find_entry(key) != nullptr;
}

// The method as written (absent: mtp), and what it needs of the model.
void check_method(const YNode& tree, const SpeculativeSpec& p, const ModelSpec* model, Diags& d) {
  const YNode* method = block_of(tree)->find("method");
  const std::string m = !method ? "mtp" : method->is_scalar() ? method->value : "";
  if (m == "mtp" && model && model->mtp_layers <= 0)
    d.error(where_of(tree, "method", p.where),
            "serving.speculative.method: mtp drafts with the model's multi-token-prediction module; model " +
                model->name + " states none (model.mtp_layers, HF num_nextn_predict_layers); use eagle");
  if (m == "eagle" && !written(tree, "head"))
    d.error(
        where_of(tree, "method", p.where),
        "serving.speculative.head: required with method eagle: the head's checkpoint (a Hugging Face id or a "
        "path) that --deploy writes and whose acceptance you state");
  if (m == "mtp" && written(tree, "head"))
    d.error(where_of(tree, "head", p.where),
            "serving.speculative.head: method mtp drafts with the model's own module; give no head");
}

// --deploy writes the head as it is into a launch script (a word), a JSON string and a YAML scalar:
// letters, digits and . _ / : @ + -, starting with a letter or a digit (not read as a flag, a YAML
// tag or alias), and no YAML keyword (null, true, ...).
void check_head(const YNode& tree, const SpeculativeSpec& p, Diags& d) {
  if (p.head.empty()) return;
  std::string lower;
  for (char ch : p.head) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const bool keyword = lower == "null" || lower == "true" || lower == "false" || lower == "yes" ||
                       lower == "no" || lower == "on" || lower == "off" || lower == "y" || lower == "n";
  const bool lead = std::isalnum(static_cast<unsigned char>(p.head.front())) != 0;
  if (shell_plain(p.head) && p.head.find('=') == std::string::npos && lead && !keyword) return;
  d.error(
      where_of(tree, "head", p.where),
      "serving.speculative.head: expected a Hugging Face id or a path of letters, digits and . _ / : @ + - "
      "that starts with a letter or a digit and is no YAML keyword (--deploy writes it as it is), found \"" +
          p.head + "\"");
}

}  // namespace

void check_speculative(const YNode& tree, const Scenario& s, const ModelSpec* model, Diags& d) {
  const SpeculativeSpec& p = s.serving.speculative;
  // Not a mapping: the field reader said so; nothing more to say of its keys.
  if (!p.given || !block_of(tree)) return;
  // Keys as written: a value the field reader refused is still given (no second message for it).
  if (!written(tree, "steps"))
    d.error(p.where,
            "serving.speculative.steps: required: the draft tokens per sequence per iteration (k, 1 to 16)");
  const bool rate = written(tree, "acceptance"), table = written(tree, "acceptance_by_position");
  if (rate == table)
    d.error(p.where,
            std::string("serving.speculative: give one of acceptance (a rate) and acceptance_by_position "
                        "(a list, one per draft position)") +
                (rate ? ", not both" : ""));
  if (!p.acceptance_by_position.empty() && p.steps > 0 &&
      static_cast<std::int64_t>(p.acceptance_by_position.size()) < p.steps)
    d.error(where_of(tree, "acceptance_by_position", p.where),
            "serving.speculative.acceptance_by_position: " + std::to_string(p.acceptance_by_position.size()) +
                " values for " + std::to_string(p.steps) + " steps; expected one per draft position");
  check_method(tree, p, model, d);
  check_head(tree, p, d);
  if (s.serving.requests.given)
    d.error(p.where,
            "serving.speculative: the request simulation does not draft yet; the steady-state study models "
            "speculative decoding (leave out serving.requests)");
  if (s.serving.disaggregated.enabled)
    d.error(p.where, "serving.speculative: not modelled for disaggregated pools yet");
}

void check_speculative_stack(const YNode& tree, const Scenario& s) {
  const SpeculativeSpec& p = s.serving.speculative;
  if (!s.framework.set || !p.given) return;
  const ServingStackVersion& v = s.framework.version();
  for (SpeculativeMethod m : v.speculative.methods)
    if (m == p.method) return;
  std::string runs;
  for (SpeculativeMethod m : v.speculative.methods)
    runs += (runs.empty() ? "" : ", ") + std::string(method_name(m));
  Diags d;
  d.error(where_of(tree, "method", p.where),
          "serving.speculative.method: " + s.framework.profile.title + " " + v.version + " drafts with " +
              (runs.empty() ? std::string("no method Tessera models") : runs) + ", not " +
              method_name(p.method) +
              (v.speculative.source.empty() ? std::string() : " (" + v.speculative.source + ")"));
  throw_errors(d);
}

}  // namespace tessera::loader
