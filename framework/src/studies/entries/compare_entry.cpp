#include "studies/entries/compare_entry.hpp"

#include "scenario/sweeps/latency_choices.hpp"
#include "studies/documents/compare_document.hpp"
#include "studies/documents/scope_documents.hpp"
#include "studies/json/provenance.hpp"

namespace tessera::studies {

void choose_latency_models(Scenario& scenario, const std::vector<std::string>& names) {
  scenario.plugins.latency = latency_choices(scenario, names, {"<command line>", 0, 0});
}

CompareEntry::CompareEntry(const StudyContext& context) : context_(context), sessions_{&context.session()} {
  const Scenario& scenario = context.scenario();
  for (std::size_t i = 1; i < scenario.plugins.latency.size(); ++i) {
    owned_.push_back(std::make_unique<Session>(scenario, context.registry(), i));
    sessions_.push_back(owned_.back().get());
  }
}

CompareStudyResult CompareEntry::compute(const CompareEntryOptions& options) const {
  CompareOptions co;
  co.threads = options.threads;
  co.on_progress = options.on_progress;
  co.executor = options.executor;
  CompareStudyResult r{compare_models(sessions_, co), nullptr, nullptr};
  if (!options.document) return r;
  const Scenario& scenario = context_.scenario();
  r.document = compare_json(r.result, *sessions_[0]);
  // The other scopes: every model again, on the scenario with that scope.
  add_scope_documents(r.document, scenario.workload.scope, options.scopes, [&](Scope scope) {
    const Scenario scoped = with_scope(scenario, scope);
    std::vector<std::unique_ptr<Session>> owned;
    std::vector<const Session*> others;
    for (std::size_t i = 0; i < scoped.plugins.latency.size(); ++i) {
      owned.push_back(std::make_unique<Session>(scoped, context_.registry(), i));
      others.push_back(owned.back().get());
    }
    CompareOptions quiet = co;
    quiet.on_progress = {};
    return compare_json(compare_models(others, quiet), *others[0]);
  });
  if (options.command) r.document["command"] = *options.command;  // the command that produced it
  r.provenance = provenance_json(context_.registry());            // what produced it (docs/report.md)
  r.document["provenance"] = r.provenance;
  return r;
}

}  // namespace tessera::studies
