// A scenario's own fields (field_table.hpp): the file header, references to the model and
// machine, overrides, number formats, workload, plugins, sweep and report.
// docs/scenario-format.md "Scenario file".
#include <iterator>

#include "host/plugin_defaults.hpp"
#include "scenario/fields/field_row_builders.hpp"
#include "scenario/fields/stream_rows.hpp"
#include "scenario/scenario.hpp"

namespace tessera::schema {

namespace {

using namespace rows;
constexpr FieldFile S = FieldFile::scenario;

constexpr ParamChoice kScenarioKind[] = {{"scenario", "a scenario file"}};
constexpr ParamChoice kModes[] = {
    {"decode", "one token per sequence per step, attending to `context` cached tokens"},
    {"prefill", "the whole prompt of `context` tokens (time to first token)"},
    {"serve",
     "requests of `input` prompt and `output` generated tokens at a swept concurrency (`tessera serve`)"}};
constexpr ParamChoice kScopes[] = {{"full", "attention + FFN/MoE + LM head + pipeline hops"},
                                   {"attention", "attention stages only"}};
constexpr ParamChoice kKvShardModes[] = {{"split", "KV heads split across TP ranks"},
                                         {"replicate", "KV heads replicated on every TP rank"}};
constexpr ParamChoice kTransferOverlaps[] = {
    {"none", "the whole KV is sent after the prefill"},
    {"layerwise", "layer l's KV is sent while layer l + 1 is prefilled"}};
constexpr ParamChoice kCpRingVariants[] = {
    {"kv", "ring attention passing KV blocks"},
    {"qoml", "ring attention passing queries, outputs and softmax stats"},
    {"tree", "tree attention (all-reduce of partial results)"}};

// serving.requests (scenario/schemas/request_spec.hpp: each list in its enum's order).
constexpr ParamChoice kArrivals[] = {
    {"poisson", "exponential gaps between arrivals, mean 1/rate"},
    {"gamma", "gamma-distributed gaps of mean 1/rate and coefficient of variation cv (bursty above 1)"},
    {"constant", "one request every 1/rate"},
    {"concurrency",
     "a closed loop: `concurrency` clients, each sending its next request when its last finishes"},
    {"trace", "the arrivals and lengths of a trace file"}};
constexpr ParamChoice kTraceFormats[] = {
    {"tessera", "CSV with columns time_s, input, output and optionally prefix_id"},
    {"azure", "the Azure LLM inference trace: CSV TIMESTAMP, ContextTokens, GeneratedTokens"},
    {"burstgpt", "BurstGPT: CSV Timestamp, Request tokens, Response tokens"},
    {"mooncake", "Mooncake: JSON lines with timestamp (ms), input_length, output_length"}};
constexpr ParamChoice kRouters[] = {
    {"round_robin", "the i-th request to replica i mod dp"},
    {"least_outstanding", "to the replica with the fewest requests waiting or running"}};
constexpr ParamChoice kPreemptions[] = {
    {"recompute", "a preempted request's KV is dropped and recomputed (vLLM V1, SGLang)"},
    {"swap", "a preempted request's KV is copied to host memory and back (vLLM V0's swap)"},
    {"no_evict", "admit a request only when its prompt and whole output fit: no preemption (TensorRT-LLM)"}};

RequestsSpec& requests_of(const FieldSite& s) { return s.scenario->serving.requests; }
requests::LengthSpec& input_of(const FieldSite& s) { return requests_of(s).stream.input; }
requests::LengthSpec& output_of(const FieldSite& s) { return requests_of(s).stream.output; }
DisaggregationSpec& disaggregated_of(const FieldSite& s) { return s.scenario->serving.disaggregated; }

constexpr FieldRow tokens(std::string_view path, const char* def, const char* help,
                          std::int64_t* (*slot)(const FieldSite&)) {
  FieldRow r = integer(path, S, def, 1, kNoMax, help, int_slot(slot), "workload.tokens");
  r.format = FieldFormat::tokens;
  return r;
}

constexpr double kDegreeMax = 1'000'000;

// A list of token counts (sweep.serving, serving.disaggregated.prefill_batch).
constexpr FieldRow token_list(std::string_view path, const char* def, double min, const char* help,
                              void (*store)(const FieldSite&, const FieldItems&)) {
  FieldRow r = list(integer(path, S, def, min, kNoMax, help, store_slot(store), "workload.tokens"));
  r.format = FieldFormat::tokens;
  return r;
}

// An SLO on a latency: a positive time with a unit (a target on the mean), or a mapping of
// statistics to times ({mean: 500 ms, p99: 2 s}; scenario/schemas/slo_spec.hpp).
constexpr FieldRow slo_time(std::string_view path, const char* help) {
  FieldRow r = quantity(path, S, Dimension::time, "", true, help);
  r.format = FieldFormat::statistics;
  return r;
}

constexpr FieldRow kScenarioRows[] = {
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
    dtype("dtype.state", S, "", "recurrent state of linear and mamba layers"),
    mapping("workload", S, nullptr, "what one request does, e.g. {mode: decode, context: 128K, batch: 1}"),
    slotted(
        choice("workload.mode", S, nullptr, kModes, "the phase simulated"),
        store_slot([](const FieldSite& s, const FieldItems& v) { s.workload->mode = choice_as<Mode>(v); })),
    tokens("workload.context", "",
           "tokens cached (decode) or in the prompt (prefill); required in decode and prefill, refused in "
           "serve (use input)",
           [](const FieldSite& s) { return &s.workload->context; }),
    tokens("workload.batch", "1",
           "sequences per data-parallel replica; refused in serve (use sweep.serving.batch)",
           [](const FieldSite& s) { return &s.workload->batch; }),
    tokens("workload.chunk", "",
           "prefill chunk, at most context; absent: the whole prompt; refused in serve (use "
           "sweep.serving.token_budget)",
           [](const FieldSite& s) { return &s.workload->chunk; }),
    tokens("workload.input", "",
           "serve: prompt tokens per request (ISL); required in serve, refused otherwise",
           [](const FieldSite& s) { return &s.workload->input; }),
    tokens(
        "workload.output", "",
        "serve: generated tokens per request (OSL, the first included); required in serve, refused otherwise",
        [](const FieldSite& s) { return &s.workload->output; }),
    slotted(
        choice("scope", S, "full", kScopes, "which stages are simulated"),
        store_slot([](const FieldSite& s, const FieldItems& v) { s.workload->scope = choice_as<Scope>(v); })),
    text("framework", S, "",
         "NAME[@VERSION] of data/frameworks.yaml (vllm, sglang, tensorrt-llm; NAME alone: its newest listed "
         "version): restricts the space to what that version runs and names what --deploy writes "
         "(docs/frameworks.md); absent: every knob"),
    free_keys(
        "engine", S,
        "the framework's KV-cache knobs (needs framework:): vLLM gpu_memory_utilization, block_size, "
        "sampler_bytes, max_num_seqs, non_torch, non_torch_tp; SGLang mem_fraction_static, page_size, "
        "load_overhead; TensorRT-LLM free_gpu_memory_fraction, tokens_per_block, max_tokens; any: gpu_memory "
        "(the total the engine sees); absent: the version's defaults (docs/frameworks.md \"KV capacity\")"),
    mapping("plugins", S, "", "the plugins of the run: {latency, memory, search, objectives, serving}"),
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
               kNoMax, nullptr, 0,
               "objectives: a name, {name: ..., params}, or a list of them; serve: default "
               "[tokens_per_s_per_pe, tokens_per_s_per_user]"},
     true},
    {"plugins.serving", S, FieldUse::choice,
     ParamSpec{"serving", ParamType::string, Dimension::none, plugin_defaults::kServing, kNoMin, kNoMax,
               nullptr, 0, "serve only: the serving model, a name or {name: ..., params}"},
     false},
    {"plugins.scheduler", S, FieldUse::choice,
     ParamSpec{"scheduler", ParamType::string, Dimension::none, "", kNoMin, kNoMax, nullptr, 0,
               "serve only: the request simulator's scheduling policy, a name or {name: ..., params}; "
               "left out: the framework's built-in rules"},
     false},
    mapping("sweep", S, "", "what is searched: {parallelism, hardware, serving}"),
    mapping("sweep.parallelism", S, "", "the values of each parallelism knob (a value or a list)"),
    list(integer(
        "sweep.parallelism.cp", S, "[1]", 1, kDegreeMax, "context-parallel degrees",
        store_slot([](const FieldSite& s, const FieldItems& v) { s.scenario->sweep.cp = degrees(v); }))),
    list(integer(
        "sweep.parallelism.tp", S, "[1]", 1, kDegreeMax, "tensor-parallel degrees",
        store_slot([](const FieldSite& s, const FieldItems& v) { s.scenario->sweep.tp = degrees(v); }))),
    list(integer(
        "sweep.parallelism.pp", S, "[1]", 1, kDegreeMax, "pipeline-parallel degrees",
        store_slot([](const FieldSite& s, const FieldItems& v) { s.scenario->sweep.pp = degrees(v); }))),
    list(integer(
        "sweep.parallelism.dp", S, "[1]", 1, kDegreeMax, "data-parallel degrees",
        store_slot([](const FieldSite& s, const FieldItems& v) { s.scenario->sweep.dp = degrees(v); }))),
    list(integer(
        "sweep.parallelism.ep", S, "[1]", 1, kDegreeMax, "expert-parallel degrees",
        store_slot([](const FieldSite& s, const FieldItems& v) { s.scenario->sweep.ep = degrees(v); }))),
    slotted(list(choice("sweep.parallelism.kv_shard_mode", S, "[split, replicate]", kKvShardModes,
                        "how KV heads are placed across TP ranks")),
            store_slot([](const FieldSite& s, const FieldItems& v) {
              s.scenario->sweep.kv_shard_mode = choices_as<KvShardMode>(v);
            })),
    any_case(slotted(list(choice("sweep.parallelism.ffn_shard_scope", S,
                                 "[TP, TP+CP, TP+CP+DP] (dense models: [TP, TP+CP])", kFfnScopes,
                                 "which ranks share the FFN (case-insensitive)")),
                     store_slot([](const FieldSite& s, const FieldItems& v) {
                       s.scenario->sweep.ffn_shard_scope = choices_as<FfnShardScope>(v);
                     }))),
    list(text("sweep.parallelism.tp_placement", S, "[pe, <first level>]",
              "where TP groups sit: pe (or the PE's name) or a level's name")),
    list(text("sweep.parallelism.cp_placement", S, "[<first level>, pe]",
              "where CP groups sit: pe (or the PE's name) or a level's name")),
    slotted(list(choice("sweep.parallelism.cp_ring_variant", S, "[kv, qoml]", kCpRingVariants,
                        "how context-parallel attention exchanges")),
            store_slot([](const FieldSite& s, const FieldItems& v) {
              s.scenario->sweep.cp_ring_variant = choices_as<CpRingVariant>(v);
            })),
    free_keys(
        "sweep.hardware", S,
        "numeric machine fields, machine-block parameters (machine.plugins.<plugin>.<param>) and scenario "
        "plugin parameters (plugins.latency.<name>.<param>, plugins.objectives.<name>.<param>, "
        "plugins.memory.<param>, plugins.search.<param>) by dotted path to lists of values, e.g. "
        "{machine.pe.hbm.bandwidth: [2 TB/s, 3 TB/s]}; plugin parameters are checked against the "
        "plugin's schema; explore on a serve scenario also takes serving.speculative.steps and "
        "serving.speculative.acceptance"),
    mapping("sweep.serving", S, "",
            "serve only: the serving points searched per configuration: {batch, token_budget, "
            "speculative_steps, acceptance}"),
    token_list("sweep.serving.batch", kDefaultServingBatchText, 1,
               "sequences in flight per replica (a replica is a configuration's dp group)",
               [](const FieldSite& s, const FieldItems& v) {
                 s.scenario->sweep.serving_batch.assign(v.integers.begin(), v.integers.end());
               }),
    token_list("sweep.serving.token_budget", kDefaultServingTokenBudgetText, 0,
               "tokens per iteration, decode and prefill together (vLLM's --max-num-batched-tokens, "
               "TensorRT-LLM's max_num_tokens); 0: no limit",
               [](const FieldSite& s, const FieldItems& v) {
                 s.scenario->sweep.serving_token_budget.assign(v.integers.begin(), v.integers.end());
               }),
    slotted(list(integer("sweep.serving.speculative_steps", S, "", 0, 16,
                         "with serving.speculative: the draft lengths k searched (0: no drafting, the same "
                         "engine without its drafter); absent: serving.speculative.steps")),
            store_slot([](const FieldSite& s, const FieldItems& v) {
              s.scenario->sweep.serving_speculative_steps.assign(v.integers.begin(), v.integers.end());
            })),
    slotted(list(real("sweep.serving.acceptance", S, "", 0, 1, false,
                      "with serving.speculative: the geometric acceptance rates searched (what-if: a "
                      "better head, another workload); absent: serving.speculative's acceptance")),
            store_slot([](const FieldSite& s, const FieldItems& v) {
              s.scenario->sweep.serving_acceptance.assign(v.reals.begin(), v.reals.end());
            })),
    mapping("serving", S, "",
            "serve only: the service level and the PE budget: {slo, max_pes, disaggregated, prefill_machine, "
            "decode_machine, requests}"),
    mapping("serving.slo", S, "",
            "targets a serving point must meet (each optional); a latency takes a time (on the mean) or "
            "{mean: T, p<N>: T} (percentiles N in (0, 100)); the steady state binds each metric's tightest "
            "target, a request simulation each statistic"),
    slo_time("serving.slo.ttft",
             "time to first token at most: a time (the mean) or {mean: T, p99: T, ...}; absent: no target"),
    slo_time(
        "serving.slo.tpot",
        "time per output token after the first (per request, (E2E - TTFT)/(OSL - 1)) at most: a time (the "
        "mean) or {mean: T, p90: T, ...}; absent: no target"),
    slo_time(
        "serving.slo.e2e",
        "end-to-end request latency at most: a time (the mean) or {mean: T, p99: T, ...}; absent: no target"),
    real("serving.slo.tokens_per_s_per_user", S, "", 0, kNoMax, true,
         "mean generated tokens per second per request at least (1/TPOT); absent: no target",
         real_slot([](const FieldSite& s) { return &s.scenario->serving.slo.min_tokens_per_s_per_user; })),
    integer("serving.max_pes", S, "", 1, kNoMax,
            "PEs one configuration may use at most, all replicas together; absent: no budget",
            int_slot([](const FieldSite& s) { return &s.scenario->serving.max_pes; }), "machine.pes"),
    {"serving.prefill_machine", S, FieldUse::reference,
     ParamSpec{"prefill_machine", ParamType::string, Dimension::none, "", kNoMin, kNoMax, nullptr, 0,
               "serve with serving.disaggregated only: the prefill pool's machine, as `machine:` takes it "
               "(a file path, a machine name, or an inline mapping); absent: `machine`. Given: the pools "
               "share no machine level and serving.disaggregated.transfer is required"},
     false},
    {"serving.decode_machine", S, FieldUse::reference,
     ParamSpec{"decode_machine", ParamType::string, Dimension::none, "", kNoMin, kNoMax, nullptr, 0,
               "serve with serving.disaggregated only: the decode pool's machine, as `machine:` takes it; "
               "absent: `machine`. Given: serving.disaggregated.transfer is required"},
     false},
    mapping("serving.disaggregated", S, "",
            "present: `tessera serve` also pairs a prefill pool with a decode pool (docs/physics.md §12.4) "
            "beside the aggregated study: {transfer_overlap, max_replicas, prefill_batch, transfer, prefill, "
            "decode}"),
    slotted(choice("serving.disaggregated.transfer_overlap", S, "layerwise", kTransferOverlaps,
                   "how the prompt's KV travels to the decode pool"),
            store_slot([](const FieldSite& s, const FieldItems& v) {
              disaggregated_of(s).overlap = choice_as<TransferOverlap>(v);
            })),
    integer("serving.disaggregated.max_replicas", S, "8", 1, 64,
            "instances of each pool's configuration at most (x and y)",
            int_slot([](const FieldSite& s) { return &disaggregated_of(s).max_replicas; })),
    token_list("serving.disaggregated.prefill_batch", "[1]", 1, "prompts per prefill iteration",
               [](const FieldSite& s, const FieldItems& v) {
                 disaggregated_of(s).prefill_batch.assign(v.integers.begin(), v.integers.end());
               }),
    mapping("serving.disaggregated.transfer", S, "",
            "the link between the pools, each PE's: {bandwidth, latency}; absent: the innermost machine "
            "level holding both pools' PEs (required when no level does)"),
    quantity("serving.disaggregated.transfer.bandwidth", S, Dimension::bandwidth, nullptr, true,
             "each PE's achievable injection bandwidth to the other pool, e.g. 50 GB/s",
             real_slot([](const FieldSite& s) { return &disaggregated_of(s).transfer.bandwidth; })),
    quantity("serving.disaggregated.transfer.latency", S, Dimension::time, "0 s", false, "per message",
             real_slot([](const FieldSite& s) { return &disaggregated_of(s).transfer.latency; })),
    mapping(
        "serving.requests", S, "",
        "present: `tessera serve` also simulates a stream of requests (docs/physics.md §12.5): {arrival, "
        "rate, cv, concurrency, trace, trace_format, input, output, prefix, count, warmup, seed, router}"),
    slotted(choice("serving.requests.arrival", S, "poisson", kArrivals, "how requests arrive"),
            store_slot([](const FieldSite& s, const FieldItems& v) {
              requests_of(s).stream.arrival.kind = choice_as<requests::ArrivalKind>(v);
            })),
    real("serving.requests.rate", S, "", 0, 1e9, true,
         "poisson, gamma, constant: requests per second (required with them)",
         real_slot([](const FieldSite& s) { return &requests_of(s).stream.arrival.rate_per_s; })),
    real("serving.requests.cv", S, "1", 0, 100, true,
         "gamma: the coefficient of variation of the gaps between arrivals (1: as Poisson; above 1: bursty)",
         real_slot([](const FieldSite& s) { return &requests_of(s).stream.arrival.cv; })),
    integer(
        "serving.requests.concurrency", S, "", 1, 1e6,
        "concurrency: clients, each sending its next request when its last one finishes (required with it)",
        int_slot([](const FieldSite& s) { return &requests_of(s).stream.arrival.concurrency; })),
    slotted(text("serving.requests.trace", S, "",
                 "trace: the trace file, relative to the scenario's folder (required with it; "
                 "docs/scenario-format.md \"Traces\")"),
            text_slot([](const FieldSite& s) { return &requests_of(s).trace_file; })),
    slotted(choice("serving.requests.trace_format", S, "tessera", kTraceFormats, "trace: the file's columns"),
            store_slot([](const FieldSite& s, const FieldItems& v) {
              requests_of(s).trace_format = choice_as<requests::TraceFormat>(v);
            })),
    mapping("serving.requests.input", S, "",
            "prompt tokens per request: {distribution, tokens, min, max, median, sigma, table}; absent: "
            "workload.input"),
    slotted(choice("serving.requests.input.distribution", S, "fixed", kLengthKinds,
                   "how prompt lengths are drawn"),
            store_slot([](const FieldSite& s, const FieldItems& v) {
              input_of(s).kind = choice_as<requests::LengthKind>(v);
            })),
    stream_tokens("serving.requests.input.tokens", "", 1, "fixed: the length (required with it)",
                  int_slot([](const FieldSite& s) { return &input_of(s).value; })),
    stream_tokens("serving.requests.input.min", "1", 1, "uniform: the least (required); lognormal: the clamp",
                  int_slot([](const FieldSite& s) { return &input_of(s).min; })),
    stream_tokens("serving.requests.input.max", "", 1, "uniform: the most (required); lognormal: the clamp",
                  int_slot([](const FieldSite& s) { return &input_of(s).max; })),
    real("serving.requests.input.median", S, "", 0, 1e9, true, "lognormal: the median length (required)",
         real_slot([](const FieldSite& s) { return &input_of(s).median; })),
    real("serving.requests.input.sigma", S, "", 0, 10, false,
         "lognormal: the standard deviation of ln(length) (required)",
         real_slot([](const FieldSite& s) { return &input_of(s).sigma; })),
    free_keys("serving.requests.input.table", S,
              "table: token counts with their weights, e.g. {128: 1, 1K: 3} (required with it)"),
    mapping("serving.requests.output", S, "",
            "generated tokens per request, the first included: as `input`; absent: workload.output"),
    slotted(choice("serving.requests.output.distribution", S, "fixed", kLengthKinds,
                   "how output lengths are drawn"),
            store_slot([](const FieldSite& s, const FieldItems& v) {
              output_of(s).kind = choice_as<requests::LengthKind>(v);
            })),
    stream_tokens("serving.requests.output.tokens", "", 1, "fixed: the length (required with it)",
                  int_slot([](const FieldSite& s) { return &output_of(s).value; })),
    stream_tokens("serving.requests.output.min", "1", 1,
                  "uniform: the least (required); lognormal: the clamp",
                  int_slot([](const FieldSite& s) { return &output_of(s).min; })),
    stream_tokens("serving.requests.output.max", "", 1, "uniform: the most (required); lognormal: the clamp",
                  int_slot([](const FieldSite& s) { return &output_of(s).max; })),
    real("serving.requests.output.median", S, "", 0, 1e9, true, "lognormal: the median length (required)",
         real_slot([](const FieldSite& s) { return &output_of(s).median; })),
    real("serving.requests.output.sigma", S, "", 0, 10, false,
         "lognormal: the standard deviation of ln(length) (required)",
         real_slot([](const FieldSite& s) { return &output_of(s).sigma; })),
    free_keys("serving.requests.output.table", S,
              "table: token counts with their weights, e.g. {128: 1, 1K: 3} (required with it)"),
    mapping("serving.requests.prefix", S, "",
            "shared prompt prefixes: {groups, tokens}; each request starts with one group's prefix"),
    integer("serving.requests.prefix.groups", S, "0", 0, 1e9, "distinct prefixes, drawn uniformly; 0: none",
            int_slot([](const FieldSite& s) { return &requests_of(s).stream.prefix.groups; })),
    stream_tokens("serving.requests.prefix.tokens", "0", 0, "the prefix's length, counted in the prompt",
                  int_slot([](const FieldSite& s) { return &requests_of(s).stream.prefix.tokens; })),
    free_keys(
        "serving.requests.priorities", S,
        "priority classes with their weights, e.g. {0: 1, 1: 3} (lower = more urgent), drawn per request "
        "for a scheduler plugin (a trace's requests too); absent: every request class 0"),
    integer("serving.requests.count", S, "1000", 1, 1e8, "requests sent (a trace: at most its rows)",
            store_slot([](const FieldSite& s, const FieldItems& v) {
              requests_of(s).stream.requests = static_cast<std::uint64_t>(v.integers[0]);
            })),
    integer("serving.requests.warmup", S, "", 0, 1e8,
            "the first requests, simulated but not measured; absent: a tenth of those sent",
            store_slot([](const FieldSite& s, const FieldItems& v) {
              requests_of(s).warmup_given = true;
              requests_of(s).stream.warmup = static_cast<std::uint64_t>(v.integers[0]);
            })),
    integer("serving.requests.seed", S, "1", 0, 9.007199254740992e15, "the random streams' seed",
            store_slot([](const FieldSite& s, const FieldItems& v) {
              requests_of(s).stream.seed = static_cast<std::uint64_t>(v.integers[0]);
            })),
    slotted(choice("serving.requests.router", S, "round_robin", kRouters,
                   "how requests are spread over dp replicas"),
            store_slot([](const FieldSite& s, const FieldItems& v) {
              requests_of(s).router = choice_as<requests::Router>(v);
            })),
    slotted(choice("serving.requests.preemption", S, "", kPreemptions,
                   "what an engine does when its KV runs out; absent: the framework's, else recompute"),
            store_slot([](const FieldSite& s, const FieldItems& v) {
              requests_of(s).preemption_given = true;
              requests_of(s).preemption = choice_as<requests::Preemption>(v);
            })),
    quantity("serving.requests.swap_bandwidth", S, Dimension::bandwidth, "", true,
             "swap: each PE's bandwidth to host memory (required with swap)",
             real_slot([](const FieldSite& s) { return &requests_of(s).swap_bandwidth; })),
    quantity("serving.requests.swap_latency", S, Dimension::time, "0 s", false,
             "swap: per iteration that copies blocks",
             real_slot([](const FieldSite& s) { return &requests_of(s).swap_latency_s; })),
    mapping("report", S, "", "what is written: {top, csv, json, scopes}"),
    integer("report.top", S, "20", 1, kNoMax, "rows of the ranked table",
            int_slot([](const FieldSite& s) { return &s.scenario->report.top; }), "report.top"),
    slotted(text("report.csv", S, "", "a CSV file of every configuration; absent: none"),
            text_slot([](const FieldSite& s) { return &s.scenario->report.csv; })),
    slotted(text("report.json", S, "", "a JSON summary file; absent: none"),
            text_slot([](const FieldSite& s) { return &s.scenario->report.json; })),
    slotted(list(choice("report.scopes", S, "", kScopes,
                        "run, serve, explore, explain, sensitivity, compare: also study these scopes (e.g. "
                        "[full, attention]) for --html, --json's by_scope; the report flips between them "
                        "(docs/report.md); absent: the scenario's scope alone")),
            store_slot([](const FieldSite& s, const FieldItems& v) {
              s.scenario->report.scopes = choices_as<Scope>(v);
            })),
};

}  // namespace

std::span<const FieldRow> scenario_field_rows() { return {kScenarioRows, std::size(kScenarioRows)}; }

}  // namespace tessera::schema
