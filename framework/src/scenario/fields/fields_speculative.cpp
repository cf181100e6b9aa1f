// The scenario's speculative-decoding fields (field_table.hpp): serving.speculative.
// docs/scenario-format.md "Speculative decoding", docs/physics.md §12.8.
#include <iterator>

#include "scenario/fields/field_row_builders.hpp"
#include "scenario/scenario.hpp"

namespace tessera::schema {

namespace {

using namespace rows;
constexpr FieldFile kSpecFile = FieldFile::scenario;

// In SpeculativeMethod's order.
constexpr ParamChoice kMethods[] = {
    {"mtp", "the model's multi-token-prediction module (DeepSeek-V3/R1): one decoder layer with its FFN"},
    {"eagle", "an EAGLE-3 head: one dense decoder layer over three of the target's hidden states"},
    {"draft", "a separate draft model (serving.speculative.model): its whole decode step per draft token"}};

SpeculativeSpec& spec_of(const FieldSite& s) { return s.scenario->serving.speculative; }

constexpr FieldRow kSpeculativeRows[] = {
    mapping("serving.speculative", kSpecFile, "",
            "speculative decoding: {method, steps, acceptance or acceptance_by_position} (docs/physics.md "
            "§12.8); steady-state serving studies"),
    slotted(choice("serving.speculative.method", kSpecFile, "mtp", kMethods, "the drafter"),
            store_slot([](const FieldSite& s, const FieldItems& v) {
              spec_of(s).method = static_cast<SpeculativeMethod>(v.choices[0]);
            })),
    integer("serving.speculative.steps", kSpecFile, "", 1, 16,
            "k: draft tokens per sequence per iteration (vLLM num_speculative_tokens, SGLang "
            "--speculative-num-steps, TensorRT-LLM max_draft_len / num_nextn_predict_layers)",
            int_slot([](const FieldSite& s) { return &spec_of(s).steps; })),
    real("serving.speculative.acceptance", kSpecFile, "", 0, 1, false,
         "the geometric model's rate: each draft token accepted with this probability once the ones before "
         "it were (give this or acceptance_by_position)",
         real_slot([](const FieldSite& s) { return &spec_of(s).acceptance; })),
    slotted(list(real("serving.speculative.acceptance_by_position", kSpecFile, "", 0, 1, false,
                      "the acceptance of draft position 1, 2, ... k, each given the ones before it accepted "
                      "(at least k values)")),
            store_slot([](const FieldSite& s, const FieldItems& v) {
              spec_of(s).acceptance_by_position.assign(v.reals.begin(), v.reals.end());
            })),
    slotted(text("serving.speculative.head", kSpecFile, "",
                 "eagle and draft: the drafter's checkpoint (a Hugging Face id or a path) --deploy writes, "
                 "e.g. yuhuili/EAGLE3-LLaMA3.3-Instruct-70B; mtp: the model's own module, nothing to give"),
            FieldSlot{.text = [](const FieldSite& s) { return &spec_of(s).head; }}),
    // Read as `model:` is (scenario_loader.cpp load_draft_model): a path, a name or an inline mapping.
    {"serving.speculative.model", kSpecFile, FieldUse::reference,
     ParamSpec{"model", ParamType::string, Dimension::none, "", kNoMin, kNoMax, nullptr, 0,
               "draft: the draft model Tessera prices, a model file path, a shipped model's name (e.g. "
               "llama3.2-1b) "
               "or an inline mapping, with the target's vocabulary"},
     false},
};

}  // namespace

std::span<const FieldRow> speculative_field_rows() { return {kSpeculativeRows, std::size(kSpeculativeRows)}; }

}  // namespace tessera::schema
