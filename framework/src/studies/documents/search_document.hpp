#pragma once
// A search's JSON (`tessera run --json`), in SI units with the unit in the key.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/search/search_driver.hpp"
#include "eval/session.hpp"
#include "studies/objective_info.hpp"
#include "tessera/export.hpp"

namespace tessera {

// "s" -> "_s", "tok/s" -> "_tok_s", "" -> "".
TESSERA_API std::string unit_suffix(const std::string& unit);
// Objective column/key name: "latency_s", "efficiency", "cost_USD".
TESSERA_API std::string objective_key(const ObjectiveInfo& o);

// One record as JSON: knobs, objectives, totals, memory (SI).
TESSERA_API nlohmann::json record_json(const Session& session, const std::vector<ObjectiveInfo>& objectives,
                                       const ConfigRecord& r);
// `tessera run --json`: scenario, counts, objectives, best, pareto, top.
TESSERA_API nlohmann::json search_json(const Session& session, const SearchResult& result);
// "cp=8 tp=4 pp=1 dp=1 ep=1 kv=split ffn=TP tp@pe cp@cube ring=kv" — only what matters
// (canonical knobs are left out when they make no difference).
TESSERA_API std::string short_config(const MachineSpec& machine, const ParallelConfig& c);
// A machine's level p by name: the PE (0), else levels[p - 1].
TESSERA_API std::string machine_level_name(const MachineSpec& m, std::size_t p);
// The groups of `rows` (indices into res.records) that differ only in dp
// (studies/json/dp_groups.hpp): the knobs but dp, the score and every objective but the
// PE count exactly equal.
TESSERA_API std::vector<std::vector<std::size_t>> run_dp_groups(const SearchResult& res,
                                                                const std::vector<std::size_t>& rows);

}  // namespace tessera
