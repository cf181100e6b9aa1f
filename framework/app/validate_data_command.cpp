// `tessera validate-data CSV [--latency NAME...]`: predicts published measurements with each
// latency model and reports the absolute percentage error per row, per source and overall.
#include <iostream>
#include <sstream>

#include "common_options.hpp"
#include "exit_codes.hpp"
#include "html_output.hpp"
#include "isolation_option.hpp"
#include "name_list.hpp"
#include "output_files.hpp"
#include "progress_bar.hpp"
#include "report/study_text/accuracy_report.hpp"
#include "studies/entries/validate_data_entry.hpp"
#include "studies/study_context.hpp"
#include "terminal.hpp"
#include "tessera/error.hpp"

namespace tessera::cli {

namespace {

const char* kValidateDataUsage = "tessera validate-data CSV [--latency NAME[,NAME...]]... [options]";
const char* kValidateDataExamples =
    "  tessera validate-data data/measurements.csv --latency roofline,overlap,calibrated\n"
    "  tessera validate-data data/measurements.csv --latency calibrated --latency-only --json -\n"
    "  tessera validate-data data/measurements-h200.csv --latency calibrated --summary\n"
    "  tessera validate-data data/measurements-serving.csv --latency calibrated --simulate --summary\n"
    "  tessera validate-data data/measurements-serving-2026.csv --latency calibrated --summary\n\n"
    "Each row is mapped through the alias table (data/aliases.yaml: model, hardware and software\n"
    "names -> model file, machine file, framework profile) and its metric predicted: ttft and\n"
    "prefill_latency (the prefill of input_len tokens), tpot/tpot_p50 (a decode step at context\n"
    "input_len + output_len/2), e2e_latency (prefill + output_len - 1 decode steps with growing\n"
    "context), kernel_latency (one GEMM or copy), op_latency:<op> (one stage of one layer, timed\n"
    "alone), throughputs with a known batch, and collective rows (collective_busbw:all_reduce with\n"
    "the NCCL_ALGO the notes force, collective_latency:ep_dispatch/ep_combine as all-to-alls;\n"
    "median per group). Rows that state concurrency, ISL and OSL and measure a request-level\n"
    "quantity are also predicted through a serving model (--serving; the `serving` JSON fields),\n"
    "and with --simulate those measured at a stated concurrency through the request simulator.\n"
    "Rows only a stream of requests answers - under a stated request rate (target_qps,\n"
    "request_rate=), a P50/P90/P99, MLPerf Server's throughput within its P99 limits - are always\n"
    "predicted by simulating that stream (at most --limit validate.load_rows of them).\n"
    "Rows that cannot be mapped are listed with the\n"
    "reason. APE = |predicted - measured| / measured. docs/accuracy.md has the rules and results.\n";

}  // namespace

int validate_data_command(const Args& args) {
  return run_guarded([&]() -> int {
    CommonOptions common;
    std::string csv_path, aliases, serving = studies::default_validation_serving();
    std::vector<std::string> latency_raw;
    std::vector<std::string> scopes_raw;
    bool latency_only = false, summary = false, simulate = false;
    IsolationFlags isolation;
    po::options_description desc("Options");
    desc.add_options()("latency",
                       po::value<std::vector<std::string>>(&latency_raw)->composing()->value_name("NAME"),
                       "latency model(s): comma-separated or repeated (default: every latency plugin found)")(
        "aliases", po::value<std::string>(&aliases)->value_name("FILE"),
        "alias table mapping the CSV's names to shipped files (default: data/aliases.yaml)")(
        "latency-only", po::bool_switch(&latency_only),
        "only the latency metrics (ttft, e2e_latency, prefill_latency, tpot*, op_latency:*, kernel_latency)")(
        "summary", po::bool_switch(&summary), "print the per-source summary without the per-row table")(
        "serving", po::value<std::string>(&serving)->value_name("NAME"),
        (std::string("serving model of the serving rows (concurrency, ISL and OSL stated), beside the "
                     "step-level prediction; \"none\" = skip them (default: ") +
         studies::default_validation_serving() + ")")
            .c_str())("simulate", po::bool_switch(&simulate),
                      "also predict the rows measured by a benchmark client at a stated concurrency "
                      "(fixed ISL and OSL) through the request simulator: N clients in a closed loop, the "
                      "row's statistic (mean, P50, P90, P99) of the simulated requests (the `simulated` "
                      "JSON fields)")(
        "scopes", po::value<std::vector<std::string>>(&scopes_raw)->composing()->value_name("LIST"),
        "does not apply: a measurement is of the full model, every row is predicted with scope "
        "full (a note on stderr says so)");
    add_common_options(desc, common, kOptPluginPath | kOptVerbosity | kOptJson | kOptHelp | kOptLimits);
    add_isolation_options(desc.add_options(), isolation);
    ChartPaths charts;
    add_chart_options(desc, charts, "predicted vs measured, the error per source and metric family");
    TerminalOptions term_opts;
    add_terminal_options(desc, term_opts, false);
    po::options_description hidden;
    hidden.add_options()("csv", po::value<std::string>(&csv_path), "measurements CSV");
    if (!parse_or_help(args, desc, hidden, "csv", 1, common, kValidateDataUsage, kValidateDataExamples))
      return kExitOk;
    const TerminalText term = terminal_text(term_opts);
    if (csv_path.empty())
      throw InputError("validate-data: name a measurements CSV (e.g. data/measurements.csv)");
    // Scopes (docs/report.md "Both scopes in one page") are of a simulated study: a measured
    // latency or throughput is of the whole model, so only the full scope can be compared with it.
    if (!scopes_raw.empty())
      std::cerr
          << "tessera validate-data: note: --scopes does not apply: measurements are of the full model, "
             "so every row is predicted with scope full\n";

    const studies::ValidateDataEntry entry(common.plugin_paths, common.plugin_overrides);
    studies::ValidateDataOptions vd;
    vd.latency = split_names(latency_raw);
    vd.measured_last = true;
    vd.latency_only = latency_only;
    vd.aliases = aliases;
    vd.serving = serving;
    vd.simulate = simulate;
    vd.load = common.load_options();
    vd.who = "validate-data";
    accuracy::ValidateOptions plan = entry.plan(vd);
    // With a latency plugin from outside the shipped folder, the whole command in an isolated
    // worker (studies/plugin_isolation.hpp).
    studies::StudyWorkers workers(
        worker_command(isolation, "validate-data", args, 0, studies::WorkerShare::whole));
    bool added = false;
    for (const std::string& name : plan.latency)
      added = added || studies::added_plugin(entry.registry(), PluginKind::latency, name);
    workers.before_command(added);
    Outputs outputs;
    OutputFile* json = outputs.add("--json", common.json);
    const HtmlOutput html = add_html_output(outputs, charts, command_line("validate-data", args));
    ProgressBar bar(!common.quiet, term.width_given);
    plan.on_progress = bar.callback();
    const auto reports = entry.compute(csv_path, plan);
    if (json || html.any()) {
      const nlohmann::json j = entry.document(reports, html.command);
      if (json) json->stream() << j.dump(2) << "\n";
      write_html(html, j);
    }
    outputs.commit_all();
    if (!outputs.stdout_taken()) {
      std::ostringstream text;
      accuracy::print_reports(text, reports, !summary, term.width);
      print_fitted(std::cout, text.str(), term);
    }
    return kExitOk;
  });
}

}  // namespace tessera::cli
