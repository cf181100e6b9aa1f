#include "studies/entries/sensitivity_entry.hpp"

#include "studies/documents/scope_documents.hpp"
#include "studies/documents/sensitivity_document.hpp"
#include "studies/json/provenance.hpp"

namespace tessera::studies {
namespace {

SearchOptions search_options(const SensitivityOptions& o) {
  SearchOptions so;
  so.threads = o.threads;
  so.on_progress = o.on_progress;
  so.top = 1;
  so.executor = o.executor;
  so.merged_everywhere = o.executor != nullptr;
  return so;
}

ServeSensitivityOptions serve_options(const SensitivityOptions& o) {
  ServeSensitivityOptions so;
  so.threads = o.threads;
  so.on_progress = o.on_progress;
  return so;
}

}  // namespace

SensitivityEntry::SensitivityEntry(const StudyContext& context)
    : context_(context), serving_(context.scenario().workload.mode == Mode::serve) {
  if (!serving_) strategy_ = context.create_search();
}

SensitivityResult SensitivityEntry::compute(const SensitivityOptions& options) const {
  SensitivityResult r;
  if (serving_)
    r.serve.emplace(serve_sensitivity_study(context_.session(), options.parallelism, options.hardware,
                                            serve_options(options)));
  else
    r.step.emplace(sensitivity_study(context_.session(), *strategy_, options.parallelism, options.hardware,
                                     search_options(options)));
  return r;
}

nlohmann::json SensitivityEntry::document(const SensitivityResult& result, const SensitivityOptions& options,
                                          const DocumentOptions& extras) const {
  const Scenario& scenario = context_.scenario();
  nlohmann::json j = serving_ ? serve_sensitivity_json(context_.session(), *result.serve)
                              : sensitivity_json(context_.session(), *result.step);
  // The other scopes: the same study, quietly (no progress).
  add_scope_documents(j, scenario.workload.scope, extras.scopes, [&](Scope scope) {
    const Scenario scoped = with_scope(scenario, scope);
    const Session other(scoped, context_.registry());
    if (serving_) {
      ServeSensitivityOptions quiet = serve_options(options);
      quiet.on_progress = {};
      return serve_sensitivity_json(
          other, serve_sensitivity_study(other, options.parallelism, options.hardware, quiet));
    }
    SearchOptions quiet = search_options(options);
    quiet.on_progress = {};
    return sensitivity_json(other, sensitivity_study(other, *context_.create_search(), options.parallelism,
                                                     options.hardware, quiet));
  });
  if (extras.command) j["command"] = *extras.command;      // the command that produced it
  j["provenance"] = provenance_json(context_.registry());  // what produced it (docs/report.md)
  return j;
}

std::uint64_t SensitivityEntry::hardware_knob_count() const {
  return static_cast<std::uint64_t>(serving_ ? serve_sensitivity_knobs(context_.session()).size()
                                             : hardware_knobs(context_.session()).size());
}

}  // namespace tessera::studies
