// serving.speculative across the scenario (speculative_check.hpp).
#include "scenario/speculative_check.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "core/text/shell_word.hpp"
#include "scenario/loader_errors.hpp"

namespace tessera::loader {

namespace {

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
                model->name +
                " states none (model.mtp_layers, HF num_nextn_predict_layers); use eagle or draft");
  if ((m == "eagle" || m == "draft") && !written(tree, "head"))
    d.error(
        where_of(tree, "method", p.where),
        "serving.speculative.head: required with method " + m + ": the " +
            (m == "eagle" ? "head's" : "draft model's") +
            " checkpoint (a Hugging Face id or a path) that --deploy writes and whose acceptance you state");
  if (m == "mtp" && written(tree, "head"))
    d.error(where_of(tree, "head", p.where),
            "serving.speculative.head: method mtp drafts with the model's own module; give no head");
  if (m == "draft" && !written(tree, "model"))
    d.error(where_of(tree, "method", p.where),
            "serving.speculative.model: required with method draft: the draft model Tessera prices (a model "
            "file path or a shipped model's name, e.g. llama3.2-1b)");
  if (m != "draft" && !m.empty() && written(tree, "model"))
    d.error(where_of(tree, "model", p.where), "serving.speculative.model: method " + m + " drafts with " +
                                                  (m == "mtp" ? "the model's own module" : "a head") +
                                                  "; a draft model is method draft's");
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

// sweep.serving.<key> as written (null when absent).
const YEntry* sweep_entry(const YNode& tree, const char* key) {
  const YNode* sweep = tree.find("sweep");
  const YNode* serving = sweep && sweep->is_mapping() ? sweep->find("serving") : nullptr;
  return serving && serving->is_mapping() ? serving->find_entry(key) : nullptr;
}

// sweep.hardware.<key> as written (null when absent).
const YEntry* hardware_entry(const YNode& tree, const char* key) {
  const YNode* sweep = tree.find("sweep");
  const YNode* hw = sweep && sweep->is_mapping() ? sweep->find("hardware") : nullptr;
  return hw && hw->is_mapping() ? hw->find_entry(key) : nullptr;
}

// explore's sweep.hardware axis serving.speculative.<param> (null when absent).
const HardwareAxis* explore_axis(const Scenario& s, std::string_view param) {
  for (const HardwareAxis& a : s.sweep.hardware)
    if (a.speculative && a.path.size() > 20 && std::string_view(a.path).substr(20) == param) return &a;
  return nullptr;
}

// The sweep's draft lengths and acceptance rates: they vary the block's drafter, so they need one
// (and explore's axes a serve scenario).
void check_sweep_needs_block(const YNode& tree, const Scenario& s, Diags& d) {
  for (const HardwareAxis& a : s.sweep.hardware)
    if (a.speculative && s.workload.mode != Mode::serve)
      d.error(a.where, "sweep.hardware." + a.path +
                           ": a speculative decoding axis needs a serve scenario (workload.mode: serve) with "
                           "serving.speculative");
  if (s.serving.speculative.given || s.workload.mode != Mode::serve) return;
  for (const char* key : {"speculative_steps", "acceptance"})
    if (const YEntry* e = sweep_entry(tree, key))
      d.error(e->key_where, std::string("sweep.serving.") + key +
                                ": sweeps speculative decoding; give serving.speculative (its method, and "
                                "head for eagle) for the drafter it varies");
  for (const HardwareAxis& a : s.sweep.hardware)
    if (a.speculative)
      d.error(a.where,
              "sweep.hardware." + a.path +
                  ": sweeps speculative decoding; give serving.speculative (its method, and head for "
                  "eagle) for the drafter it varies");
}

// The draft length and acceptance: each from the block or from the sweep (not both), and a table
// long enough for the longest k.
void check_steps_and_acceptance(const YNode& tree, const Scenario& s, Diags& d) {
  const SpeculativeSpec& p = s.serving.speculative;
  // Each of k and the acceptance from one place: the block, sweep.serving's list or explore's axis.
  const YEntry* swept_steps = sweep_entry(tree, "speculative_steps");
  const YEntry* swept_rate = sweep_entry(tree, "acceptance");
  // As written (an axis whose value the reader refused is still given: no second message).
  const YEntry* axis_steps = hardware_entry(tree, "serving.speculative.steps");
  const YEntry* axis_rate = hardware_entry(tree, "serving.speculative.acceptance");
  // Keys as written: a value the field reader refused is still given (no second message for it).
  if (!written(tree, "steps") && !swept_steps && !axis_steps)
    d.error(p.where,
            "serving.speculative.steps: required: the draft tokens per sequence per iteration (k, 1 to 16), "
            "or a list of them in sweep.serving.speculative_steps");
  const char* steps_elsewhere = written(tree, "steps") ? "serving.speculative.steps"
                                : swept_steps          ? "sweep.serving.speculative_steps"
                                                       : nullptr;
  if (swept_steps && written(tree, "steps"))
    d.error(swept_steps->key_where,
            "sweep.serving.speculative_steps: serving.speculative.steps is given too; state k in one place");
  if (axis_steps && steps_elsewhere)
    d.error(axis_steps->key_where, "sweep.hardware.serving.speculative.steps: " +
                                       std::string(steps_elsewhere) + " is given too; state k in one place");
  const bool rate = written(tree, "acceptance"), table = written(tree, "acceptance_by_position");
  const char* rate_elsewhere = rate         ? "serving.speculative.acceptance"
                               : table      ? "serving.speculative.acceptance_by_position"
                               : swept_rate ? "sweep.serving.acceptance"
                                            : nullptr;
  if (swept_rate && (rate || table))
    d.error(swept_rate->key_where, std::string("sweep.serving.acceptance: ") + rate_elsewhere +
                                       " is given too; state the acceptance in one place");
  else if (axis_rate && rate_elsewhere)
    d.error(axis_rate->key_where,
            "sweep.hardware.serving.speculative.acceptance: " + std::string(rate_elsewhere) +
                " is given too; state the acceptance in one place");
  else if (rate == table && !swept_rate && !axis_rate)
    d.error(p.where,
            std::string("serving.speculative: give one of acceptance (a rate) and acceptance_by_position "
                        "(a list, one per draft position)") +
                (rate ? ", not both" : ", or sweep rates in sweep.serving.acceptance"));
  std::int64_t longest = p.steps;
  for (std::int64_t k : s.sweep.serving_speculative_steps) longest = std::max(longest, k);
  if (const HardwareAxis* a = explore_axis(s, "steps"))
    for (double k : a->values) longest = std::max(longest, static_cast<std::int64_t>(k));
  if (!p.acceptance_by_position.empty() && longest > 0 &&
      static_cast<std::int64_t>(p.acceptance_by_position.size()) < longest)
    d.error(where_of(tree, "acceptance_by_position", p.where),
            "serving.speculative.acceptance_by_position: " + std::to_string(p.acceptance_by_position.size()) +
                " values for " + std::to_string(longest) + " steps; expected one per draft position");
}

}  // namespace

void check_speculative(const YNode& tree, const Scenario& s, const ModelSpec* model, Diags& d) {
  const SpeculativeSpec& p = s.serving.speculative;
  check_sweep_needs_block(tree, s, d);
  // Not a mapping: the field reader said so; nothing more to say of its keys.
  if (!p.given || !block_of(tree)) return;
  check_steps_and_acceptance(tree, s, d);
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
    runs += (runs.empty() ? "" : ", ") + std::string(speculative_method_name(m));
  Diags d;
  d.error(where_of(tree, "method", p.where),
          "serving.speculative.method: " + s.framework.profile.title + " " + v.version + " drafts with " +
              (runs.empty() ? std::string("no method Tessera models") : runs) + ", not " +
              speculative_method_name(p.method) +
              (v.speculative.source.empty() ? std::string() : " (" + v.speculative.source + ")"));
  throw_errors(d);
}

}  // namespace tessera::loader
