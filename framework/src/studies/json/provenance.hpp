#pragma once
// Where a saved result came from (docs/report.md "Provenance"): the `provenance` member of every
// --json document and HTML report of a study — Tessera's version, the git commit and build type
// it was built from, and each plugin library the study loaded: its id, version, the path it was
// loaded from and the SHA-256 of that file (computed once per file per process).
#include <string>

#include <nlohmann/json.hpp>

#include "host/plugin_registry.hpp"
#include "tessera/export.hpp"

namespace tessera {

// {"tessera": {"version", "commit", "build_type", "sanitizers", "compiler"},
//  "plugins": [{"id", "kind", "name", "version", "framework_version", "path", "sha256"}, ...]}
// The plugins are those `registry` has loaded (the registry loads lazily: the ones the study
// looked up), sorted by id then path. `sha256` is null when the file can no longer be read.
TESSERA_API nlohmann::json provenance_json(const PluginRegistry& registry);

// The same as comment lines ("# tessera 0.1.0, commit ..., build Release\n# plugin latency/x
// 1.0.0 PATH sha256 ...\n"), for the CSV files that start with comments (calibrate --bands).
TESSERA_API std::string provenance_comment(const PluginRegistry& registry);

}  // namespace tessera
