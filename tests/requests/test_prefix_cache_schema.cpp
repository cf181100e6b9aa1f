// serving.prefix_cache and serving.requests.conversation in a scenario (scenario/prefix_cache_check.cpp,
// fields_prefix_cache.cpp): read into the spec, the steady state's cached prefix, and every misuse
// refused at FILE:LINE:COL with what was expected.
#include <catch2/catch.hpp>
#include <string>

#include "scenario/prefix_cache_check.hpp"
#include "scenario/scenario_loader.hpp"
#include "tessera/error.hpp"

using namespace tessera;

namespace {

// A serve scenario on `machine` whose serving block is `serving` (indented two spaces).
Scenario cache_scenario(const std::string& serving, const std::string& machine = "dgx-h100",
                        const std::string& extra = "") {
  const std::string src = TESSERA_SOURCE_DIR;
  const std::string text = "schema_version: 1\nkind: scenario\nname: cache\nmodel: " + src +
                           "/models/llama3.1-8b.yaml\nmachine: " + src + "/machines/" + machine +
                           ".yaml\nworkload: {mode: serve, input: 2K, output: 256}\n" + extra + "serving:\n" +
                           serving;
  return load_scenario_text(text, "cache.yaml", src + "/tests/requests", LoadOptions{});
}

std::string cache_error(const std::string& serving, const std::string& machine = "dgx-h100",
                        const std::string& extra = "") {
  try {
    cache_scenario(serving, machine, extra);
  } catch (const InputErrors& e) {
    return e.diagnostics().front().format();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

const std::string kStream = "  requests: {rate: 1}\n";

}  // namespace

TEST_CASE("prefix caching and conversations are read into the scenario") {
  const Scenario s = cache_scenario(
      "  prefix_cache: {enabled: true, offload: [dram]}\n"
      "  requests:\n    rate: 0.5\n    conversation: {turns: 3, think: 2 s, message: {tokens: 300}}\n");
  CHECK(s.serving.prefix_cache.given);
  CHECK(s.serving.prefix_cache.enabled_given);
  CHECK(s.serving.prefix_cache.offload == std::vector<OffloadTierKind>{OffloadTierKind::dram});
  CHECK(s.serving.requests.stream.conversation.turns == 3);
  CHECK(s.serving.requests.stream.conversation.think_s == 2);
  CHECK(s.serving.requests.stream.conversation.message_given);
  CHECK(s.serving.requests.stream.conversation.message.value == 300);
  CHECK(prefix_caching_on(s));
  CHECK(s.machine.host_memory.dram.capacity == 250e9);
  CHECK(s.machine.host_memory.dram.link == "pcie5");
  // [] is none; without a framework and without the block caching is off; a framework's default on.
  CHECK(cache_scenario("  prefix_cache: {offload: []}\n" + kStream).serving.prefix_cache.offload.empty());
  CHECK_FALSE(prefix_caching_on(cache_scenario(kStream)));
  CHECK(prefix_caching_on(cache_scenario(kStream, "dgx-h100", "framework: vllm\n")));
  CHECK_FALSE(prefix_caching_on(
      cache_scenario("  prefix_cache: {enabled: false}\n" + kStream, "dgx-h100", "framework: vllm\n")));
}

TEST_CASE("the steady state's cached prefix is the hit ratio of the prompt and never all of it") {
  CHECK(cached_prefix(cache_scenario("  prefix_cache: {hit_ratio: 0.5}\n"), 2048) == 1024);
  CHECK(cached_prefix(cache_scenario("  prefix_cache: {hit_ratio: 1}\n"), 2048) == 2047);
  CHECK(cached_prefix(cache_scenario("  prefix_cache: {hit_ratio: 0}\n"), 2048) == 0);
  CHECK(cached_prefix(cache_scenario("  slo: {ttft: 1 s}\n"), 2048) == 0);
  CHECK(cached_prefix(cache_scenario("  prefix_cache: {hit_ratio: 1}\n"), 1) == 0);
}

TEST_CASE("misused prefix caching keys are refused at their line") {
  CHECK_THAT(
      cache_error("  prefix_cache: {offload: [dram]}\n"),
      Catch::Contains("error: serving.prefix_cache.offload: KV offload is simulated request by request; "
                      "give serving.requests (docs/physics.md §12.7)"));
  CHECK_THAT(cache_error("  prefix_cache: {offload: [ssd]}\n" + kStream),
             Catch::Contains("expected [dram] or [dram, ssd] (an SSD tier sits below host DRAM in every "
                             "engine), found ssd first"));
  CHECK_THAT(cache_error("  prefix_cache: {offload: [dram]}\n" + kStream, "dgx-a100-80gb"),
             Catch::Contains("states no host_memory.dram"));
  CHECK_THAT(cache_error("  prefix_cache: {offload: [dram, ssd]}\n" + kStream),
             Catch::Contains("states no host_memory.ssd"));
  CHECK_THAT(cache_error("  prefix_cache: {hit_ratio: 0.5}\n" + kStream),
             Catch::Contains("serving.prefix_cache.hit_ratio: the request simulation finds its hits"));
  CHECK_THAT(cache_error("  prefix_cache: {enabled: false, hit_ratio: 0.5}\n"),
             Catch::Contains("prefix caching is off (enabled: false)"));
  CHECK_THAT(cache_error("  prefix_cache: {enabled: false, offload: [dram]}\n" + kStream),
             Catch::Contains("prefix caching is off (enabled: false)"));
  CHECK_THAT(cache_error("  prefix_cache: {hit_ratio: 1.5}\n"), Catch::Contains("hit_ratio"));
  CHECK_THAT(cache_error("  prefix_cache: {offload: [tape]}\n" + kStream),
             Catch::Contains("expected dram or ssd, found \"tape\""));
  CHECK_THAT(cache_error("  prefix_cache: {enabeld: true}\n"), Catch::Contains("enabled"));
  CHECK_THAT(cache_error("  requests:\n    rate: 1\n    conversation: {turns: 0}\n"),
             Catch::Contains("serving.requests.conversation.turns"));
  CHECK_THAT(cache_error("  disaggregated: {}\n  requests:\n    rate: 1\n    conversation: {turns: 2}\n"),
             Catch::Contains("conversations run on aggregated replicas"));
  CHECK_THAT(
      cache_error("  requests:\n    rate: 1\n    conversation: {message: {median: 3}}\n"),
      Catch::Contains("serving.requests.conversation.message.median: only with distribution: lognormal"));
}
