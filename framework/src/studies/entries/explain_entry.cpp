#include "studies/entries/explain_entry.hpp"

#include "studies/documents/explain_document.hpp"
#include "studies/documents/explain_parts.hpp"
#include "studies/documents/scope_documents.hpp"
#include "studies/json/provenance.hpp"
#include "tessera/error.hpp"
#include "tessera/physics/layout.hpp"

namespace tessera::studies {

ExplainResult ExplainEntry::compute(const std::string& config_text) const {
  const Session& session = context_.session();
  ExplainResult r;
  r.parsed = parse_config(config_text, session.machine());
  r.config = canonicalize(session.model(), r.parsed);
  session.evaluator().evaluate(r.config, r.evaluation);
  explain_details(session, r);
  return r;
}

void explain_details(const Session& session, ExplainResult& result) {
  result.work.reset();
  result.parallel_block_note.clear();
  result.chunk_note.clear();
  if (!result.evaluation.valid) return;
  result.work = explain_parts::explained_work(session, result.evaluation);
  result.parallel_block_note = explain_parts::parallel_block_note(session, result.evaluation);
  result.chunk_note = explain_parts::chunk_note(session);
}

std::string ExplainEntry::invalid_reason(const ExplainResult& result) const {
  if (result.evaluation.valid) return "";
  const Session& session = context_.session();
  return format_config(result.config, session.machine()) + ": invalid configuration: " +
         describe_invalid(result.evaluation.layout.reason, session.model(), session.machine(), result.config);
}

nlohmann::json ExplainEntry::document(const ExplainResult& result, const DocumentOptions& extras) const {
  const Scenario& scenario = context_.scenario();
  nlohmann::json j = explain_json(context_.session(), result.evaluation);
  // The same configuration under each other scope (the layout, hence validity, does not
  // depend on the scope).
  add_scope_documents(j, scenario.workload.scope, extras.scopes, [&](Scope scope) {
    const Scenario scoped = with_scope(scenario, scope);
    const Session other(scoped, context_.registry());
    Evaluation oe;
    other.evaluator().evaluate(result.config, oe);
    if (!oe.valid)
      throw Error(std::string("explain: the configuration is invalid under scope ") + scope_name(scope));
    return explain_json(other, oe);
  });
  if (extras.command) j["command"] = *extras.command;      // the command that produced it
  j["provenance"] = provenance_json(context_.registry());  // what produced it (docs/report.md)
  return j;
}

}  // namespace tessera::studies
