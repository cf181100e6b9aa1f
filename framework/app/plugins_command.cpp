// `tessera plugins`: the loaded plugins, their parameter schemas, and why any library failed
// to load. A readable table by default; `--json` for tools.
#include <spdlog/spdlog.h>

#include <boost/program_options.hpp>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "common_options.hpp"
#include "core/text/safe_text.hpp"
#include "exit_codes.hpp"
#include "report/text/text_table.hpp"
#include "studies/entries/plugins_entry.hpp"

namespace tessera::cli {
namespace {

constexpr const char* kPluginsUsage =
    "Usage: tessera plugins [--kind KIND] [--json] [--plugin-path DIR]... [-v|-q]\n"
    "\n"
    "Lists the plugins found in the search path with their parameter schemas (name, type,\n"
    "unit, default, range or choices, help), then every library that failed to load and why.\n"
    "Search order: --plugin-path folders, TESSERA_PLUGIN_PATH (':'-separated), the build\n"
    "tree's plugin folder (only for the tessera of that build tree), <dir of\n"
    "tessera>/../lib/tessera/plugins.\n"
    "\n"
    "Exit status 1 when any library of the search path failed to load: the listing is printed\n"
    "all the same, and each failure is written to stderr too. 2 for a bad option.\n";

constexpr const char* kPluginsExamples =
    "\nExamples:\n"
    "  tessera plugins --kind latency\n"
    "  tessera plugins --plugin-path docs/examples/out-of-tree-plugin/build\n"
    "  tessera plugins --json | jq -r '.[] | .id'\n";

// A table of left-aligned text columns.
TextTable text_table(std::vector<std::string> headers, TextTable::Header header) {
  std::vector<TextTable::Align> align(headers.size(), TextTable::Align::left);
  return TextTable(std::move(headers), std::move(align), header);
}

std::string range_or_choices(const ParamSpec& s) {
  if (s.type == ParamType::enumeration) {
    std::string c;
    for (std::uint32_t i = 0; i < s.choice_count; ++i)
      c += (i ? " | " : "") + std::string(s.choices[i].value);
    // Long lists would push the help text off the screen; they are listed under the table.
    return display_width(c) <= 40 ? c : std::to_string(s.choice_count) + " choices (below)";
  }
  return studies::param_range(s);
}

void print_params(std::ostream& os, const ParamSpec* specs, std::uint32_t count) {
  TextTable rows =
      text_table({"NAME", "TYPE", "UNIT", "DEFAULT", "RANGE / CHOICES", "HELP"}, TextTable::Header::plain);
  TextTable meanings = text_table({"CHOICE", "MEANING"}, TextTable::Header::none);  // under the table
  for (std::uint32_t i = 0; i < count; ++i) {
    const ParamSpec& s = specs[i];
    rows.add_row({s.name, param_type_name(s.type), studies::param_unit_text(s),
                  s.default_value ? s.default_value : "(required)", range_or_choices(s),
                  s.help ? s.help : ""});
    if (s.type == ParamType::enumeration)
      for (std::uint32_t c = 0; c < s.choice_count; ++c)
        meanings.add_row({std::string(s.name) + " = " + s.choices[c].value,
                          s.choices[c].meaning ? s.choices[c].meaning : ""});
  }
  rows.print(os, "    ");
  if (meanings.rows() > 0) {
    os << "    choices:\n";
    meanings.print(os, "      ");
  }
}

void print_text(std::ostream& os, const PluginRegistry& reg,
                const std::vector<const LoadedPlugin*>& plugins) {
  if (plugins.empty()) {
    os << "No plugins found.\n";
  } else {
    TextTable rows = text_table({"KIND", "NAME", "VERSION", "SUMMARY"}, TextTable::Header::plain);
    for (const LoadedPlugin* p : plugins) {
      const PluginDescriptor& d = *p->descriptor;
      rows.add_row({plugin_kind_name(d.kind), d.name, d.version, d.summary});
    }
    rows.print(os);
  }
  for (const LoadedPlugin* p : plugins) {
    const PluginDescriptor& d = *p->descriptor;
    os << '\n' << p->id() << ' ' << d.version << " — " << d.summary << '\n';
    os << "  library: " << p->path << '\n';
    if (d.param_count == 0) {
      os << "  parameters: none\n";
    } else {
      os << "  parameters (plugins: {" << plugin_kind_name(d.kind) << ": {name: " << d.name << ", ...}}):\n";
      print_params(os, d.params, d.param_count);
    }
    if (d.machine_param_count > 0) {
      const std::string key = studies::machine_block_key(d);
      os << "  machine parameters (the machine file's `plugins: {" << d.name << ": {...}}` block"
         << (key.empty() ? "" : ", or `" + key + ":`") << "):\n";
      print_params(os, d.machine_params, d.machine_param_count);
    }
    if (const std::string fb = studies::fallback_name(d); !fb.empty())
      os << "  falls back on latency/" << fb << " (created from the parameters both declare; its machine "
         << "block when this plugin has none)\n";
  }
  if (!reg.failures().empty()) {
    os << "\nLibraries that failed to load (" << reg.failures().size() << "):\n";
    for (const auto& f : reg.failures()) os << "  " << f.message << '\n';  // each names its library
  }
  os << "\nSearched:";
  if (reg.search_path().empty()) os << " nothing";
  for (const auto& dir : reg.search_path()) {
    std::error_code ec;
    os << "\n  " << dir << (std::filesystem::is_directory(dir, ec) ? "" : "  (does not exist)");
  }
  os << '\n';
}

}  // namespace

int plugins_command(const Args& args) {
  return run_guarded([&]() -> int {
    CommonOptions common;
    std::string kind_text;
    bool json = false;
    po::options_description options("Options");
    options.add_options()("kind", po::value<std::string>(&kind_text)->value_name("KIND"),
                          "only plugins of this kind: latency, memory, search or objective")(
        "json", po::bool_switch(&json), "print a JSON array instead of tables (load failures go to stderr)");
    add_common_options(options, common, kOptPluginPath | kOptVerbosity | kOptHelp | kOptLimits);
    const po::variables_map vm = parse_command_line(args, options, {}, common);  // logs to stderr
    if (common.help) {
      print_help(std::cout, kPluginsUsage, options, kPluginsExamples);
      return kExitOk;
    }
    std::optional<PluginKind> kind;
    if (vm.count("kind")) kind = studies::plugin_kind(kind_text);

    PluginRegistry registry(common.plugin_paths, true, common.plugin_overrides);
    {
      // The table lists load failures itself; with --json they are the warnings on stderr.
      const auto level = spdlog::default_logger()->level();
      if (!json && level < spdlog::level::err) spdlog::default_logger()->set_level(spdlog::level::err);
      registry.discover();
      spdlog::default_logger()->set_level(level);
    }
    const studies::PluginsResult shown = studies::plugins(registry, kind);
    if (json)
      std::cout << shown.document.dump(2) << '\n';
    else {
      std::ostringstream text;
      print_text(text, registry, shown.plugins);
      std::cout << printable_lines(text.str());
    }
    std::cout.flush();
    // A library that failed to load is a failure of this command (exit 1), on stderr in both
    // modes: with --json each was already logged there as it failed.
    const auto& failures = registry.failures();
    if (failures.empty()) return kExitOk;
    if (!json)
      for (const auto& f : failures) std::cerr << "error: " << printable_message(f.message) << '\n';
    std::cerr << "error: " << failures.size() << (failures.size() == 1 ? " library" : " libraries")
              << " failed to load\n";
    return kExitFailed;
  });
}

}  // namespace tessera::cli
