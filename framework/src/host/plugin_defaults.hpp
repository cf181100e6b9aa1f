#pragma once
// The one table of plugin names the host writes: the default plugins a scenario gets when it
// names none, and the objectives whose values the reports and studies treat specially. Every
// other place refers to these constants, never to a plugin's name; what a plugin does beside its
// kind (its machine block's other key, its fallback, its error band, what calibrate fits) it
// declares in its descriptor (host/plugin_roles.hpp). tests/architecture/house_rules.py checks
// that no other file of framework/src names a plugin.
#include <array>

namespace tessera::plugin_defaults {

// `plugins:` left out of a scenario (docs/scenario-format.md). The latency model is the realistic
// one (achievable efficiencies, framework overheads; its predictions carry an error band,
// docs/accuracy.md "Error bands"); `overlap` is the reference physics a scenario names.
inline constexpr char kLatency[] = "calibrated";
inline constexpr char kMemory[] = "standard";
inline constexpr char kSearch[] = "exhaustive";
// The first ranks.
inline constexpr std::array<const char*, 3> kObjectives = {"latency", "pes", "efficiency"};
// kObjectives as the field table shows the default (tests/scenario/test_field_table.cpp checks
// that the two agree).
inline constexpr char kObjectivesText[] = "[latency, pes, efficiency]";

// `mode: serve` (`tessera serve`): the serving model, and the objectives when the scenario names
// none (the first ranks; the default Pareto is tokens/s/user against tokens/s/PE).
inline constexpr char kServing[] = "aggregated";
inline constexpr std::array<const char*, 2> kServingObjectives = {"tokens_per_s_per_pe",
                                                                  "tokens_per_s_per_user"};
inline constexpr char kServingObjectivesText[] = "[tokens_per_s_per_pe, tokens_per_s_per_user]";

// `validate-data`: the serving model its serving rows (concurrency, ISL and OSL stated) go through
// (docs/accuracy.md "Serving rows"): the serving study's default, aggregated; `--serving NAME`
// picks another (`static` for the static-batch benchmarks, `none` for no serving rows).
inline constexpr char kValidationServing[] = "aggregated";

// The serving model whose batch starts together (a static batch, no staggered arrivals): the
// serving reports and the evaluator say so instead of staggering its sequences.
inline constexpr char kStaticBatchServing[] = "static";

// Objectives with a special role.
inline constexpr char kLatencyObjective[] = "latency";            // ranks when no objective is chosen
inline constexpr char kCostObjective[] = "cost";                  // `explore`'s second axis
inline constexpr char kCostPerMtokObjective[] = "cost_per_mtok";  // `serve`: cost per million tokens
inline constexpr char kPesObjective[] = "pes";                    // a PE count: rows grouped by dp
inline constexpr char kEfficiencyObjective[] = "efficiency";      // printed with its compute/bw parts
// Objectives whose values are also fields of every configuration record (latency_s, pes,
// efficiency): the text report prints them once, not again as an objective line.
inline constexpr std::array<const char*, 3> kRecordObjectives = {"latency", "pes", "efficiency"};
// Objectives whose name already says their unit: the JSON/CSV column is the bare name ("pes",
// not "pes_PE").
inline constexpr std::array<const char*, 1> kSelfDescribingObjectives = {"pes"};

}  // namespace tessera::plugin_defaults
