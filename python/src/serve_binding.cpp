// _Scenario.serve: the serving answer `tessera serve` computes (analysis/serving/serving_answer.hpp: the
// aggregated study, and the disaggregated one on the pools' machines when serving.disaggregated
// is on), returning the document its --json writes (studies/documents/result_documents.hpp).
#include <pybind11/stl.h>

#include <optional>
#include <vector>

#include "bindings.hpp"
#include "interruptible.hpp"
#include "py_json.hpp"
#include "studies/documents/simulation_document.hpp"
#include "studies/entries/serve_entry.hpp"
#include "tessera/error.hpp"
#include "thread_count.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object serve(const ScenarioHandle& h, std::optional<unsigned> threads, std::optional<std::size_t> top,
                 std::optional<std::int64_t> max_pes, py::object progress, bool requests,
                 std::optional<std::size_t> simulate_top) {
  require_mode(h, true, "Scenario.run() (serve needs workload.mode: serve)");
  if (max_pes && *max_pes < 0)
    throw InputError("serve: max_pes must be >= 0 (0 = no budget), found " + std::to_string(*max_pes));
  if (requests && !h.scenario().serving.requests.given)
    throw InputError(
        "serve(requests=True): the scenario has no serving.requests, so no request is simulated "
        "(docs/scenario-format.md \"Requests\")");
  studies::ServeOptions so;
  so.threads = thread_count(threads);
  so.top = top;
  so.max_pes = max_pes.value_or(-1);
  so.simulate_top = simulate_top;  // None: 20 with serving.requests, else 0
  Interruptible guard(std::move(progress));
  so.on_progress = [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); };
  so.on_capacity_progress = so.on_progress;
  so.points = true;  // the CLI's --json has them too
  so.document = true;
  // requests=True: every simulated request as it finished (serving.requests), the document's
  // `requests_timeline` (Python moves it to ServeResult.simulation.requests).
  std::vector<nlohmann::json> timeline;
  if (requests) {
    const std::uint64_t warmup = h.scenario().serving.requests.stream.warmup;
    so.on_request = [&timeline, warmup](const requests::RequestOutcome& o) {
      timeline.push_back(studies::request_json(o, warmup));
    };
  }
  std::optional<studies::ServeStudyResult> served;
  guard.run([&] { served.emplace(studies::serve(h, so)); });
  if (requests && served->simulated) served->document["requests_timeline"] = std::move(timeline);
  return to_python(served->document);
}

}  // namespace

void bind_serve(ScenarioClass& c) {
  c.def("_serve", &serve, py::arg("threads") = py::none(), py::arg("top") = py::none(),
        py::arg("max_pes") = py::none(), py::arg("progress") = py::none(), py::arg("requests") = false,
        py::arg("simulate_top") = py::none());
  // serve --max-throughput's overrides ("key=value"), for Scenario.for_max_throughput().
  c.def_static("_max_throughput_overrides", &studies::max_throughput_overrides);
}

}  // namespace tessera::python
