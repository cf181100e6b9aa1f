// A disaggregated pool's own parallelism and load balancer (field_table.hpp): serving.disaggregated.prefill
// and serving.disaggregated.decode, and serving.eplb. docs/scenario-format.md "Disaggregated pools".
#include <iterator>

#include "scenario/fields/field_row_builders.hpp"
#include "scenario/scenario.hpp"

namespace tessera::schema {

namespace {

using namespace rows;
constexpr FieldFile kPoolFile = FieldFile::scenario;
constexpr double kPoolDegreeMax = 1'000'000;

PoolParallelism& prefill_of(const FieldSite& s) { return s.scenario->serving.disaggregated.prefill; }
PoolParallelism& decode_of(const FieldSite& s) { return s.scenario->serving.disaggregated.decode; }
EplbSpec& prefill_eplb_of(const FieldSite& s) { return s.scenario->serving.disaggregated.prefill_eplb; }
EplbSpec& decode_eplb_of(const FieldSite& s) { return s.scenario->serving.disaggregated.decode_eplb; }
EplbSpec& serving_eplb_of(const FieldSite& s) { return s.scenario->serving.eplb; }

// The balancer's rows under PATH; OF picks its EplbSpec (docs/physics.md §4 "MoE load").
#define TESSERA_EPLB_ROWS(PATH, WHO, OF)                                                                    \
  mapping(PATH, kPoolFile, "",                                                                              \
          "the expert-parallel load balancer (EPLB) " WHO                                                   \
          " runs: {redundant_experts}; absent: experts "                                                    \
          "placed by id, no replicas"),                                                                     \
      integer(PATH ".redundant_experts", kPoolFile, nullptr, 0, kPoolDegreeMax,                             \
              "R: replicas of the hottest experts beside the E experts, (E + R)/ep per EP rank; every "     \
              "ep it meets must be > 1 and divide E + R (vLLM --eplb-config num_redundant_experts, SGLang " \
              "--ep-num-redundant-experts, TensorRT-LLM moe_config.load_balancer num_slots = E + R)",       \
              store_slot([](const FieldSite& s, const FieldItems& v) {                                      \
                OF(s).given = true;                                                                         \
                OF(s).redundant_experts = v.integers[0];                                                    \
              }))

// One pool's rows; OF picks its PoolParallelism.
#define TESSERA_POOL_ROWS(POOL, OF)                                                                        \
  mapping("serving.disaggregated." POOL, kPoolFile, "",                                                    \
          "the " POOL " pool's own settings: {parallelism, eplb}"),                                        \
      mapping("serving.disaggregated." POOL ".parallelism", kPoolFile, "",                                 \
              "the sweep's configurations the " POOL                                                       \
              " pool may take: {cp, tp, pp, dp, ep, ffn_shard_scope}, "                                    \
              "each a list of the sweep's values (absent: all of them)"),                                  \
      list(integer("serving.disaggregated." POOL ".parallelism.cp", kPoolFile, "", 1, kPoolDegreeMax,      \
                   "context-parallel degrees the pool may take",                                           \
                   store_slot([](const FieldSite& s, const FieldItems& v) { OF(s).cp = degrees(v); }))),   \
      list(integer("serving.disaggregated." POOL ".parallelism.tp", kPoolFile, "", 1, kPoolDegreeMax,      \
                   "tensor-parallel degrees the pool may take (attention TP)",                             \
                   store_slot([](const FieldSite& s, const FieldItems& v) { OF(s).tp = degrees(v); }))),   \
      list(integer("serving.disaggregated." POOL ".parallelism.pp", kPoolFile, "", 1, kPoolDegreeMax,      \
                   "pipeline-parallel degrees the pool may take",                                          \
                   store_slot([](const FieldSite& s, const FieldItems& v) { OF(s).pp = degrees(v); }))),   \
      list(integer("serving.disaggregated." POOL ".parallelism.dp", kPoolFile, "", 1, kPoolDegreeMax,      \
                   "data-parallel degrees the pool may take (attention DP with ffn_shard_scope TP+CP+DP)", \
                   store_slot([](const FieldSite& s, const FieldItems& v) { OF(s).dp = degrees(v); }))),   \
      list(integer("serving.disaggregated." POOL ".parallelism.ep", kPoolFile, "", 1, kPoolDegreeMax,      \
                   "expert-parallel widths the pool may take",                                             \
                   store_slot([](const FieldSite& s, const FieldItems& v) { OF(s).ep = degrees(v); }))),   \
      any_case(                                                                                            \
          slotted(list(choice("serving.disaggregated." POOL ".parallelism.ffn_shard_scope", kPoolFile, "", \
                              kFfnScopes, "which ranks share the FFN in this pool (case-insensitive)")),   \
                  store_slot([](const FieldSite& s, const FieldItems& v) {                                 \
                    OF(s).ffn_shard_scope = choices_as<FfnShardScope>(v);                                  \
                  })))

constexpr FieldRow kPoolRows[] = {
    TESSERA_POOL_ROWS("prefill", prefill_of), TESSERA_POOL_ROWS("decode", decode_of),
    TESSERA_EPLB_ROWS("serving.eplb", "every pool", serving_eplb_of),
    TESSERA_EPLB_ROWS("serving.disaggregated.prefill.eplb", "the prefill pool (instead of serving.eplb)",
                      prefill_eplb_of),
    TESSERA_EPLB_ROWS("serving.disaggregated.decode.eplb", "the decode pool (instead of serving.eplb)",
                      decode_eplb_of)};

#undef TESSERA_POOL_ROWS
#undef TESSERA_EPLB_ROWS

}  // namespace

std::span<const FieldRow> pool_field_rows() { return {kPoolRows, std::size(kPoolRows)}; }

}  // namespace tessera::schema
