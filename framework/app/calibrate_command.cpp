// `tessera calibrate CSV`: fits a machine family's `efficiency:` block and a framework profile
// from measurements, and reports the held-out error (docs/accuracy.md "Your own measurements").
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

#include "common_options.hpp"
#include "core/text/inputs_read.hpp"
#include "core/text/safe_text.hpp"
#include "exit_codes.hpp"
#include "html_output.hpp"
#include "isolation_option.hpp"
#include "name_list.hpp"
#include "output_files.hpp"
#include "report/study_text/calibration_report.hpp"
#include "studies/entries/calibrate_entry.hpp"
#include "studies/study_context.hpp"
#include "tessera/error.hpp"

namespace tessera::cli {

namespace {

const char* kCalibrateUsage = "tessera calibrate CSV... [--extra CSV]... [options]";
const char* kCalibrateExamples =
    "  # your own H200 rows (the schema of data/measurements.csv, data/README.md), one family, one\n"
    "  # framework; the fitted block goes to a file, the report to the terminal:\n"
    "  tessera calibrate my-h200.csv --family H100/H200 --machine machines/dgx-h200.yaml \\\n"
    "      --framework vllm@0.8.4 --folds in-sample --out h200-block.yaml\n"
    "  # the protocol of docs/accuracy.md on both public files (every fold; ~minutes):\n"
    "  tessera calibrate data/measurements.csv data/measurements-2024-2026.csv \\\n"
    "      --extra data/measurements-h200.csv --exclude-ids 1132-1143 --exclude-notes grouped \\\n"
    "      --folds all --rounds 1 --summary\n"
    "  # the band file run/serve/explain/compare print their error bars from:\n"
    "  tessera calibrate data/measurements.csv --extra data/measurements-h200.csv \\\n"
    "      --exclude-ids 1132-1143 --exclude-notes grouped --bands data/error-bands.csv --summary\n\n"
    "Every positional CSV is a target file (its rows weigh 1); rows of latency metrics and of one\n"
    "stage timed alone (kernel_latency:*, kernel_tflops, collective_busbw:*, collective_latency:*)\n"
    "are fitted and scored.\n"
    "Fits, per machine family with rows, the latency model's `efficiency:` values (gemm_efficiency,\n"
    "gemm_m_half, gemm_8bit_efficiency when 8-bit rows exist, hbm_efficiency, attention_efficiency,\n"
    "kernel_overhead) and, per framework profile whose rows come from --min-sources sources or more,\n"
    "its launch, collective-call, decode-step and prefill overheads; each value inside its documented\n"
    "range. Prints the fitted block as YAML (`efficiency:` with `family:`) and the profile values as a\n"
    "latency block, then the protocol: in sample and, per held-out fold, the median APE of rows the\n"
    "fold's refit never saw (--folds: in-sample, source, family, framework-version, all).\n"
    "A family is the machine block's `family:` (else the machine file's name; --family-map groups\n"
    "files). Exit 2 on bad input: no mappable row (each row's reason), fewer rows than fitted\n"
    "values, held-out folds over rows of one source.\n";

}  // namespace

int calibrate_command(const Args& args) {
  return run_guarded([&]() -> int {
    CommonOptions common;
    studies::CalibrateOptions req;
    calibration::FitRowOptions& rows = req.study.rows;
    std::string out_path, bands_path;
    std::vector<std::string> folds_raw;
    bool summary = false;
    IsolationFlags isolation;
    po::options_description desc("Options");
    desc.add_options()(
        "extra", po::value<std::vector<std::string>>(&rows.extra)->composing()->value_name("CSV"),
        "calibration CSV(s) fitted and scored beside CSV, each (source, framework) group weighing "
        "half (repeatable)")("latency", po::value<std::string>(&req.latency)->value_name("NAME"),
                             "latency model whose values are fitted (default: calibrated)")(
        "aliases", po::value<std::string>(&rows.aliases)->value_name("FILE"),
        "alias table mapping the CSV's names to shipped files (default: data/aliases.yaml)")(
        "family", po::value<std::string>(&rows.family)->value_name("NAME"),
        "the machine family of every row (e.g. H100/H200; default: the machine block's family:)")(
        "family-map",
        po::value<std::vector<std::string>>(&rows.family_map)->composing()->value_name("NAME=STEMS"),
        "machine files (by name without .yaml) of one family: A100=dgx-a100-40gb,dgx-a100-80gb (repeatable)")(
        "machine", po::value<std::string>(&rows.machine)->value_name("FILE"),
        "the machine file of every row (default: the alias table's)")(
        "framework", po::value<std::string>(&req.framework)->value_name("NAME[@VER]"),
        "the framework profile of every row (e.g. vllm@0.8.4; default: the alias table's)")(
        "folds", po::value<std::vector<std::string>>(&folds_raw)->composing()->value_name("LIST"),
        "in-sample, source, family, framework-version or all, comma-separated (default: in-sample,source)")(
        "profile-key", po::value<std::string>(&req.profile_key)->value_name("KEY"),
        "what a fitted profile is: version (framework@stated-version, default) or framework (every version "
        "of a framework shares the fitted values)")(
        "min-sources", po::value<std::size_t>(&req.min_sources)->value_name("N"),
        "sources a profile's rows must come from to be fitted (default: 2; 1 when every row has one source)")(
        "exclude-ids", po::value<std::vector<std::string>>(&rows.exclude_ids)->composing()->value_name("A-B"),
        "ids of --extra rows left out (A-B or A; repeatable)")(
        "exclude-notes",
        po::value<std::vector<std::string>>(&rows.exclude_notes)->composing()->value_name("TEXT"),
        "--extra rows whose notes contain TEXT are left out (repeatable)")(
        "rounds", po::value<int>(&req.rounds)->value_name("N"), "optimiser rounds per fit (default: 4)")(
        "out", po::value<std::string>(&out_path)->value_name("FILE"),
        "write the fitted family block(s) as YAML to FILE (atomically)")(
        "bands", po::value<std::string>(&bands_path)->value_name("FILE"),
        "write the band file (leave-one-source-out percentiles of ln(predicted/measured); "
        "data/error-bands.csv)")("summary", po::bool_switch(&summary), "leave out the per-row table");
    add_common_options(desc, common, kOptPluginPath | kOptVerbosity | kOptJson | kOptHelp | kOptLimits);
    add_isolation_options(desc.add_options(), isolation);
    po::options_description hidden;
    hidden.add_options()("csv", po::value<std::vector<std::string>>(&req.csv), "measurements CSV(s)");
    if (!parse_or_help(args, desc, hidden, "csv", -1, common, kCalibrateUsage, kCalibrateExamples))
      return kExitOk;
    if (!folds_raw.empty()) req.folds = split_names(folds_raw);
    req.bands = !bands_path.empty();
    req.load = common.load_options();
    calibration::CalibrateOptions co = studies::plan_calibration(req);
    if (!common.quiet) co.on_fold = [](const std::string& s) { std::cerr << "calibrate: " << s << "\n"; };

    const std::string command = command_line("calibrate", args);
    // No output may replace a file the command reads (core/text/inputs_read.hpp): the files it names
    // are noted before the outputs are added, the alias table, model and machine files the
    // rows are read through are checked once they are read (before any fit).
    for (const std::string& p : req.csv) note_input_file(p, "CSV");
    for (const std::string& p : co.rows.extra) note_input_file(p, "--extra");
    note_input_file(co.rows.aliases, "--aliases");
    note_input_file(co.rows.machine, "--machine");
    const studies::CalibrateEntry entry(common.plugin_paths, common.plugin_overrides);
    // With a latency plugin from outside the shipped folder, the whole command in an isolated
    // worker (studies/plugin_isolation.hpp).
    studies::StudyWorkers workers(
        worker_command(isolation, "calibrate", args, 0, studies::WorkerShare::whole));
    workers.before_command(studies::added_plugin(entry.registry(), PluginKind::latency, req.latency));
    Outputs outputs;
    OutputFile* json = outputs.add("--json", common.json);
    OutputFile* out = outputs.add("--out", out_path);
    OutputFile* bands = outputs.add("--bands", bands_path);
    co.on_inputs = [&outputs](const std::vector<std::string>&) { outputs.refuse_inputs_read(); };
    const studies::CalibrateResult result =
        entry.compute(co, json ? std::optional<std::string>(command) : std::nullopt);
    const calibration::Calibration& c = result.calibration;
    if (json) json->stream() << result.document.dump(2) << "\n";
    if (out) out->stream() << calibration::family_blocks_yaml(c);
    if (bands) bands->stream() << calibration::bands_csv(c, command, entry.provenance_comment());
    outputs.commit_all();
    if (!outputs.stdout_taken()) {
      std::ostringstream text;
      calibration::print_calibration(text, c, !summary);
      std::cout << printable_lines(text.str());
    }
    return kExitOk;
  });
}

}  // namespace tessera::cli
