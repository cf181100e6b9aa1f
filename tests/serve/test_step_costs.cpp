// Step costs that behave (in part: what is left open is listed below): for every latency model and
// every shipped machine, on a dense and an MoE model, through the host's StepTimer (what the
// serving models time): a prefill chunk's time is non-decreasing in its tokens and in its prefix
// and never above the whole prefill of prefix + tokens; a decode step is non-decreasing in batch
// and in context.
//
// Known and left out (still open; docs/accuracy.md "Known limits"):
// - `calibrated` times one new token after a prefix with its decode-attention efficiency and two
//   or more with its prefill attention, so a 1-token chunk costs up to ~1.5 % more than a 2-token
//   one on the dense model: chunk monotonicity in tokens is checked from 2 tokens on (pricing
//   q > 1 new tokens per sequence as decode attention is left open);
// - `measured` times a shape inside one of its tables with the measured kernel and a shape
//   outside with calibrated's, and the two disagree by a few percent, so its prefill chunks are
//   not checked (its decode steps are: tables are monotone in their sizes, kernel_table.hpp).
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "eval/host_step_timer.hpp"
#include "serve_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

constexpr double kTol = 1e-9;  // relative: the same time computed along two paths

}  // namespace

TEST_CASE("step costs: chunks and decode steps are monotone and a chunk never costs more than its prefill") {
  long checked = 0;
  for_each_one_pe_timer([&](HostStepTimer& t, const std::string& latency, const std::string& where) {
    INFO(where);
    const bool chunks_checked = latency != "measured";
    for (const std::int64_t prefix : {0, 512, 4600}) {
      if (!chunks_checked) break;
      double prev = 0;
      for (const std::int64_t k : {1, 2, 4, 16, 64, 256, 1024}) {
        const double chunk = t.prefill_chunk(k, prefix, true);
        const double whole = t.prefill(1, prefix + k, 0);
        INFO("chunk of " << k << " after " << prefix << ": " << chunk << " s, whole prefill " << whole
                         << " s");
        CHECK(chunk > 0);
        CHECK(chunk <= whole * (1 + kTol));
        if (k > 2) CHECK(chunk >= prev * (1 - kTol));
        prev = chunk;
        ++checked;
      }
    }
    for (const std::int64_t k : {1, 2, 16, 256}) {
      if (!chunks_checked) break;
      double prev = 0;
      for (const std::int64_t prefix : {0, 16, 512, 4096, 16384}) {
        const double chunk = t.prefill_chunk(k, prefix, true);
        INFO("chunk of " << k << " after " << prefix << ": " << chunk << " s, before " << prev << " s");
        CHECK(chunk >= prev * (1 - kTol));
        prev = chunk;
      }
    }
    for (const double context : {128.0, 4096.0, 32768.0}) {
      double prev = 0;
      for (const std::int64_t b : {1, 2, 8, 32, 128, 512}) {
        const double step = t.decode_step(b, context);
        INFO("decode of " << b << " at " << context << ": " << step << " s, before " << prev << " s");
        CHECK(step >= prev * (1 - kTol));
        prev = step;
      }
    }
    for (const std::int64_t b : {1, 64}) {
      double prev = 0;
      for (const double context : {1.0, 128.0, 4096.0, 32768.0, 131072.0}) {
        const double step = t.decode_step(b, context);
        INFO("decode of " << b << " at " << context << ": " << step << " s, before " << prev << " s");
        CHECK(step >= prev * (1 - kTol));
        prev = step;
      }
    }
  });
  CHECK(checked >= 15 * 2 * 3 * 21);  // every machine, both models, three latency models or more
}
