#pragma once
// `tessera serve --requests FILE` (docs/report.md "Request simulation"): the per-request
// timeline of the simulated point, one line per request in the order requests finish, written
// as each finishes (nothing is kept: memory flat in the number of requests). CSV (RFC 4180,
// after `#` comment lines saying what produced it and what was simulated, as calibrate --bands
// writes) or, for a FILE ending in .jsonl or .ndjson, JSON Lines: a first line
// {"tessera_requests": 1, "command", "simulation", "provenance"}, then one object per request.
// Times in seconds from the simulation's start; latencies in seconds.
#include <cstdint>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/requests/replica.hpp"
#include "tessera/export.hpp"

namespace tessera {

enum class TimelineFormat { csv, jsonl };

// jsonl for a path ending in .jsonl or .ndjson (any case), else csv.
TESSERA_API TimelineFormat timeline_format(const std::string& path);

class TESSERA_API RequestTimeline {
 public:
  // `warmup`: requests with id < warmup are the warm-up (measured false).
  RequestTimeline(std::ostream& os, TimelineFormat format, std::uint64_t warmup);

  // The header: the command line, what was simulated (`simulation`: config, batch, token
  // budget, stream; studies/documents/simulation_document.hpp's simulation_header_json) and
  // the provenance (as --json's). Written once, before the first request.
  void header(const std::string& command, const nlohmann::json& simulation, const nlohmann::json& provenance);
  void write(const requests::RequestOutcome& o);
  std::uint64_t written() const { return written_; }

 private:
  std::ostream& os_;
  TimelineFormat format_;
  std::uint64_t warmup_;
  std::uint64_t written_ = 0;
};

}  // namespace tessera
