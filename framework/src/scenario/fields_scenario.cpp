// A scenario's own fields (field_table.hpp): the file header, references to the model and
// machine, overrides, number formats, workload, plugins, sweep and report.
// docs/scenario-format.md "Scenario file".
#include <iterator>

#include "host/plugin_defaults.hpp"
#include "scenario/field_row_builders.hpp"

namespace tessera::schema {

namespace {

using namespace rows;
constexpr FieldFile S = FieldFile::scenario;

constexpr ParamChoice kScenarioKind[] = {{"scenario", "a scenario file"}};
constexpr ParamChoice kModes[] = {
    {"decode", "one token per sequence per step, attending to `context` cached tokens"},
    {"prefill", "the whole prompt of `context` tokens (time to first token)"}};
constexpr ParamChoice kScopes[] = {{"full", "attention + FFN/MoE + LM head + pipeline hops"},
                                   {"attention", "attention stages only"}};
constexpr ParamChoice kKvShardModes[] = {{"split", "KV heads split across TP ranks"},
                                         {"replicate", "KV heads replicated on every TP rank"}};
constexpr ParamChoice kFfnScopes[] = {{"TP", "the FFN sharded over TP"},
                                      {"TP+CP", "the FFN sharded over TP and CP"},
                                      {"TP+CP+DP", "the FFN sharded over TP, CP and DP"}};
constexpr ParamChoice kCpRingVariants[] = {
    {"kv", "ring attention passing KV blocks"},
    {"qoml", "ring attention passing queries, outputs and softmax stats"},
    {"tree", "tree attention (all-reduce of partial results)"}};

constexpr FieldSlot int_slot(std::int64_t* (*f)(const FieldSite&)) { return FieldSlot{nullptr, f, nullptr}; }

constexpr FieldRow tokens(std::string_view path, const char* def, const char* help,
                          std::int64_t* (*slot)(const FieldSite&)) {
  FieldRow r = integer(path, S, def, 1, kNoMax, help, int_slot(slot), "workload.tokens");
  r.format = FieldFormat::tokens;
  return r;
}

constexpr double kDegreeMax = 1'000'000;

constexpr FieldRow kRows[] = {
    integer("schema_version", S, nullptr, 1, 1, "file format version: 1"),
    choice("kind", S, nullptr, kScenarioKind, "scenario"),
    text("name", S, "", "the scenario's name; absent: the file's"),
    text("description", S, "", "free text"),
    {"model", S, FieldUse::reference,
     ParamSpec{"model", ParamType::string, Dimension::none, nullptr, kNoMin, kNoMax, nullptr, 0,
               "a model file path, a model name, an inline mapping, or {hf_config: PATH, family: ...}"},
     false},
    {"machine", S, FieldUse::reference,
     ParamSpec{"machine", ParamType::string, Dimension::none, nullptr, kNoMin, kNoMax, nullptr, 0,
               "a machine file path, a machine name, or an inline mapping"},
     false},
    free_keys("overrides", S,
              "dotted paths to values applied before validation, e.g. {machine.pe.hbm.bandwidth: 2 TB/s}"),
    mapping("dtype", S, "", "number formats replacing the model's (keys left out keep the model's)"),
    dtype("dtype.weights", S, "", "every weight matrix whose part is not named below"),
    dtype("dtype.attention_weights", S, "", "attention projection weights"),
    dtype("dtype.ffn_weights", S, "", "dense FFN weights"),
    dtype("dtype.expert_weights", S, "", "routed and shared expert weights"),
    dtype("dtype.lm_head_weights", S, "", "LM head (and embedding) weights"),
    dtype("dtype.kv", S, "", "KV cache storage"),
    dtype("dtype.attention", S, "", "the format attention computes in (QK^T, PV)"),
    dtype("dtype.activations", S, "", "activations between layers and GEMM inputs"),
    dtype("dtype.dispatch", S, "", "MoE dispatch payload and expert GEMM input"),
    mapping("workload", S, nullptr, "what one request does, e.g. {mode: decode, context: 128K, batch: 1}"),
    choice("workload.mode", S, nullptr, kModes, "the phase simulated"),
    tokens("workload.context", nullptr, "tokens cached (decode) or in the prompt (prefill)",
           [](const FieldSite& s) { return &s.workload->context; }),
    tokens("workload.batch", "1", "sequences per data-parallel replica",
           [](const FieldSite& s) { return &s.workload->batch; }),
    tokens("workload.chunk", "", "prefill chunk, at most context; absent: the whole prompt",
           [](const FieldSite& s) { return &s.workload->chunk; }),
    choice("scope", S, "full", kScopes, "which stages are simulated"),
    mapping("plugins", S, "", "the plugins of the run: {latency, memory, search, objectives}"),
    {"plugins.latency", S, FieldUse::choice,
     ParamSpec{"latency", ParamType::string, Dimension::none, plugin_defaults::kLatency, kNoMin, kNoMax,
               nullptr, 0, "latency model(s): a name, {name: ..., params}, or a list of them"},
     false},
    {"plugins.memory", S, FieldUse::choice,
     ParamSpec{"memory", ParamType::string, Dimension::none, plugin_defaults::kMemory, kNoMin, kNoMax,
               nullptr, 0, "memory model: a name or {name: ..., params}"},
     false},
    {"plugins.search", S, FieldUse::choice,
     ParamSpec{"search", ParamType::string, Dimension::none, plugin_defaults::kSearch, kNoMin, kNoMax,
               nullptr, 0, "search strategy: a name or {name: ..., params}"},
     false},
    {"plugins.objectives", S, FieldUse::choice,
     ParamSpec{"objectives", ParamType::string, Dimension::none, plugin_defaults::kObjectivesText, kNoMin,
               kNoMax, nullptr, 0, "objectives: a name, {name: ..., params}, or a list of them"},
     true},
    mapping("sweep", S, "", "what is searched: {parallelism, hardware}"),
    mapping("sweep.parallelism", S, "", "the values of each parallelism knob (a value or a list)"),
    list(integer("sweep.parallelism.cp", S, "[1]", 1, kDegreeMax, "context-parallel degrees")),
    list(integer("sweep.parallelism.tp", S, "[1]", 1, kDegreeMax, "tensor-parallel degrees")),
    list(integer("sweep.parallelism.pp", S, "[1]", 1, kDegreeMax, "pipeline-parallel degrees")),
    list(integer("sweep.parallelism.dp", S, "[1]", 1, kDegreeMax, "data-parallel degrees")),
    list(integer("sweep.parallelism.ep", S, "[1]", 1, kDegreeMax, "expert-parallel degrees")),
    list(choice("sweep.parallelism.kv_shard_mode", S, "[split, replicate]", kKvShardModes,
                "how KV heads are placed across TP ranks")),
    list(choice("sweep.parallelism.ffn_shard_scope", S, "[TP, TP+CP, TP+CP+DP]", kFfnScopes,
                "which ranks share the FFN (case-insensitive)")),
    list(text("sweep.parallelism.tp_placement", S, "[pe, <first level>]",
              "where TP groups sit: pe (or the PE's name) or a level's name")),
    list(text("sweep.parallelism.cp_placement", S, "[<first level>, pe]",
              "where CP groups sit: pe (or the PE's name) or a level's name")),
    list(choice("sweep.parallelism.cp_ring_variant", S, "[kv, qoml]", kCpRingVariants,
                "how context-parallel attention exchanges")),
    free_keys(
        "sweep.hardware", S,
        "numeric machine fields, machine-block parameters (machine.plugins.<plugin>.<param>) and scenario "
        "plugin parameters (plugins.latency.<name>.<param>, plugins.objectives.<name>.<param>, "
        "plugins.memory.<param>, plugins.search.<param>) by dotted path to lists of values, e.g. "
        "{machine.pe.hbm.bandwidth: [2 TB/s, 3 TB/s]}; plugin parameters are checked against the "
        "plugin's schema"),
    mapping("report", S, "", "what is written: {top, csv, json}"),
    integer("report.top", S, "20", 1, kNoMax, "rows of the ranked table", {}, "report.top"),
    text("report.csv", S, "", "a CSV file of every configuration; absent: none"),
    text("report.json", S, "", "a JSON summary file; absent: none"),
};

}  // namespace

std::span<const FieldRow> scenario_field_rows() { return {kRows, std::size(kRows)}; }

}  // namespace tessera::schema
