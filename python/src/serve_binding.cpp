// _Scenario.serve: the serving answer `tessera serve` computes (analysis/serving/serving_answer.hpp: the
// aggregated study, and the disaggregated one on the pools' machines when serving.disaggregated
// is on), returning the document its --json writes (studies/documents/result_documents.hpp).
#include <pybind11/stl.h>

#include <fstream>
#include <optional>
#include <vector>

#include "bindings.hpp"
#include "interruptible.hpp"
#include "py_json.hpp"
#include "studies/documents/simulation_document.hpp"
#include "studies/entries/serve_entry.hpp"
#include "tessera/error.hpp"
#include "thread_count.hpp"
#include "whole_worker.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

// serve's options as `tessera serve` arguments (a whole study's worker), `requests_path` the
// timeline's file (requests=True).
std::vector<std::string> serve_arguments(std::optional<unsigned> threads, std::optional<std::size_t> top,
                                         std::optional<std::int64_t> max_pes,
                                         std::optional<std::size_t> simulate_top,
                                         const std::string& requests_path) {
  std::vector<std::string> a;
  if (threads) a.insert(a.end(), {"--threads", std::to_string(*threads)});
  if (top) a.insert(a.end(), {"--top", std::to_string(*top)});
  if (max_pes) a.insert(a.end(), {"--max-pes", std::to_string(*max_pes)});
  if (simulate_top) a.insert(a.end(), {"--simulate-top", std::to_string(*simulate_top)});
  if (!requests_path.empty()) a.insert(a.end(), {"--requests", requests_path});
  return a;
}

// The request lines of a JSON Lines timeline (its first line is the header).
std::vector<nlohmann::json> timeline_requests(const std::string& path) {
  std::vector<nlohmann::json> out;
  std::ifstream in(path);
  std::string line;
  for (bool header = true; std::getline(in, line); header = false)
    if (!header && !line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

py::object serve(const ScenarioHandle& h, std::optional<unsigned> threads, std::optional<std::size_t> top,
                 std::optional<std::int64_t> max_pes, py::object progress, bool requests,
                 std::optional<std::size_t> simulate_top, const std::string& isolate) {
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
  // With an added plugin, the whole study in a `tessera serve` worker (python/src/whole_worker.hpp).
  const ResultsFile results;
  std::optional<TemporaryFolder> folder;  // requests=True in a worker: where it writes the timeline
  if (requests && studies::runs_isolated(isolation_of(isolate), h.added_plugins())) folder.emplace();
  const std::string requests_path = folder ? folder->path() + "/requests.jsonl" : std::string();
  studies::StudyWorkers workers = whole_study_workers(
      "serve", h, isolate, serve_arguments(threads, top, max_pes, simulate_top, requests_path), results,
      guard);
  std::optional<studies::ServeStudyResult> served;
  std::optional<nlohmann::json> document = study_here_or_in_worker(workers, results, guard, [&](auto& w) {
    w.before_session(h.scenario(), h.added_plugins());
    so.executor = w.executor();  // MPI ranks when launched by mpirun; else null (threads)
    served.emplace(studies::serve(h, so));
  });
  if (document) {
    if (requests && document->contains("simulation"))
      (*document)["requests_timeline"] = timeline_requests(requests_path);
    return to_python(*document);
  }
  if (requests && served->simulated) served->document["requests_timeline"] = std::move(timeline);
  return to_python(served->document);
}

}  // namespace

void bind_serve(ScenarioClass& c) {
  c.def("_serve", &serve, py::arg("threads") = py::none(), py::arg("top") = py::none(),
        py::arg("max_pes") = py::none(), py::arg("progress") = py::none(), py::arg("requests") = false,
        py::arg("simulate_top") = py::none(), py::arg("isolate") = "auto");
  // serve --max-throughput's overrides ("key=value"), for Scenario.for_max_throughput().
  c.def_static("_max_throughput_overrides", &studies::max_throughput_overrides);
}

}  // namespace tessera::python
