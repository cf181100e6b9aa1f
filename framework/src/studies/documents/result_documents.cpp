// The run and serve --json documents: result_documents.hpp.
#include "studies/documents/result_documents.hpp"

#include "studies/documents/disagg_document.hpp"
#include "studies/documents/search_document.hpp"
#include "studies/documents/serve_document.hpp"
#include "studies/json/points_json.hpp"
#include "studies/json/stage_breakdown.hpp"

namespace tessera {

nlohmann::json run_document(const Session& session, const SearchResult& result) {
  nlohmann::json j = search_json(session, result);
  add_search_points(j, session, result);
  add_search_stages(j, session, result);
  return j;
}

nlohmann::json serve_document(const Session& session, const ServingAnswer& answer) {
  nlohmann::json j = serve_json(session, answer.aggregated);
  if (answer.disagg)
    j["disaggregated"] = disagg_json(session, *answer.disagg, answer.aggregated, answer.also);
  add_serve_points(j, session, answer.aggregated);
  add_serve_breakdowns(j, session, answer);
  return j;
}

}  // namespace tessera
