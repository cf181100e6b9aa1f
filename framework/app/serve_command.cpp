// `tessera serve SCENARIO`: the serving study of a `workload.mode: serve` scenario — every
// configuration within the PE budget at every serving point (batch x token budget); the best
// under the SLO, the Pareto frontier, the top N, or the closest miss; --json / --csv reports.
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "isolation_option.hpp"
#include "output_files.hpp"
#include "progress_bar.hpp"
#include "report/deploy/deploy_writer.hpp"
#include "report/study_text/capacity_report.hpp"
#include "report/study_text/disagg_report.hpp"
#include "report/study_text/serve_report.hpp"
#include "report/study_text/simulation_report.hpp"
#include "report/text/pareto_plot.hpp"
#include "report/text/request_timeline.hpp"
#include "scope_option.hpp"
#include "studies/documents/simulation_document.hpp"
#include "studies/entries/serve_entry.hpp"
#include "studies/installation.hpp"
#include "studies/json/provenance.hpp"
#include "study.hpp"
#include "study_options.hpp"
#include "work_report.hpp"

namespace tessera::cli {
namespace {

constexpr const char* kServeUsage =
    "Usage: tessera serve SCENARIO [options]\n"
    "\n"
    "The serving study of a scenario with `workload: {mode: serve, input: ISL, output: OSL}`:\n"
    "every valid configuration of its parallelism sweep within the PE budget (serving.max_pes or\n"
    "--max-pes) at every serving point of sweep.serving (batch = sequences in flight per replica,\n"
    "a replica being the configuration's dp group, x token_budget = tokens per iteration), each\n"
    "timed by the serving plugin (plugins.serving). Prints the best point under the SLO\n"
    "(serving.slo; SLOs apply to means) by the first objective, the Pareto frontier over the\n"
    "objectives among the points within the SLO, the top N and the counts; when no point meets\n"
    "the SLO, the closest miss (exit 0). With serving.disaggregated, also the disaggregated study\n"
    "(a prefill pool and a decode pool, rate-matched, the KV sent between them) and its gain at\n"
    "the SLO: best tokens/s/PE within it, disaggregated / aggregated. With serving.requests (or\n"
    "--simulate-top K) the analytical top K are then searched for their capacity by simulation\n"
    "(the largest arrival rate within every percentile SLO) and re-ranked by tokens/s/PE there.\n";

constexpr const char* kServeExamples =
    "\nExamples:\n"
    "  tessera serve scenarios/llama3.1-70b-serve-4k1k-h100.yaml\n"
    "  tessera serve scenarios/llama3.1-70b-serve-4k1k-h100.yaml --max-pes 16 --top 5\n"
    "  tessera serve scenarios/llama3.1-70b-serve-4k1k-h100.yaml --set serving.slo.tpot=30ms\n"
    "  tessera serve scenarios/mixtral-8x7b-serve-h100.yaml --json - | jq .best\n"
    "  tessera serve scenarios/deepseek-v3-serve-h200.yaml --csv out/points.csv --threads 4\n"
    "  tessera serve scenarios/llama3.1-70b-serve-4k1k-h100.yaml --set framework=vllm --deploy out/vllm\n"
    "  tessera serve scenarios/mixtral-8x7b-serve-h100.yaml --set framework=vllm --max-throughput\n"
    "  tessera serve scenarios/llama3.1-70b-serve-4k1k-h100-poisson.yaml    # serving.requests: simulated\n"
    "  tessera serve scenarios/llama3.3-70b-serve-5k500-h100-concurrency.yaml \\\n"
    "      --set serving.requests.concurrency=50   # a closed loop of 50 clients, as bench_serving\n"
    "  tessera serve scenarios/llama3.1-70b-serve-4k1k-h100-poisson.yaml --csv out/points.csv \\\n"
    "      --requests out/requests.csv --html out/serve.html   # every simulated request, charts\n"
    "  tessera serve scenarios/llama3.1-70b-serve-4k1k-h100.yaml --simulate-top 5 --csv out/points.csv\n"
    "      # the capacity of the analytical top 5 under Poisson arrivals: out/points.capacity.csv\n"
    "\nOutputs (--json, --csv, the scenario's report.json/csv) are checked before the study: their\n"
    "folder must exist (it is not created), two outputs cannot name the same file, at most one goes\n"
    "to stdout. --csv has one row per configuration x serving point, with a reason column.\n"
    "With serving.requests, --csv FILE.csv also writes FILE.simulation.csv: one row per latency\n"
    "metric of the simulated point (mean, P50, P90, P99 with their 95 % half-widths, max; seconds),\n"
    "and --requests FILE writes every simulated request as it finishes (CSV, or JSON Lines for\n"
    ".jsonl/.ndjson; docs/report.md \"Request simulation\"). With a capacity search, --csv FILE.csv\n"
    "also writes FILE.capacity.csv: one row per finalist (docs/report.md \"Capacity\").\n"
    "Regular files are replaced atomically; stdout, FIFOs and devices are written through.\n"
    "Ctrl-C / SIGTERM stop the study, remove the partial files and exit 130 / 143.\n"
    "--deploy DIR needs `framework:` (or --set framework=NAME[@VERSION]); it writes, for the best\n"
    "configuration and the next two by the first objective (and the disaggregated best pair's two\n"
    "pools), the framework's launch script (and config file), and a README (docs/frameworks.md).\n";

// --deploy DIR: refused before the study without a framework (naming the frameworks), with a
// precision its flags cannot state, or when DIR cannot be a folder.
void check_deploy_dir(const std::string& dir, const Scenario& scenario) {
  if (!scenario.framework.set) {
    std::string names;
    try {
      names = serving_stack_names(
          load_serving_stack_catalog(default_serving_stacks_path(studies::shipped_data())));
    } catch (const InputError&) {
      names = "see data/frameworks.yaml";
    }
    throw InputError(
        "--deploy: the scenario names no framework; add `framework: NAME[@VERSION]` or --set "
        "framework=NAME (one of " +
        names + ")");
  }
  // A precision the framework's flags cannot state is refused, not dropped (stack_precision.hpp).
  if (const std::string why = deploy_refusal(scenario); !why.empty()) throw InputError("--deploy: " + why);
  if (dir.empty()) throw InputError("--deploy: expected a folder, found an empty path");
  std::error_code ec;
  const std::filesystem::path p(dir);
  if (std::filesystem::exists(p, ec) && !std::filesystem::is_directory(p, ec))
    throw InputError("--deploy: " + dir + " exists and is not a folder");
  if (std::filesystem::is_directory(p, ec) && !std::filesystem::is_empty(p, ec))
    throw InputError(
        "--deploy: " + dir +
        " is not empty: give a new or empty folder (no file of an earlier run is left beside the "
        "new ones)");
  const std::filesystem::path parent = p.parent_path().empty() ? "." : p.parent_path();
  if (!std::filesystem::is_directory(parent, ec))
    throw InputError("--deploy: the folder " + parent.string() +
                     " does not exist (only DIR itself is created)");
}

// Every file through Outputs: a temporary file renamed over its name on commit (atomic).
void write_deploy(const std::string& dir, const Scenario& scenario, const ServeResult& result,
                  const DisaggStudy* disagg) {
  std::error_code ec;
  std::filesystem::create_directory(dir, ec);
  if (ec) throw InputError("--deploy: cannot create " + dir + ": " + ec.message());
  const std::vector<DeployEntry> entries = deploy_entries(scenario, result, disagg, 3);
  Outputs files;
  for (const DeployFile& f : render_deploy(scenario, entries))
    files.add_in_folder("--deploy", (std::filesystem::path(dir) / f.name).string())->stream() << f.content;
  files.commit_all();
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))  // the scripts run as written
    if (e.path().extension() == ".sh")
      std::filesystem::permissions(e.path(),
                                   std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec |
                                       std::filesystem::perms::others_exec,
                                   std::filesystem::perm_options::add, ec);
}

