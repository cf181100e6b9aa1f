// add_scope_documents (report.scopes / --scopes for every study): the document of the scenario's
// own scope gains `scope` and `by_scope` holding each other listed scope's document, each
// studied once; no other scope listed: the document unchanged.
#include <catch2/catch.hpp>
#include <vector>

#include "studies/documents/scope_documents.hpp"

using nlohmann::json;
using tessera::Scope;

TEST_CASE("add_scope_documents studies each other listed scope once and names every document's scope") {
  json doc = {{"best", {{"latency_s", 2.0}}}};
  std::vector<Scope> asked;
  const auto study = [&](Scope s) {
    asked.push_back(s);
    return json{{"best", {{"latency_s", s == Scope::attention ? 0.5 : 2.0}}}};
  };
  tessera::add_scope_documents(doc, Scope::full, {Scope::full, Scope::attention, Scope::attention}, study);
  REQUIRE(asked == std::vector<Scope>{Scope::attention});
  CHECK(doc["scope"] == "full");
  CHECK(doc["best"]["latency_s"] == 2.0);  // the own document is left as it was
  REQUIRE(doc["by_scope"].size() == 1);
  CHECK(doc["by_scope"]["attention"]["scope"] == "attention");
  CHECK(doc["by_scope"]["attention"]["best"]["latency_s"] == 0.5);
}

TEST_CASE("add_scope_documents with no other scope leaves the document as it is") {
  const json before = {{"best", {{"latency_s", 1.0}}}};
  json doc = before;
  int calls = 0;
  const auto study = [&](Scope) {
    ++calls;
    return json::object();
  };
  tessera::add_scope_documents(doc, Scope::attention, {}, study);
  CHECK(doc == before);
  tessera::add_scope_documents(doc, Scope::attention, {Scope::attention}, study);
  CHECK(doc == before);
  CHECK(calls == 0);
  tessera::add_scope_documents(doc, Scope::attention, {Scope::full}, study);
  CHECK(calls == 1);
  CHECK(doc["scope"] == "attention");
  CHECK(doc["by_scope"]["full"]["scope"] == "full");
  CHECK(tessera::scope_name(Scope::full) == std::string("full"));
}
