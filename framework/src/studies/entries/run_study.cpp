#include "studies/entries/run_study.hpp"

#include "studies/documents/result_documents.hpp"
#include "studies/documents/scope_documents.hpp"
#include "studies/json/points_json.hpp"
#include "studies/json/provenance.hpp"

namespace tessera::studies {

RunStudy::RunStudy(const StudyContext& context) : context_(context), strategy_(context.create_search()) {}

RunResult RunStudy::compute(const RunOptions& options) const {
  const Scenario& scenario = context_.scenario();
  SearchOptions so;
  so.threads = options.threads;
  so.on_progress = options.on_progress;
  so.top = options.top.value_or(scenario.report.top);
  if (options.points) so.points = kMaxReportPoints;
  so.on_record = options.on_record;
  so.checkpoint = options.checkpoint;
  so.executor = options.executor;
  if (options.fixed_units) so.unit_size = kDefaultSearchUnit;
  RunResult r;
  r.search = run_search(context_.session(), *strategy_, so);
  if (!options.document) return r;
  r.document = run_document(context_.session(), r.search);
  // The other scopes: the same search, quietly (no progress, no rows).
  add_scope_documents(r.document, scenario.workload.scope, options.scopes, [&](Scope scope) {
    const Scenario scoped = with_scope(scenario, scope);
    const Session other(scoped, context_.registry());
    SearchOptions quiet = so;
    quiet.on_record = {};
    quiet.on_progress = {};
    quiet.checkpoint = nullptr;
    return run_document(other, run_search(other, *context_.create_search(), quiet));
  });
  if (options.command) r.document["command"] = *options.command;  // the command that produced it
  r.provenance = provenance_json(context_.registry());            // what produced it (docs/report.md)
  r.document["provenance"] = r.provenance;
  return r;
}

}  // namespace tessera::studies
