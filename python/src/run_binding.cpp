// _Scenario.run and .explain: the studies `tessera run` and `tessera explain` run, returning the
// documents their --json writes (studies/run_study.hpp; explain still report/explain_report.hpp).
#include <pybind11/stl.h>

#include <optional>

#include "bindings.hpp"
#include "interruptible.hpp"
#include "py_json.hpp"
#include "report/explain_report.hpp"
#include "studies/run_study.hpp"
#include "tessera/error.hpp"
#include "tessera/physics/layout.hpp"
#include "thread_count.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object run(const ScenarioHandle& h, std::optional<unsigned> threads, std::optional<std::size_t> top,
               py::object progress) {
  require_mode(h, false, "Scenario.serve()");
  const studies::RunStudy plan(h);
  studies::RunOptions ro;
  ro.threads = thread_count(threads);
  ro.top = top;
  Interruptible guard(std::move(progress));
  ro.on_progress = [&guard](const ProgressEvent& p) { guard.poll(p.done, p.total, p.phase); };
  ro.points = true;  // the CLI's --json has them too
  ro.document = true;
  studies::RunResult result;
  guard.run([&] { result = plan.compute(ro); });
  return to_python(result.document);
}

py::object explain(const ScenarioHandle& h, const std::string& config_text) {
  require_mode(h, false, "Scenario.serve()");
  const Session& session = h.session();
  const ParallelConfig parsed = parse_config(config_text, session.machine());
  const ParallelConfig config = canonicalize(session.model(), parsed);
  Evaluation e;
  session.evaluator().evaluate(config, e);
  if (!e.valid)
    throw InputError(format_config(config, session.machine()) + ": invalid configuration: " +
                     describe_invalid(e.layout.reason, session.model(), session.machine(), config));
  return to_python(with_provenance(explain_json(session, e), h.registry()));
}

}  // namespace

void bind_run(ScenarioClass& c) {
  c.def("_run", &run, py::arg("threads") = py::none(), py::arg("top") = py::none(),
        py::arg("progress") = py::none())
      .def("_explain", &explain, py::arg("config"));
}

}  // namespace tessera::python
