#pragma once
// `serving.requests` (docs/scenario-format.md "Requests"): the request stream of a serving
// simulation, read into RequestsSpec; its trace file read by scenario/trace_file.hpp.
#include <string>

#include "scenario/readers/yaml_tree.hpp"
#include "scenario/scenario.hpp"

namespace tessera::loader {

// The `requests:` mapping of `serving` (its key at `key_where`) into s.serving.requests: its keys
// by the field table, then what the arrival and length kinds require and refuse.
void parse_requests(const YNode& n, const SourceLocation& key_where, Scenario& s, Diags& d);

// After the whole scenario is read: lengths left out take workload.input / workload.output,
// the trace file (`trace_path`, resolved against the scenario's folder) is read;
// a warm-up that leaves nothing to measure is refused at its key.
void finish_requests(Scenario& s, const std::string& trace_path, Diags& d);

}  // namespace tessera::loader
