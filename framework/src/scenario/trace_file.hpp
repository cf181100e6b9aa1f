#pragma once
// A request trace (`serving.requests.trace`, docs/scenario-format.md "Traces"): one request per
// row, its arrival time and its prompt and output tokens, read by the columns of its format.
//
// | format   | file  | time                           | input            | output            | prefix |
// |----------|-------|--------------------------------|------------------|-------------------|--------|
// | tessera  | CSV   | `time_s` (seconds)             | `input`          | `output`          | `prefix_id`
// (optional) | | azure    | CSV   | `TIMESTAMP` (YYYY-MM-DD HH:MM:SS[.fraction], UTC) | `ContextTokens` |
// `GeneratedTokens` | — | | burstgpt | CSV   | `Timestamp` (seconds)          | `Request tokens` | `Response
// tokens` | — | | mooncake | JSONL | `timestamp` (milliseconds)     | `input_length`   | `output_length`   |
// — |
//
// The Azure LLM inference traces (2023: AzureLLMInferenceTrace_code.csv and _conv.csv) and
// BurstGPT (BurstGPT_1.csv, ...) are CSV with a header row; Mooncake's (FAST'25 release,
// mooncake_trace.jsonl) one JSON object per line. Other columns are ignored. Times must not
// decrease; lengths are positive integers, except that a row with 0 output tokens (a failed
// request: BurstGPT logs them) is left out and counted. The file is held to `file.bytes`, its
// rows to `csv.rows` (docs/limits.md); every problem is reported at FILE:LINE:COL.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "scenario/readers/yaml_tree.hpp"
#include "scenario/schemas/request_spec.hpp"

namespace tessera::loader {

struct TraceRead {
  std::shared_ptr<const std::vector<requests::TraceRow>> rows;  // nullptr when it failed
  std::uint64_t skipped = 0;                                    // rows of failed requests
};

// Reads `path` (named by the key at `where` when it cannot be read at all).
TraceRead read_trace(const std::string& path, requests::TraceFormat format, const SourceLocation& where,
                     Diags& d);

}  // namespace tessera::loader
