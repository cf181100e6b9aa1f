// `tessera sensitivity SCENARIO --parallelism | --hardware`: one-knob sweeps from the best
// config (docs/specification.md §5).
#include <boost/program_options.hpp>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/sensitivity.hpp"
#include "commands.hpp"
#include "common_options.hpp"
#include "eval/search_driver.hpp"
#include "eval/session.hpp"
#include "exit_codes.hpp"
#include "host/plugin_registry.hpp"
#include "output_files.hpp"
#include "progress_bar.hpp"
#include "report/json_number.hpp"
#include "report/search_report.hpp"
#include "report/text_table.hpp"
#include "scenario/scenario_loader.hpp"
#include "tessera/error.hpp"
#include "tessera/units.hpp"
#include "tessera/version.hpp"
#include "work_report.hpp"

namespace tessera::cli {
namespace {

constexpr const char* kUsage =
    "Usage: tessera sensitivity [SCENARIO] (--parallelism | --hardware | both) [options]\n"
    "\n"
    "Finds the best config with the scenario's search, then\n"
    "  --parallelism  varies one of cp, tp, pp, dp, ep at a time over the seed's value lists,\n"
    "                 the others fixed: latency, feasibility and the reason when not feasible;\n"
    "  --hardware     for each hardware knob (HBM bandwidth and capacity, peak FLOP/s of the GEMM\n"
    "                 format, each level's link bandwidth and latency, stage overhead) the\n"
    "                 elasticity d ln(latency)/d ln(knob) by central difference (±10 %), with the\n"
    "                 parallelism fixed and re-optimised, ranked by |elasticity|.\n";

constexpr const char* kExamples =
    "\nExamples:\n"
    "  tessera sensitivity scenarios/llama3.1-70b-decode-128k.yaml --parallelism\n"
    "  tessera sensitivity scenarios/llama3.1-70b-decode-128k.yaml --hardware --json out/hw.json\n";

}  // namespace

nlohmann::json hardware_json(const std::vector<HardwareElasticity>& hw) {
  nlohmann::json a = nlohmann::json::array();
  for (std::size_t i = 0; i < hw.size(); ++i) {
    const auto& h = hw[i];
    a.push_back({{"rank", i + 1},
                 {"knob", h.path},
                 {"label", h.label},
                 {"value_si", h.value},
                 {"unit", si_unit(h.dimension)},
                 {"elasticity_fixed", json_number(h.elasticity_fixed)},
                 {"elasticity_reoptimised", json_number(h.elasticity_reopt)},
                 {"latency_minus_fixed_s", json_number(h.latency_minus_fixed)},
                 {"latency_plus_fixed_s", json_number(h.latency_plus_fixed)},
                 {"latency_minus_reoptimised_s", json_number(h.latency_minus_reopt)},
                 {"latency_plus_reoptimised_s", json_number(h.latency_plus_reopt)},
                 {"note", h.note}});
  }
  return a;
}

void print_hardware(std::ostream& os, const std::vector<HardwareElasticity>& hw) {
  TextTable t({"#", "knob", "value", "elasticity (fixed)", "elasticity (re-optimised)", "note"},
              {TextTable::Align::right, TextTable::Align::left, TextTable::Align::right,
               TextTable::Align::right, TextTable::Align::right, TextTable::Align::left});
  std::size_t i = 0;
  for (const auto& h : hw)
    t.add_row({std::to_string(++i), h.label, format_quantity(h.value, h.dimension),
               std::isfinite(h.elasticity_fixed) ? fixed(h.elasticity_fixed, 3) : "—",
               std::isfinite(h.elasticity_reopt) ? fixed(h.elasticity_reopt, 3) : "—", h.note});
  t.print(os, "  ");
}

int sensitivity_command(const Args& args) {
  return run_guarded([&]() -> int {
    CommonOptions common;
    po::options_description desc("Options");
    add_common_options(
        desc, common,
        kOptSet | kOptPluginPath | kOptVerbosity | kOptJson | kOptModelMachine | kOptHelp | kOptLimits);
    std::string scenario_path;
    bool par = false, hw = false;
    std::string threads_text;
    desc.add_options()("scenario", po::value<std::string>(&scenario_path), "scenario file")(
        "parallelism", po::bool_switch(&par), "one-knob parallelism sweeps")("hardware", po::bool_switch(&hw),
                                                                             "hardware elasticities")(
        "threads,j", po::value<std::string>(&threads_text)->value_name("N"),
        "evaluation threads (default: all hardware threads)");
    po::positional_options_description pos;
    pos.add("scenario", 1);
    parse_command_line(args, desc, pos, common);
    if (common.help) {
      print_help(std::cout, kUsage, desc, kExamples);
      return kExitOk;
    }
    if (!par && !hw) par = hw = true;
    const unsigned threads = parse_threads(threads_text);
    const LoadOptions lo = common.load_options();
    if (scenario_path.empty()) scenario_path = default_scenario_path(lo);
    const Scenario scenario = load_scenario(scenario_path, lo);
    PluginRegistry registry(common.plugin_paths);
    Session session(scenario, registry);
    const auto strategy = registry.create_search(scenario.plugins.search);
    Outputs outputs;
    OutputFile* json = outputs.add("--json", common.json);
    // The scenario's machine, then (--hardware) two perturbations of each hardware knob.
    StudyShape shape;
    if (hw) shape.machines = 1 + 2 * static_cast<std::uint64_t>(hardware_knobs(session).size());
    plan_study(std::cerr, scenario, registry, "sensitivity", shape, threads, common.quiet);
    ProgressBar bar(!common.quiet);
    SearchOptions so;
    so.threads = threads;
    so.on_progress = bar.callback();
    so.top = 1;
    const SearchResult result = run_search(session, *strategy, so);
    if (!result.best)
      throw Error("no feasible configuration in scenario " + scenario.name + ": nothing to perturb");
    const ConfigRecord& best = result.records[*result.best];
    const bool text = !outputs.stdout_taken();
    nlohmann::json j;
    j["scenario"] = scenario.name;
    j["version"] = kVersion;
    j["best"] = record_json(session, result.objectives, best);
    if (text) {
      print_scenario_header(std::cout, session);
      std::cout << "best       " << short_config(session.machine(), best.config) << ", latency "
                << format_quantity(best.latency_s, Dimension::time) << "\n";
    }
    if (par) {
      const auto sweeps = parallelism_sensitivity(session, best.config);
      nlohmann::json a = nlohmann::json::array();
      for (const auto& k : sweeps) {
        nlohmann::json rows = nlohmann::json::array();
        for (std::size_t i = 0; i < k.values.size(); ++i) {
          const auto& r = k.records[i];
          rows.push_back(
              {{"value", k.values[i]},
               {"latency_s", r.feasible ? json_number(r.latency_s) : nlohmann::json(nullptr)},
               {"latency_if_it_fit_s", r.valid ? json_number(r.latency_s) : nlohmann::json(nullptr)},
               {"feasible", r.feasible},
               {"fits_memory", r.fits_memory},
               {"placement_valid", r.placement_valid},
               {"reason", r.reason}});
        }
        a.push_back({{"knob", k.knob}, {"baseline", k.baseline}, {"values", rows}});
        if (text) {
          std::cout << "\n" << k.knob << " (best " << k.baseline << ")\n";
          TextTable t({k.knob, "latency", "vs best", "feasible", "reason"},
                      {TextTable::Align::right, TextTable::Align::right, TextTable::Align::right,
                       TextTable::Align::left, TextTable::Align::left});
          for (std::size_t i = 0; i < k.values.size(); ++i) {
            const auto& r = k.records[i];
            t.add_row({std::to_string(k.values[i]),
                       r.valid ? format_quantity(r.latency_s, Dimension::time) : "—",
                       r.valid ? fixed(r.latency_s / best.latency_s, 3) + "×" : "—",
                       r.feasible ? "yes" : "no", r.reason});
          }
          t.print(std::cout, "  ");
        }
      }
      j["parallelism"] = a;
    }
    if (hw) {
      const auto h = hardware_sensitivity(session, *strategy, best.config, so);
      j["hardware"] = hardware_json(h);
      if (text) {
        std::cout << "\nhardware elasticities d ln(latency)/d ln(knob), ±10 %, ranked by |re-optimised|\n";
        print_hardware(std::cout, h);
      }
    }
    if (json) json->stream() << j.dump(2) << "\n";
    outputs.commit_all();
    return kExitOk;
  });
}

}  // namespace tessera::cli
