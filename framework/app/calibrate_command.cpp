// `tessera calibrate CSV`: fits a machine family's `efficiency:` block and a framework profile
// from measurements, and reports the held-out error (docs/accuracy.md "Your own measurements").
#include <filesystem>
#include <iostream>
#include <sstream>

#include "analysis/calibration/calibration_study.hpp"
#include "common_options.hpp"
#include "core/inputs_read.hpp"
#include "core/safe_text.hpp"
#include "exit_codes.hpp"
#include "host/plugin_registry.hpp"
#include "html_output.hpp"
#include "name_list.hpp"
#include "output_files.hpp"
#include "report/calibration_report.hpp"
#include "scenario/scenario_loader.hpp"
#include "studies/documents/provenance.hpp"
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
    calibration::CalibrateOptions co;
    std::vector<std::string> csv_paths;
    std::string framework, out_path, bands_path, latency = "calibrated", profile_key = "version";
    std::vector<std::string> folds_raw;
    bool summary = false;
    int rounds = co.fit.optimizer.rounds;
    std::size_t min_sources = co.fit.min_sources;
    po::options_description desc("Options");
    desc.add_options()(
        "extra", po::value<std::vector<std::string>>(&co.rows.extra)->composing()->value_name("CSV"),
        "calibration CSV(s) fitted and scored beside CSV, each (source, framework) group weighing "
        "half (repeatable)")("latency", po::value<std::string>(&latency)->value_name("NAME"),
                             "latency model whose values are fitted (default: calibrated)")(
        "aliases", po::value<std::string>(&co.rows.aliases)->value_name("FILE"),
        "alias table mapping the CSV's names to shipped files (default: data/aliases.yaml)")(
        "family", po::value<std::string>(&co.rows.family)->value_name("NAME"),
        "the machine family of every row (e.g. H100/H200; default: the machine block's family:)")(
        "family-map",
        po::value<std::vector<std::string>>(&co.rows.family_map)->composing()->value_name("NAME=STEMS"),
        "machine files (by name without .yaml) of one family: A100=dgx-a100-40gb,dgx-a100-80gb (repeatable)")(
        "machine", po::value<std::string>(&co.rows.machine)->value_name("FILE"),
        "the machine file of every row (default: the alias table's)")(
        "framework", po::value<std::string>(&framework)->value_name("NAME[@VER]"),
        "the framework profile of every row (e.g. vllm@0.8.4; default: the alias table's)")(
        "folds", po::value<std::vector<std::string>>(&folds_raw)->composing()->value_name("LIST"),
        "in-sample, source, family, framework-version or all, comma-separated (default: in-sample,source)")(
        "profile-key", po::value<std::string>(&profile_key)->value_name("KEY"),
        "what a fitted profile is: version (framework@stated-version, default) or framework (every version "
        "of a framework shares the fitted values)")(
        "min-sources", po::value<std::size_t>(&min_sources)->value_name("N"),
        "sources a profile's rows must come from to be fitted (default: 2; 1 when every row has one source)")(
        "exclude-ids",
        po::value<std::vector<std::string>>(&co.rows.exclude_ids)->composing()->value_name("A-B"),
        "ids of --extra rows left out (A-B or A; repeatable)")(
        "exclude-notes",
        po::value<std::vector<std::string>>(&co.rows.exclude_notes)->composing()->value_name("TEXT"),
        "--extra rows whose notes contain TEXT are left out (repeatable)")(
        "rounds", po::value<int>(&rounds)->value_name("N"), "optimiser rounds per fit (default: 4)")(
        "out", po::value<std::string>(&out_path)->value_name("FILE"),
        "write the fitted family block(s) as YAML to FILE (atomically)")(
        "bands", po::value<std::string>(&bands_path)->value_name("FILE"),
        "write the band file (leave-one-source-out percentiles of ln(predicted/measured); "
        "data/error-bands.csv)")("summary", po::bool_switch(&summary), "leave out the per-row table");
    add_common_options(desc, common, kOptPluginPath | kOptVerbosity | kOptJson | kOptHelp | kOptLimits);
    po::options_description hidden;
    hidden.add_options()("csv", po::value<std::vector<std::string>>(&csv_paths), "measurements CSV(s)");
    if (!parse_or_help(args, desc, hidden, "csv", -1, common, kCalibrateUsage, kCalibrateExamples))
      return kExitOk;
    if (csv_paths.empty())
      throw InputError("calibrate: name a measurements CSV (e.g. data/measurements.csv)");
    if (rounds < 1) throw InputError("calibrate: --rounds: expected an integer >= 1");
    if (min_sources < 1) throw InputError("calibrate: --min-sources: expected an integer >= 1");
    if (profile_key != "version" && profile_key != "framework")
      throw InputError("calibrate: --profile-key '" + profile_key + "': expected version or framework");
    co.rows.key_by_version = profile_key == "version";
    co.fit.optimizer.rounds = rounds;
    co.fit.min_sources = min_sources;
    co.latency = latency;
    co.rows.target = csv_paths;
    if (!framework.empty()) {
      const auto at = framework.find('@');
      co.rows.framework = framework.substr(0, at);
      co.rows.version = at == std::string::npos ? "" : framework.substr(at + 1);
      if (co.rows.framework.empty())
        throw InputError("calibrate: --framework '" + framework + "': expected NAME[@VERSION]");
    }
    if (!folds_raw.empty()) {
      co.folds.clear();
      for (const std::string& f : split_names(folds_raw)) {
        if (f == "all") {
          co.folds = calibration::all_folds();
          continue;
        }
        calibration::FoldKind k;
        if (!calibration::parse_fold(f, k))
          throw InputError("calibrate: --folds '" + f +
                           "': expected in-sample, source, family, framework-version or all");
        co.folds.push_back(k);
      }
    }
    co.bands = !bands_path.empty();
    if (co.bands && latency != "calibrated")
      throw InputError(
          "calibrate: --bands scores latency/calibrated only (latency/" + latency +
          "'s tables are built from measured rows: a held-out source's rows would still be in them)");
    std::vector<std::string> every = csv_paths;
    every.insert(every.end(), co.rows.extra.begin(), co.rows.extra.end());
    for (const std::string& path : every)
      if (!std::filesystem::exists(path)) throw InputError("calibrate: " + path + ": no such file");
    co.rows.data_root = std::filesystem::path(default_scenario_path(common.load_options()))
                            .parent_path()
                            .parent_path()
                            .string();
    if (!common.quiet) co.on_fold = [](const std::string& s) { std::cerr << "calibrate: " << s << "\n"; };

    const std::string command = command_line("calibrate", args);
    // No output may replace a file the command reads (core/inputs_read.hpp): the files it names
    // are noted before the outputs are added, the alias table, model and machine files the
    // rows are read through are checked once they are read (before any fit).
    for (const std::string& p : csv_paths) note_input_file(p, "CSV");
    for (const std::string& p : co.rows.extra) note_input_file(p, "--extra");
    note_input_file(co.rows.aliases, "--aliases");
    note_input_file(co.rows.machine, "--machine");
    Outputs outputs;
    OutputFile* json = outputs.add("--json", common.json);
    OutputFile* out = outputs.add("--out", out_path);
    OutputFile* bands = outputs.add("--bands", bands_path);
    co.on_inputs = [&outputs](const std::vector<std::string>&) { outputs.refuse_inputs_read(); };
    PluginRegistry registry(common.plugin_paths, true, common.plugin_overrides);
    const calibration::Calibration c = calibration::calibrate(registry, co);
    if (json) json->stream() << calibration::calibration_json(c, command, provenance_json(registry));
    if (out) out->stream() << calibration::family_blocks_yaml(c);
    if (bands) bands->stream() << calibration::bands_csv(c, command, provenance_comment(registry));
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