// --max-throughput, after the user's --set: the question has no SLO, the batch grid reaches past
// any engine's KV capacity (the admission rule, docs/physics.md §10.1, drops what does not fit).
void add_max_throughput(CommonOptions& common) {
  for (std::string& s : studies::max_throughput_overrides()) common.set.push_back(std::move(s));
}

// `tessera serve` studies one machine (per pool): a hardware grid is explore's.
void refuse_hardware_sweep(const Scenario& scenario) {
  if (scenario.sweep.hardware.empty()) return;
  throw InputErrors({Diagnostic{scenario.sweep.hardware.front().where,
                                "sweep.hardware: `tessera serve` studies one machine (per pool): use "
                                "`tessera explore` for the grid (" +
                                    scenario.sweep.hardware.front().path +
                                    " ...), or a copy of the scenario without sweep.hardware"}});
}

// serve's own options (between SCENARIO and --scopes in --help).
struct ServeFlags {
  std::string threads_text, top_text, max_pes_text, deploy_dir, requests_path, simulate_top_text;
  bool deploy_given = false;  // --deploy "" is refused, not ignored
  bool max_throughput = false;
  IsolationFlags isolation;
  void declare(po::options_description_easy_init add) {
    add_isolation_options(add, isolation);
    add("threads,j", po::value<std::string>(&threads_text)->value_name("N"), kThreadsHelp)(
        "top", po::value<std::string>(&top_text)->value_name("N"), kTopHelp)(
        "max-pes", po::value<std::string>(&max_pes_text)->value_name("N"),
        "PEs of one configuration at most, all replicas (default: the scenario's serving.max_pes; 0 = no "
        "budget)")(
        "deploy",
        po::value<std::string>(&deploy_dir)->value_name("DIR")->notifier([this](const std::string&) {
          deploy_given = true;
        }),
        "write the framework's launch scripts for the best configurations into DIR (created if "
        "missing; needs `framework:`)")(
        "requests", po::value<std::string>(&requests_path)->value_name("FILE|-"),
        "the simulated point's per-request timeline (needs serving.requests): CSV, or JSON Lines for a FILE "
        "ending in .jsonl or .ndjson; written as requests finish")(
        "simulate-top", po::value<std::string>(&simulate_top_text)->value_name("K"),
        "search the capacity of the analytical top K by simulation and re-rank them (default: 20 with "
        "serving.requests, else 0; without serving.requests a Poisson stream of the workload's lengths)")(
        "max-throughput", po::bool_switch(&max_throughput),
        "the best tokens/s/PE with no SLO at the engine's limits: serving.slo cleared, batches 1..4096 "
        "(powers of two and 1.5x) up to what the KV capacity admits, ranked by tokens_per_s_per_pe (MLPerf "
        "Offline, trtllm-bench throughput)");
  }
};

