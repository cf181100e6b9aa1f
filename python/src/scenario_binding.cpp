// _Scenario: loading (a file, or text from a dict) and what a scenario is.
#include <pybind11/stl.h>

#include <filesystem>
#include <memory>
#include <system_error>
#include "bindings.hpp"
#include "core/text/input_file.hpp"
#include "studies/scenario_options.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

LoadOptions options_of(const std::vector<std::string>& set, const std::string& model,
                       const std::string& machine, const std::string& model_hf_json) {
  LoadOptions o;
  o.set = set;
  o.model_override = model;
  o.machine_override = machine;
  o.model_hf_json = model_hf_json;  // Scenario.with_model(a config.json dict)
  return o;
}

}  // namespace

void bind_scenario(ScenarioClass& c) {
  c.def_static(
       "_load",
       [](const std::string& path, const std::vector<std::string>& set,
          const std::vector<std::string>& plugin_path, const std::string& model, const std::string& machine,
          const std::string& model_hf_json) {
         studies::ScenarioOptions o =
             python_options(plugin_path, options_of(set, model, machine, model_hf_json));
         o.path = path;
         // Its text read once: every study of it, here or in a worker process, runs this scenario
         // (not the file as it is then, or another one where the current folder has changed).
         if (!path.empty() && input_file_problem(path).empty()) {
           std::error_code ec;
           const std::filesystem::path folder = std::filesystem::absolute(path, ec).parent_path();
           o.text =
               studies::ScenarioText{read_input_file(path, "file"), path, ec ? "" : folder.string(), true};
         }
         return std::make_unique<ScenarioHandle>(with_setup_probe(o));
       },
       py::arg("path"), py::arg("set"), py::arg("plugin_path"), py::arg("model"), py::arg("machine"),
       py::arg("model_hf_json"))
      .def_static(
          "_from_text",
          [](const std::string& text, const std::string& label, const std::string& base_dir,
             const std::vector<std::string>& set, const std::vector<std::string>& plugin_path,
             const std::string& model, const std::string& machine, const std::string& model_hf_json) {
            studies::ScenarioOptions o =
                python_options(plugin_path, options_of(set, model, machine, model_hf_json));
            // Its folder as it is now: a worker started after a change of folder reads the same files.
            std::error_code ec;
            const std::filesystem::path folder =
                std::filesystem::absolute(base_dir.empty() ? "." : base_dir, ec);
            o.text = studies::ScenarioText{text, label, ec ? base_dir : folder.string()};
            return std::make_unique<ScenarioHandle>(with_setup_probe(o));
          },
          py::arg("text"), py::arg("label"), py::arg("base_dir"), py::arg("set"), py::arg("plugin_path"),
          py::arg("model"), py::arg("machine"), py::arg("model_hf_json"))
      .def_static(
          "_default_path", [] { return default_scenario_path(LoadOptions{}); },
          "the default scenario `tessera run` uses")
      .def_property_readonly("name", [](const ScenarioHandle& h) { return h.scenario().name; })
      .def_property_readonly("file", [](const ScenarioHandle& h) { return h.scenario().file; })
      .def_property_readonly(
          "mode",
          [](const ScenarioHandle& h) {
            const Mode m = h.scenario().workload.mode;
            return std::string(m == Mode::serve ? "serve" : m == Mode::prefill ? "prefill" : "decode");
          })
      .def_property_readonly("model", [](const ScenarioHandle& h) { return h.scenario().model.name; })
      .def_property_readonly("machine", [](const ScenarioHandle& h) { return h.scenario().machine.name; })
      // From the scenario, not the session: reading them creates no plugin (a lazy session).
      .def_property_readonly(
          "latency_model", [](const ScenarioHandle& h) { return h.scenario().plugins.latency.front().name; })
      .def_property_readonly("plugin_path", [](const ScenarioHandle& h) { return h.plugin_paths(); })
      .def_property_readonly("objectives", [](const ScenarioHandle& h) {
        std::vector<std::string> names;
        for (const PluginChoice& o : h.scenario().plugins.objectives) names.push_back(o.name);
        return names;
      });
}

}  // namespace tessera::python
