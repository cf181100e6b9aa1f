#include "studies/entries/explore_entry.hpp"

#include "analysis/search/sensitivity.hpp"
#include "eval/cost_objective.hpp"
#include "scenario/sweeps/sweep_size.hpp"
#include "studies/documents/explore_document.hpp"
#include "studies/documents/scope_documents.hpp"
#include "studies/json/provenance.hpp"

namespace tessera::studies {
namespace {

ExploreOptions step_options(const ExploreStudyOptions& o) {
  ExploreOptions eo;
  eo.search.threads = o.threads;
  eo.search.top = 1;
  eo.sensitivity = o.sensitivity;
  eo.on_progress = o.on_progress;
  eo.keep = o.keep;
  eo.on_point = o.on_point;
  eo.checkpoint = o.checkpoint;
  eo.executor = o.executor;
  return eo;
}

ServeExploreOptions serve_options(const ExploreStudyOptions& o) {
  ServeExploreOptions so;
  so.threads = o.threads;
  so.on_progress = o.on_progress;
  return so;
}

}  // namespace

ExploreEntry::ExploreEntry(const StudyContext& context)
    : context_(context), serving_(context.scenario().workload.mode == Mode::serve) {
  if (serving_) return;
  strategy_ = context.create_search();
  cost_ = create_cost_objective(context.scenario(), context.registry());
}

std::uint64_t ExploreEntry::machines(bool sensitivity) const {
  std::uint64_t machines = sweep_hardware_points(context_.scenario().sweep);
  if (!serving_ && sensitivity)
    machines = saturating_size_mul(2, hardware_knobs(context_.session()).size()) + 1 + machines;
  return machines;
}

ExploreStudyResult ExploreEntry::compute(const ExploreStudyOptions& options) const {
  ExploreStudyResult r;
  if (serving_)
    r.serve.emplace(explore_serving(context_.session(), serve_options(options)));
  else
    r.step.emplace(explore_hardware(context_.session(), *strategy_, *cost_, step_options(options)));
  return r;
}

nlohmann::json ExploreEntry::document(const ExploreStudyResult& result, const ExploreStudyOptions& options,
                                      const DocumentOptions& extras) const {
  const Scenario& scenario = context_.scenario();
  const PluginRegistry& registry = context_.registry();
  nlohmann::json j = serving_ ? serve_explore_json(context_.session(), *result.serve)
                              : explore_json(context_.session(), *result.step);
  // The other scopes: the same study, quietly (no progress).
  ExploreStudyOptions quiet = options;
  quiet.on_progress = {};
  quiet.on_point = {};
  quiet.checkpoint = nullptr;
  add_scope_documents(j, scenario.workload.scope, extras.scopes, [&](Scope scope) {
    const Scenario scoped = with_scope(scenario, scope);
    const Session other(scoped, registry);
    if (serving_) return serve_explore_json(other, explore_serving(other, serve_options(quiet)));
    return explore_json(
        other, explore_hardware(other, *context_.create_search(), *create_cost_objective(scoped, registry),
                                step_options(quiet)));
  });
  if (extras.command) j["command"] = *extras.command;  // the command that produced it
  j["provenance"] = provenance_json(registry);         // what produced it (docs/report.md)
  return j;
}

}  // namespace tessera::studies
