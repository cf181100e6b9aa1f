#pragma once
// report.scopes / --scopes (docs/report.md "Both scopes in one page"): one study's `--json`
// document of the scenario's own scope gains `scope` (its name) and `by_scope`, the same study's
// whole document under each other listed scope, so the HTML report (report_charts, one set of
// charts per scope and a toggle) and `tessera report` flip between them without re-running.
// Every study (run, serve, explore, explain, sensitivity, compare) goes through this one helper.
#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

#include "tessera/export.hpp"
#include "tessera/workload.hpp"

namespace tessera {

// "full" or "attention" (the scenario's `scope` names).
TESSERA_API const char* scope_name(Scope scope);

// The study's document under `scope` (a scenario whose workload.scope is `scope`).
using ScopeDocument = std::function<nlohmann::json(Scope scope)>;

// For each scope of `scopes` other than `own` (each once): `doc["by_scope"][NAME]` =
// document_of(scope) with its own `scope`, and `doc["scope"]` = own's name. With no other scope
// `doc` is left as it is (a study without scopes writes the document it always wrote).
// document_of is called once per such scope; nothing else of `doc` is changed.
TESSERA_API void add_scope_documents(nlohmann::json& doc, Scope own, const std::vector<Scope>& scopes,
                                     const ScopeDocument& document_of);

}  // namespace tessera
