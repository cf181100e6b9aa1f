#include "studies/study_description.hpp"

#include "eval/engine_kv.hpp"
#include "eval/session.hpp"
#include "host/plugin_defaults.hpp"

namespace tessera {

StudyDescription describe_study(const Session& session) {
  StudyDescription d;
  d.scenario = session.scenario();
  d.latency_name = session.latency_name();
  d.calibration_note = session.calibration_note();
  d.workload = session.workload();
  d.objectives = objective_infos(session.evaluator().objectives());
  d.band = session_band(session);
  return d;
}

namespace {

EngineKvNote engine_kv_note(const Session& session, const ServeRecord& b) {
  EngineKvNote note;
  const Evaluator& ev = session.evaluator();
  const EngineKv rule = ev.engine_kv().at_draft(b.point.speculative_tokens);
  if (!rule.active()) return note;
  Evaluation scratch;
  ev.layout_for(b.config, scratch);
  if (!scratch.layout.valid) return note;
  note.cap = engine_kv_capacity(ev, rule, b.config, scratch.layout, b.point.token_budget, b.point.batch);
  const Workload& w = session.workload();
  const bool staggered = session.scenario().plugins.serving.name != plugin_defaults::kStaticBatchServing;
  note.shown = true;
  note.capacity = describe_engine_kv(rule, note.cap);
  note.kv_max_batch = engine_admitted_batch(ev, rule, b.config, scratch.layout, b.point.token_budget, w.input,
                                            w.output, staggered);
  return note;
}

}  // namespace

ServePointNotes serve_point_notes(const Session& session, const ServeResult& result) {
  ServePointNotes notes;
  if (const ServeRecord* b = result.best())
    notes.best = engine_kv_note(session, *b);
  else if (result.closest_miss)
    notes.closest_miss = engine_kv_note(session, *result.closest_miss);
  return notes;
}

DisaggNotes disagg_notes(const Session& session, const DisaggStudy& d, const ServeResult& agg,
                         const std::vector<AggregatedOn>& also) {
  DisaggNotes n;
  if (session.scenario().serving.separate_machines()) {
    n.prefill_machine = disagg_pool_machine(session, true).name;
    n.decode_machine = disagg_pool_machine(session, false).name;
  }
  if (!d.result.best) return n;  // the report says why no pair meets the SLO, nothing more
  n.band = disaggregated_band(session);
  n.best_link = disagg_link_name(session, *d.result.best);
  if (!also.empty()) n.best_aggregated = disagg_best_aggregated(session, agg, also);
  return n;
}

}  // namespace tessera
