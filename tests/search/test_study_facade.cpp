// The study façade (framework/src/studies/, docs/architecture.md "The study façade"): the study
// context is the one preamble of the CLI and Python (mode check at workload.mode, one shared
// registry per plugin path under Python), and the run entry returns exactly the document the
// search's result gives, with its provenance.
#include <catch2/catch.hpp>

#include "search_fixture.hpp"
#include "studies/documents/result_documents.hpp"
#include "studies/entries/run_study.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("study context refuses a scenario of the other kind at workload.mode", "[studies]") {
  studies::ScenarioOptions o;
  o.path = scenario_path("llama3.1-70b-serve-4k1k-h100.yaml");
  try {
    const studies::StudyContext step(o, {}, studies::StudyKind::step);
    FAIL("a serve scenario opened as a step study");
  } catch (const InputErrors& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].message == "workload.mode is serve: use `tessera serve`");
    CHECK(e.diagnostics()[0].where.line == 11);  // the scenario's `mode: serve` line
  }
  const studies::StudyContext either(o, {}, studies::StudyKind::either);
  CHECK(either.scenario().workload.mode == Mode::serve);
  CHECK(either.scenario_path() == o.path);
}

TEST_CASE("study context shares one registry per plugin path when asked (Python)", "[studies]") {
  CHECK(studies::shared_registry({}) == studies::shared_registry({}));
  studies::ScenarioOptions o;
  o.path = scenario_path("llama3.1-70b-decode-128k.yaml");
  o.shared_registry = true;
  const studies::StudyContext a(o);
  const studies::StudyContext b(o);
  CHECK(&a.registry() == &b.registry());
  o.shared_registry = false;  // the CLI: a registry of its own
  const studies::StudyContext c(o);
  CHECK(&c.registry() != &a.registry());
}

TEST_CASE("run entry returns the search's result and its document with provenance", "[studies]") {
  studies::ScenarioOptions o;
  o.path = scenario_path("llama3.1-70b-decode-128k.yaml");
  const studies::StudyContext context(o, {}, studies::StudyKind::step);
  const studies::RunStudy plan(context);
  studies::RunOptions ro;
  ro.threads = 2;
  ro.top = 5;
  ro.points = true;
  ro.document = true;
  ro.command = "tessera run";
  const studies::RunResult r = plan.compute(ro);
  SearchOptions so;
  so.threads = 2;
  so.top = 5;
  so.points = kMaxReportPoints;
  const SearchResult direct = run_search(context.session(), *context.create_search(), so);
  REQUIRE(r.search.best);
  CHECK(r.search.records[*r.search.best].latency_s == direct.records[*direct.best].latency_s);
  CHECK(r.search.top.size() == 5);
  nlohmann::json doc = r.document;
  CHECK(doc["command"] == "tessera run");
  CHECK(doc["provenance"] == r.provenance);
  CHECK(r.provenance["tessera"].contains("version"));
  doc.erase("command");
  doc.erase("provenance");
  CHECK(doc == run_document(context.session(), direct));
  ro.document = false;  // no document asked: none built
  CHECK(plan.compute(ro).document.is_null());
}
