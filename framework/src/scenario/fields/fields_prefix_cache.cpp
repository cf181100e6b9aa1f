// The scenario's prefix-caching, KV-offload and conversation fields (field_table.hpp):
// serving.prefix_cache and serving.requests.conversation. docs/scenario-format.md "Prefix caching
// and KV offload", docs/physics.md §12.7.
#include <iterator>

#include "scenario/fields/field_row_builders.hpp"
#include "scenario/fields/stream_rows.hpp"
#include "scenario/scenario.hpp"

namespace tessera::schema {

namespace {

using namespace rows;
constexpr FieldFile kCacheFile = FieldFile::scenario;

// In OffloadTierKind's order.
constexpr ParamChoice kOffloadTiers[] = {{"dram", "the machine's host_memory.dram"},
                                         {"ssd", "the machine's host_memory.ssd (below dram)"}};

PrefixCacheSpec& cache_of(const FieldSite& s) { return s.scenario->serving.prefix_cache; }
requests::ConversationSpec& conversation_of(const FieldSite& s) {
  return s.scenario->serving.requests.stream.conversation;
}
requests::LengthSpec& message_of(const FieldSite& s) { return conversation_of(s).message; }

constexpr FieldRow kPrefixCacheRows[] = {
    mapping("serving.prefix_cache", kCacheFile, "",
            "automatic prefix caching and KV offload: {enabled, hit_ratio, offload} (docs/physics.md §12.7); "
            "absent: the framework's default, no offload"),
    boolean(
        "serving.prefix_cache.enabled", kCacheFile, "",
        "KV blocks shared by content and kept until evicted; absent: the framework's default "
        "(data/frameworks.yaml prefix_caching), else false",
        FieldSlot{.boolean = [](const FieldSite& s) { return &cache_of(s).enabled; },
                  .store = [](const FieldSite& s, const FieldItems&) { cache_of(s).enabled_given = true; }}),
    real("serving.prefix_cache.hit_ratio", kCacheFile, "0", 0, 1, false,
         "steady-state studies (no serving.requests): the share of each prompt's tokens found cached (at "
         "most all but its last); the request simulation finds its own",
         real_slot([](const FieldSite& s) { return &cache_of(s).hit_ratio; })),
    slotted(
        empty_list(choice("serving.prefix_cache.offload", kCacheFile, "", kOffloadTiers,
                          "serving.requests: the tiers KV leaving HBM is kept in, nearest first: [dram] or "
                          "[dram, ssd] (the machine's host_memory); absent or []: none")),
        store_slot([](const FieldSite& s, const FieldItems& v) {
          cache_of(s).offload.clear();
          for (std::uint32_t c : v.choices) cache_of(s).offload.push_back(static_cast<OffloadTierKind>(c));
        })),
    mapping("serving.requests.conversation", kCacheFile, "",
            "multi-turn conversations: {turns, think, message}; each arrival starts one, a later turn's "
            "prompt is the "
            "history (the turn before's prompt and output) and a new message"),
    integer("serving.requests.conversation.turns", kCacheFile, "1", 1, 1e6,
            "requests per conversation (1: none)",
            int_slot([](const FieldSite& s) { return &conversation_of(s).turns; })),
    quantity("serving.requests.conversation.think", kCacheFile, Dimension::time, "0 s", false,
             "the mean time (exponential) from a turn's end to the next turn",
             real_slot([](const FieldSite& s) { return &conversation_of(s).think_s; })),
    mapping("serving.requests.conversation.message", kCacheFile, "",
            "a later turn's new tokens: as `input` ({distribution, tokens, ...}); absent: drawn as `input`"),
    slotted(choice("serving.requests.conversation.message.distribution", kCacheFile, "fixed", kLengthKinds,
                   "how message lengths are drawn"),
            store_slot([](const FieldSite& s, const FieldItems& v) {
              message_of(s).kind = static_cast<requests::LengthKind>(v.choices[0]);
            })),
    stream_tokens("serving.requests.conversation.message.tokens", "", 1,
                  "fixed: the length (required with it)",
                  int_slot([](const FieldSite& s) { return &message_of(s).value; })),
    stream_tokens("serving.requests.conversation.message.min", "1", 1,
                  "uniform: the least (required); lognormal: the clamp",
                  int_slot([](const FieldSite& s) { return &message_of(s).min; })),
    stream_tokens("serving.requests.conversation.message.max", "", 1,
                  "uniform: the most (required); lognormal: the clamp",
                  int_slot([](const FieldSite& s) { return &message_of(s).max; })),
    real("serving.requests.conversation.message.median", kCacheFile, "", 0, 1e9, true,
         "lognormal: the median length (required)",
         real_slot([](const FieldSite& s) { return &message_of(s).median; })),
    real("serving.requests.conversation.message.sigma", kCacheFile, "", 0, 10, false,
         "lognormal: the standard deviation of ln(length) (required)",
         real_slot([](const FieldSite& s) { return &message_of(s).sigma; })),
    free_keys("serving.requests.conversation.message.table", kCacheFile,
              "table: token counts with their weights, e.g. {128: 1, 1K: 3} (required with it)"),
};

}  // namespace

std::span<const FieldRow> prefix_cache_field_rows() {
  return {kPrefixCacheRows, std::size(kPrefixCacheRows)};
}

}  // namespace tessera::schema
