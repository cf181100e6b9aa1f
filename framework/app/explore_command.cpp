// `tessera explore SCENARIO`: joint hardware × parallelism exploration (SPEC §5): for each
// point of the sweep.hardware grid the best parallelism (the scenario's search), the
// latency/cost Pareto frontier, and the hardware sensitivity ranking.
#include <boost/program_options.hpp>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/pareto.hpp"
#include "analysis/sensitivity.hpp"
#include "commands.hpp"
#include "common_options.hpp"
#include "eval/search_driver.hpp"
#include "eval/session.hpp"
#include "exit_codes.hpp"
#include "host/plugin_registry.hpp"
#include "output_files.hpp"
#include "progress_bar.hpp"
#include "report/search_report.hpp"
#include "report/text_table.hpp"
#include "scenario/hardware_points.hpp"
#include "scenario/scenario_loader.hpp"
#include "scenario/sweep_size.hpp"
#include "tessera/error.hpp"
#include "tessera/units.hpp"
#include "work_report.hpp"

namespace tessera::cli {

nlohmann::json hardware_json(const std::vector<HardwareElasticity>& hw);  // sensitivity_command.cpp
void print_hardware(std::ostream& os, const std::vector<HardwareElasticity>& hw);

namespace {

constexpr const char* kUsage =
    "Usage: tessera explore [SCENARIO] [options]\n"
    "\n"
    "For every point of the scenario's sweep.hardware grid (the product of its axes), finds the\n"
    "best parallelism with the scenario's search plugin (plugins.search: exhaustive, two_stage, random;\n"
    "the table's `evaluated` column says how many configurations it scored per point), prices the\n"
    "machine with objective/cost (the scenario's, or one with default parameters), prints the\n"
    "Pareto frontier over latency and cost, and ranks the hardware knobs by latency elasticity at\n"
    "the scenario's own machine.\n";

constexpr const char* kExamples =
    "\nExamples:\n"
    "  tessera explore scenarios/llama3.1-70b-hbm-vs-links-explore.yaml\n"
    "  tessera explore scenarios/llama3.1-70b-hbm-vs-links-explore.yaml --json out/explore.json\n";

struct Point {
  std::vector<double> values;
  SearchCounts counts;  // what the search evaluated at this point
  bool feasible = false;
  ConfigRecord best;
  double cost = NAN;
};

nlohmann::json num(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

}  // namespace

int explore_command(const Args& args) {
  return run_guarded([&]() -> int {
    CommonOptions common;
    po::options_description desc("Options");
    add_common_options(
        desc, common,
        kOptSet | kOptPluginPath | kOptVerbosity | kOptJson | kOptModelMachine | kOptHelp | kOptLimits);
    std::string scenario_path;
    std::string threads_text;
    bool no_sensitivity = false;
    desc.add_options()("scenario", po::value<std::string>(&scenario_path), "scenario file")(
        "threads,j", po::value<std::string>(&threads_text)->value_name("N"),
        "evaluation threads (default: all hardware threads); the results are the same for every count")(
        "no-sensitivity", po::bool_switch(&no_sensitivity), "skip the hardware sensitivity ranking");
    po::positional_options_description pos;
    pos.add("scenario", 1);
    parse_command_line(args, desc, pos, common);
    if (common.help) {
      print_help(std::cout, kUsage, desc, kExamples);
      return kExitOk;
    }
    const unsigned threads = parse_threads(threads_text);
    const LoadOptions lo = common.load_options();
    if (scenario_path.empty()) scenario_path = default_scenario_path(lo);
    const Scenario scenario = load_scenario(scenario_path, lo);
    PluginRegistry registry(common.plugin_paths);
    Session session(scenario, registry);
    const auto strategy = registry.create_search(scenario.plugins.search);
    // The cost objective: the scenario's when listed (its parameters), else the defaults.
    std::shared_ptr<Objective> cost;
    for (const auto& o : scenario.plugins.objectives)
      if (o.name == "cost") cost = registry.create_objective(o);
    if (!cost) {
      PluginChoice c;
      c.name = "cost";
      cost = registry.create_objective(c);
    }
    Outputs outputs;
    OutputFile* json = outputs.add("--json", common.json);
    // Every hardware point, then (unless --no-sensitivity) the scenario's machine and two
    // perturbations of each hardware knob.
    StudyShape shape;
    shape.machines = sweep_hardware_points(scenario.sweep);
    if (!no_sensitivity)
      shape.machines = saturating_size_mul(2, hardware_knobs(session).size()) + 1 + shape.machines;
    plan_study(std::cerr, scenario, registry, "explore", shape, threads, common.quiet);
    ProgressBar bar(!common.quiet);
    SearchOptions so;
    so.threads = threads;
    // No on_progress: the progress is over the hardware points.
    so.top = 1;

    const auto& axes = scenario.sweep.hardware;
    std::vector<Point> points;
    Evaluation scratch;
    const std::uint64_t total_points = sweep_hardware_points(scenario.sweep);
    const ProgressCallback progress = bar.callback();
    report_progress(progress, 0, total_points, "hardware points");
    for (std::uint64_t i = 0; i < total_points; ++i) {
      const HardwarePoint hp = hardware_point(scenario.sweep, session.machine(), i);
      Point p;
      p.values = hp.values;
      const auto s = session.with_machine(hp.machine);
      const SearchResult r = run_search(*s, *strategy, so);
      p.counts = r.counts;
      if (r.best) {
        p.feasible = true;
        p.best = r.records[*r.best];
        s->evaluator().evaluate(p.best.config, scratch);
        p.cost = cost->evaluate(s->context(), p.best.config, scratch.totals, scratch.memory);
      }
      points.push_back(std::move(p));
      report_progress(progress, points.size(), total_points, "hardware points");
    }
    std::vector<double> vals;
    std::vector<bool> feas_v;
    for (const auto& p : points) {
      vals.push_back(p.feasible ? p.best.latency_s : NAN);
      vals.push_back(p.cost);
    }
    const std::vector<Direction> dirs{Direction::minimize, Direction::minimize};
    const auto front = pareto_front(vals, 2, dirs);

    std::vector<HardwareElasticity> hw;
    if (!no_sensitivity) {
      so.on_progress = progress;
      const SearchResult base = run_search(session, *strategy, so);
      if (base.best) hw = hardware_sensitivity(session, *strategy, base.records[*base.best].config, so);
    }

    nlohmann::json j;
    j["scenario"] = scenario.name;
    j["search"] = scenario.plugins.search.name;
    nlohmann::json ax = nlohmann::json::array();
    for (const auto& a : axes)
      ax.push_back({{"path", a.path}, {"unit", si_unit(a.dimension)}, {"values", a.values}});
    j["axes"] = ax;
    nlohmann::json pts = nlohmann::json::array();
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto& p = points[i];
      nlohmann::json hwv = nlohmann::json::object();
      for (std::size_t a = 0; a < axes.size(); ++a) hwv[axes[a].path] = p.values[a];
      nlohmann::json e{{"hardware", hwv},
                       {"feasible", p.feasible},
                       {"cost_USD", num(p.cost)},
                       {"search", {{"evaluated", p.counts.evaluated}, {"valid", p.counts.valid}}},
                       {"pareto", std::find(front.begin(), front.end(), i) != front.end()}};
      if (p.feasible) e["best"] = record_json(session, session.evaluator().objectives(), p.best);
      pts.push_back(e);
    }
    j["points"] = pts;
    j["pareto"] = front;
    j["hardware_sensitivity"] = hardware_json(hw);

    if (!outputs.stdout_taken()) {
      print_scenario_header(std::cout, session);
      std::cout << "hardware grid: " << points.size() << " points over " << axes.size() << " axes; search "
                << scenario.plugins.search.name << " at each (evaluated = configurations it scored)\n\n";
      std::vector<std::string> head{"#"};
      for (const auto& a : axes) head.push_back(a.path.substr(a.path.find('.') + 1));
      for (const char* h : {"best config", "latency", "cost", "evaluated", "Pareto"}) head.push_back(h);
      TextTable t(head);
      for (std::size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        std::vector<std::string> row{std::to_string(i + 1)};
        for (std::size_t a = 0; a < axes.size(); ++a)
          row.push_back(format_quantity(p.values[a], axes[a].dimension));
        row.push_back(p.feasible ? short_config(session.machine(), p.best.config) : "nothing feasible");
        row.push_back(p.feasible ? format_quantity(p.best.latency_s, Dimension::time) : "—");
        row.push_back(std::isfinite(p.cost) ? fixed(p.cost / 1e3, 1) + " kUSD" : "—");
        row.push_back(std::to_string(p.counts.evaluated) + "/" + std::to_string(p.counts.valid));
        row.push_back(std::find(front.begin(), front.end(), i) != front.end() ? "*" : "");
        t.add_row(row);
      }
      t.print(std::cout, "  ");
      if (!hw.empty()) {
        std::cout << "\nhardware elasticities at the scenario's machine, ranked by |re-optimised|\n";
        print_hardware(std::cout, hw);
      }
    }
    if (json) json->stream() << j.dump(2) << "\n";
    outputs.commit_all();
    return kExitOk;
  });
}

}  // namespace tessera::cli
