// `tessera explain SCENARIO --config "cp=8,tp=4,..."`: one configuration stage by stage.
#include <iostream>
#include <sstream>

#include "common_options.hpp"
#include "exit_codes.hpp"
#include "html_output.hpp"
#include "isolation_option.hpp"
#include "output_files.hpp"
#include "report/study_text/explain_report.hpp"
#include "report/text/text_table.hpp"
#include "scope_option.hpp"
#include "studies/entries/explain_entry.hpp"
#include "study.hpp"
#include "study_options.hpp"
#include "terminal.hpp"
#include "tessera/error.hpp"

namespace tessera::cli {

namespace {

const char* kExplainUsage = "tessera explain [SCENARIO] --config \"KNOB=VALUE,...\" [options]";
const char* kExplainExamples =
    "  tessera explain scenarios/llama3.1-70b-decode-128k.yaml \\\n"
    "      --config \"cp=8,tp=4,pp=1,dp=1,ep=1,kv_shard_mode=split,ffn_shard_scope=TP+CP,tp_placement=pe,"
    "cp_placement=cube,cp_ring_variant=qoml\"\n"
    "  tessera explain --config \"tp=16\" --set workload.context=4K --json -\n\n"
    "Knobs left out of --config take their defaults: cp=tp=pp=dp=ep=1, kv_shard_mode=split,\n"
    "ffn_shard_scope=TP, tp_placement=<the PE>, cp_placement=<the first level>, cp_ring_variant=kv.\n"
    "The configuration is canonicalised first (docs/specification.md §2.8): knobs that make no difference "
    "are reset.\n";

}  // namespace

int explain_command(const Args& args) {
  return run_guarded([&]() -> int {
    StudyCommandOptions o;
    std::string config_text, latency;
    IsolationFlags isolation;
    declare_study_options(o,
                          {.common_flags = kOptAll & ~kOptCsv,
                           .scenario_listed = false,
                           .own_first = true,
                           .charts = "the stage breakdown"},
                          [&](po::options_description_easy_init add) {
                            add("config,c", po::value<std::string>(&config_text),
                                "the configuration to explain")(
                                "latency", po::value<std::string>(&latency),
                                "latency model to use (default: the scenario's first)");
                            add_isolation_options(add, isolation);
                          });
    if (!parse_study_options(args, o, kExplainUsage, kExplainExamples)) return kExitOk;
    const TerminalText term = terminal_text(o.term);
    // With an added plugin, the whole study in an isolated worker (studies/plugin_isolation.hpp).
    studies::StudyWorkers workers(worker_command(isolation, "explain", args, 1, studies::WorkerShare::whole));
    const Study study = open_study(
        o.common, o.scenario_path,
        [&](Scenario& scenario) {
          if (latency.empty()) return;
          PluginChoice choice;
          choice.name = latency;
          choice.where = {"<command line>", 0, 0};
          scenario.plugins.latency = {choice};
        },
        StudyKind::step, &workers);
    const std::vector<Scope> scopes = listed_scopes(o.scopes_raw, study.scenario());
    const studies::ExplainEntry entry(study);
    Outputs outputs;
    OutputFile* json = outputs.add("--json", o.common.json);
    const HtmlOutput html = add_html_output(outputs, o.charts, command_line("explain", args));
    const studies::ExplainResult result = entry.compute(config_text);
    if (const std::string invalid = entry.invalid_reason(result); !invalid.empty())
      throw InputErrors({Diagnostic{SourceLocation{loader::kCommandLine, 0, 0}, "--config " + invalid}});
    if (json || html.any()) {
      const nlohmann::json j = entry.document(result, {scopes, html.command});
      if (json) json->stream() << j.dump(2) << "\n";
      write_html(html, j);
    }
    outputs.commit_all();
    if (!outputs.stdout_taken()) {
      std::ostringstream text;
      if (result.canonicalised())
        text << wrap_list("(canonicalised from ",
                          format_config(result.parsed, study.scenario().machine) + ")", term.width)
             << "\n";
      print_explain(text, study.description(), result, term.width);
      print_fitted(std::cout, text.str(), term);
    }
    return kExitOk;
  });
}

}  // namespace tessera::cli
