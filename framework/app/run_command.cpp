// `tessera run [SCENARIO]`: search the parallelism space of a scenario; counts, the best
// config, the Pareto frontier and the top N as tables; --json / --csv reports.
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include "commands.hpp"
#include "common_options.hpp"
#include "eval/search_driver.hpp"
#include "eval/session.hpp"
#include "exit_codes.hpp"
#include "host/plugin_registry.hpp"
#include "report/search_report.hpp"
#include "scenario/scenario_loader.hpp"
#include "tessera/error.hpp"
#include "work_report.hpp"

namespace tessera::cli {
namespace {

constexpr const char* kUsage =
    "Usage: tessera run [SCENARIO] [options]\n"
    "\n"
    "Searches the scenario's parallelism sweep with its search plugin, evaluates each config\n"
    "with its latency and memory plugins, and prints the counts (enumerated grid points, valid\n"
    "canonical configs, feasible = valid and fitting memory among the evaluated, evaluated), the\n"
    "best config by the first objective, the Pareto frontier over all objectives and the top N.\n"
    "With no SCENARIO, the default scenario (Llama-3.1-70B decode at 128K on the cube machine).\n";

constexpr const char* kExamples =
    "\nExamples:\n"
    "  tessera run\n"
    "  tessera run scenarios/llama3.1-70b-decode-128k.yaml --set workload.batch=8 --top 10\n"
    "  tessera run scenarios/llama3.1-70b-decode-128k.yaml --set plugins.search=two_stage --json - | jq "
    ".best\n"
    "  tessera run my.yaml --csv out/all.csv --json out/summary.json --threads 4\n";

// `--csv` rows written as the search produces them (the search keeps no per-config records):
// into PATH.tmp, renamed to PATH once the run has succeeded and removed if it fails, as
// write_output_file does for whole files; '-' streams to stdout.
class CsvStream {
 public:
  explicit CsvStream(const std::string& path) : path_(path) {
    if (path_ == "-") return;
    namespace fs = std::filesystem;
    const fs::path target(path_);
    std::error_code ec;
    if (target.has_parent_path()) {
      fs::create_directories(target.parent_path(), ec);
      if (ec)
        throw Error("cannot create the folder '" + target.parent_path().string() + "' for " + path_ + ": " +
                    ec.message());
    }
    tmp_ = path_ + ".tmp";
    file_.open(tmp_, std::ios::binary | std::ios::trunc);
    if (!file_) throw Error("cannot write '" + tmp_ + "' (for " + path_ + ")");
  }
  CsvStream(const CsvStream&) = delete;
  CsvStream& operator=(const CsvStream&) = delete;
  ~CsvStream() {
    if (tmp_.empty() || committed_) return;
    file_.close();
    std::error_code ignore;
    std::filesystem::remove(tmp_, ignore);
  }
  std::ostream& out() { return path_ == "-" ? std::cout : file_; }
  void commit() {
    out().flush();
    if (!out())
      throw Error(path_ == "-" ? std::string("cannot write to stdout")
                               : "cannot write '" + tmp_ + "' (for " + path_ + "): write failed");
    if (tmp_.empty()) return;
    file_.close();
    std::error_code ec;
    std::filesystem::rename(tmp_, path_, ec);
    if (ec) throw Error("cannot rename '" + tmp_ + "' to '" + path_ + "': " + ec.message());
    committed_ = true;
  }

 private:
  std::string path_, tmp_;
  std::ofstream file_;
  bool committed_ = false;
};

}  // namespace

int run_command(const Args& args) {
  return run_guarded([&]() -> int {
    CommonOptions common;
    po::options_description desc("Options");
    add_common_options(desc, common, kOptAll);
    std::string scenario_path;
    std::string threads_text, top_text;
    desc.add_options()("scenario", po::value<std::string>(&scenario_path), "scenario file")(
        "threads,j", po::value<std::string>(&threads_text)->value_name("N"),
        "evaluation threads (default: all hardware threads); the results are the same for every count")(
        "top", po::value<std::string>(&top_text)->value_name("N"),
        "rows of the top-N table (default: the scenario's report.top, 20)");
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
    registry.discover();
    Session session(scenario, registry);
    const auto strategy = registry.create_search(scenario.plugins.search);
    SearchOptions so;
    so.threads = threads;
    so.progress = !common.quiet;
    so.top = parse_top(top_text, scenario.report.top);
    plan_study(std::cerr, scenario, registry, "run", StudyShape{}, threads, common.quiet);
    const std::string json_path = !common.json.empty() ? common.json : scenario.report.json;
    const std::string csv_path = !common.csv.empty() ? common.csv : scenario.report.csv;
    // Every row, in evaluation order (the space's order for exhaustive and random), as it comes.
    std::unique_ptr<CsvStream> csv;
    if (!csv_path.empty()) {
      csv = std::make_unique<CsvStream>(csv_path);
      write_search_csv_header(csv->out(), session, session.evaluator().objectives());
      so.on_record = [&](const ConfigRecord& r) {
        write_search_csv_row(csv->out(), session, session.evaluator().objectives(), r);
      };
    }
    const SearchResult result = run_search(session, *strategy, so);
    if (csv) csv->commit();

    const bool stdout_taken = json_path == "-" || csv_path == "-";
    if (!common.quiet && !stdout_taken) print_search_text(std::cout, session, result);
    if (!json_path.empty()) write_output_file(json_path, search_json(session, result).dump(2) + "\n");
    return kExitOk;
  });
}

}  // namespace tessera::cli