// --csv PATH's (or report.csv's) sibling `what`: PATH's stem + "." + what + ".csv" beside it, when
// `wanted`. None for stdout or a FIFO (the --json has it).
OutputFile* add_sibling_csv(Outputs& outputs, const OutputFile* csv, bool wanted, const std::string& what) {
  if (!csv || !wanted || csv->kind() != OutputFile::Kind::atomic) return nullptr;
  std::filesystem::path p(csv->path());
  p.replace_extension();
  p += "." + what + ".csv";
  return outputs.add(csv->option() + " (" + what + ")", p.string());
}

// --requests FILE: only with a request stream to simulate.
OutputFile* add_requests_output(Outputs& outputs, const std::string& path, const Scenario& scenario) {
  if (path.empty()) return nullptr;
  if (!scenario.serving.requests.given)
    throw InputError(
        "--requests: the scenario has no serving.requests, so no request is simulated (add a request stream, "
        "docs/scenario-format.md \"Requests\", e.g. scenarios/llama3.1-70b-serve-4k1k-h100-poisson.yaml)");
  return outputs.add("--requests", path);
}

}  // namespace

int serve_command(const Args& args) {
  return run_guarded([&]() -> int {
    StudyCommandOptions o;
    ServeFlags f;
    declare_study_options(o,
                          {.scenario_help = "scenario file (mode: serve)",
                           .charts = "tokens/s/user vs tokens/s/PE, the SLO, the frontiers",
                           .plot = true},
                          [&](po::options_description_easy_init add) { f.declare(add); });
    if (!parse_study_options(args, o, kServeUsage, kServeExamples)) return kExitOk;
    const TerminalText term = terminal_text(o.term);
    // (A worker of Python's from_dict scenario has it as text: studies::apply_worker_scenario.)
    if (o.scenario_path.empty() && studies::worker_setting("scenario_text").empty())
      throw InputError(
          "tessera serve needs a SCENARIO: a scenario file with workload.mode: serve (see "
          "'tessera serve --help')");
    const unsigned threads = parse_threads(f.threads_text);
    studies::ServeOptions so;
    so.max_pes = parse_max_pes(f.max_pes_text);
    if (f.max_throughput) add_max_throughput(o.common);
    // With an added plugin, the whole study in an isolated worker (studies/plugin_isolation.hpp).
    // Across MPI ranks, its serving points' units on every rank (core/workers/mpi_job.hpp).
    studies::WorkerCommand worker =
        worker_command(f.isolation, "serve", args, threads, studies::WorkerShare::whole);
    worker.mpi_units = true;
    studies::StudyWorkers workers(std::move(worker));
    const Study study = open_study(o.common, o.scenario_path, {}, StudyKind::serve, &workers);
    workers.prepared();  // a probe's worker (Python): its plugins are created
    const Scenario& scenario = study.scenario();
    so.scopes = listed_scopes(o.scopes_raw, scenario);
    refuse_hardware_sweep(scenario);
    so.top = parse_top(f.top_text, scenario.report.top);
    if (!f.simulate_top_text.empty()) so.simulate_top = parse_simulate_top(f.simulate_top_text);
    const std::size_t finalists = studies::simulated_finalists(so, scenario);
    if (f.deploy_given) check_deploy_dir(f.deploy_dir, scenario);
    // Every output checked (and its temporary file created) before any work.
    Outputs outputs;
    const ReportOutputs report = add_report_outputs(outputs, o.common, study);
    const HtmlOutput html = add_html_output(outputs, o.charts, command_line("serve", args));
    // With serving.requests, the simulation's table; with finalists, the capacity table.
    OutputFile* simulation_csv =
        add_sibling_csv(outputs, report.csv, scenario.serving.requests.given, "simulation");
    OutputFile* capacity_csv = add_sibling_csv(outputs, report.csv, finalists > 0, "capacity");
    OutputFile* timeline_file = add_requests_output(outputs, f.requests_path, scenario);
    if (f.deploy_given) outputs.refuse_within("--deploy", f.deploy_dir);  // --json D/best.sh and the like
    plan_study(std::cerr, scenario, study.registry(), "serve", StudyShape{}, threads, o.common.quiet);
    ProgressBar bar(!o.common.quiet, term.width_given);
    so.threads = threads;
    so.executor = workers.executor();  // across MPI ranks: theirs; else null (threads)
    so.on_progress = bar.callback();
    so.on_capacity_progress = bar.callback();
    so.document = report.json || html.any();
    so.points = so.document || term.plot;
    so.command = html.command;
    if (report.csv) {
      write_serve_csv_header(report.csv->stream(), study.description());
      so.on_point = [&](const ServeRecord& r) {
        write_serve_csv_row(report.csv->stream(), study.description(), r);
      };
    }
    std::optional<RequestTimeline> timeline;
    const std::string command = command_line("serve", args);
    if (timeline_file) {
      timeline.emplace(timeline_file->stream(), timeline_format(f.requests_path),
                       scenario.serving.requests.stream.warmup);
      so.on_simulation_start = [&](const ParallelConfig& c, const ServingPoint& p) {
        timeline->header(
            command,
            studies::simulation_header_json(c, p, scenario.serving.requests, study.session().machine()),
            provenance_json(study.registry()));
      };
      so.on_request = [&](const requests::RequestOutcome& o) { timeline->write(o); };
    }
    const studies::ServeStudyResult served = studies::serve(study, so);
    if (simulation_csv && served.simulated)
      write_simulation_csv(simulation_csv->stream(), served.simulated->result);
    if (capacity_csv && served.capacity) write_capacity_csv(capacity_csv->stream(), *served.capacity);
    if (!served.simulated) {  // no best point: nothing simulated; the files say so, with no row
      if (simulation_csv) write_simulation_csv_header(simulation_csv->stream());
      if (timeline) timeline->header(command, nullptr, provenance_json(study.registry()));
    }
    const ServeResult& result = served.answer.aggregated;
    const std::optional<DisaggStudy>& disagg = served.answer.disagg;
    if (report.json) report.json->stream() << served.document.dump(2) << "\n";
    if (so.document) write_html(html, served.document);
    outputs.commit_all();
    if (f.deploy_given) write_deploy(f.deploy_dir, scenario, result, disagg ? &*disagg : nullptr);
    if (!outputs.stdout_taken()) {
      std::ostringstream text;
      print_serve_text(text, study.description(), result, served.notes, 20, term.width);
      if (term.plot) {
        const std::string plot =
            serve_pareto_plot(study.description(), result, term.plot_width(), term.unicode);
        if (!plot.empty()) text << "\nPareto frontier, drawn (--no-plot leaves it out)\n" << plot;
      }
      if (disagg)
        print_disagg_text(text, study.description(), *disagg, *served.disagg_notes, result, 20,
                          served.answer.also, term.width);
      if (served.simulated)
        print_simulation(text, *served.simulated, study.scenario().serving.requests, term.width);
      if (served.simulated_disagg)
        print_disagg_simulation(text, *served.simulated_disagg, study.scenario().serving.requests,
                                term.width);
      if (served.capacity)
        print_capacity(text, *served.capacity, studies::capacity_stream(scenario), study.session().machine(),
                       term.width);
      print_fitted(std::cout, text.str(), term);
    }
    return kExitOk;
  });
}

}  // namespace tessera::cli
