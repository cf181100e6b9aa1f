#include "checkpoint_option.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>
#include <vector>

#include "core/sha256.hpp"
#include "core/text/inputs_read.hpp"
#include "studies/json/provenance.hpp"
#include "studies/plugin_isolation.hpp"
#include "tessera/error.hpp"

namespace tessera::cli {
namespace {

// Options left out of the identity with their value: they change how a study runs or where
// it writes, not what it computes.
const std::set<std::string> kDropWithValue = {"--checkpoint", "--resume", "--checkpoint-every",
                                              "--threads",    "-j",       "--width"};
const std::set<std::string> kDropAlone = {
    "-q", "--quiet", "-v", "-vv", "-vvv", "--verbose", "--isolate-plugins", "--no-isolate", "--no-plot"};
// Limits on how long plugin code may take (--limit NAME=N): they stop a study, never change it.
const std::set<std::string> kTimeLimits = {"plugin.unit_seconds", "plugin.probe_seconds"};
// Outputs: whether one is asked for is part of the identity (a checkpoint holds the rows of
// --csv only when it was asked for), not where it goes.
const std::set<std::string> kOutputs = {"--json", "--csv", "--html", "--vega", "--png", "--deploy"};
const std::set<std::string> kCheckpointOptions = {"--checkpoint", "--resume", "--checkpoint-every"};

// An option as written (before any '='), with an abbreviation Boost would accept (a unique
// prefix of one of the names below) taken as the name it stands for.
std::string option_name(const std::string& a) {
  const std::string name = a.substr(0, a.find('='));
  if (name.size() < 3 || name.rfind("--", 0) != 0) return name;
  std::string found;
  for (const auto* names : {&kDropWithValue, &kDropAlone, &kOutputs, &kCheckpointOptions})
    for (const std::string& n : *names) {
      if (n == name) return name;
      if (n.rfind(name, 0) == 0 && n != found) found = found.empty() ? n : "?";
    }
  return found.empty() || found == "?" ? name : found;
}

// Grouped short switches that are all left out of the identity: -q and -v, and -j with its
// value attached or next ("-qj2", "-qj").
bool grouped_quiet_threads(const std::string& a) {
  if (a.size() < 3 || a[0] != '-' || a[1] == '-') return false;
  for (std::size_t k = 1; k < a.size(); ++k) {
    if (a[k] == 'q' || a[k] == 'v') continue;
    if (a[k] == 'j') return a.find_first_not_of("0123456789", k + 1) == std::string::npos;
    return false;
  }
  return true;
}

// The SHA-256 of the running executable and of the library holding Tessera's engine: two
// builds of one commit (an uncommitted change) are two studies.
std::vector<std::string> build_lines() {
  std::vector<std::string> lines;
  const auto exe = file_sha256_cached("/proc/self/exe");
  lines.push_back("executable sha256 " + (exe ? *exe : std::string("unreadable")));
  Dl_info info{};
  if (::dladdr(reinterpret_cast<const void*>(&sha256_hex), &info) != 0 && info.dli_fname) {
    const auto lib = file_sha256_cached(info.dli_fname);
    lines.push_back("library " + std::filesystem::path(info.dli_fname).filename().string() + " sha256 " +
                    (lib ? *lib : std::string("unreadable")));
  }
  return lines;
}

[[noreturn]] void refuse(const std::string& option, const std::string& path, const std::string& what) {
  throw InputErrors({Diagnostic{SourceLocation{"<command line>", 0, 0}, option + " " + path + ": " + what}});
}

std::string identity(const std::string& study, const Args& args, const std::string& scenario_path,
                     const PluginRegistry& registry) {
  std::ostringstream id;
  // Tessera's build and every plugin library: "# tessera ..." and "# plugin ..." lines.
  std::istringstream prov(provenance_comment(registry));
  for (std::string line; std::getline(prov, line);) id << line.substr(2) << "\n";
  for (const std::string& line : build_lines()) id << line << "\n";
  id << "study " << study << "\n";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const std::string name = option_name(a);
    const bool joined = a.find('=') != std::string::npos;
    if (kDropWithValue.count(name)) {
      if (!joined) ++i;
      continue;
    }
    if (name == "--limit") {
      const std::string value = joined ? a.substr(a.find('=') + 1) : (i + 1 < args.size() ? args[i + 1] : "");
      if (kTimeLimits.count(value.substr(0, value.find('=')))) {
        if (!joined) ++i;
        continue;
      }
    }
    if (kDropAlone.count(name) || a == scenario_path || (a.rfind("-j", 0) == 0 && a.size() > 2)) continue;
    if (grouped_quiet_threads(a)) {  // -qj2, -qj 2, -vq: how it runs, not what it computes
      if (a.back() == 'j') ++i;
      continue;
    }
    if (kOutputs.count(name)) {
      id << "argument " << name << " (an output)\n";
      if (!joined) ++i;
      continue;
    }
    id << "argument " << (joined ? name + a.substr(a.find('=')) : a) << "\n";
  }
  // Every file read as input, by what it is, its name and its contents.
  std::vector<std::string> inputs;
  for (const InputRead& in : inputs_read_list()) {
    const auto digest = file_sha256_cached(in.path);
    inputs.push_back("input " + in.what + " " + std::filesystem::path(in.path).filename().string() +
                     " sha256 " + (digest ? *digest : std::string("unreadable")));
  }
  std::sort(inputs.begin(), inputs.end());
  for (const std::string& line : inputs) id << line << "\n";
  std::string text = id.str();
  text.pop_back();  // no empty line
  return text;
}

double parse_every(const std::string& text) {
  if (text.empty()) return kDefaultCheckpointSeconds;
  double v = NAN;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0 || v > 86400)
    refuse("--checkpoint-every", text,
           "expected seconds between records, from 0 (after every work unit) to 86400");
  return v;
}

}  // namespace

void add_checkpoint_options(po::options_description_easy_init add, CheckpointOptions& o) {
  add("checkpoint", po::value<std::string>(&o.checkpoint)->value_name("FILE"),
      "record the study's progress in FILE (a new file), so that a killed study can be resumed with "
      "--resume FILE")("resume", po::value<std::string>(&o.resume)->value_name("FILE"),
                       "resume the study FILE records (written by --checkpoint of the same scenario, "
                       "arguments and build) and go on recording in it")(
      "checkpoint-every", po::value<std::string>(&o.every)->value_name("SECONDS"),
      "seconds between checkpoint records (default 10; 0: after every work unit)");
}

std::unique_ptr<StudyCheckpoint> open_checkpoint(const CheckpointOptions& o, const std::string& study,
                                                 const Args& args, const std::string& scenario_path,
                                                 const studies::StudyContext& context, const Outputs& outputs,
                                                 const std::vector<std::string>& folders) {
  if (studies::is_unit_worker()) return nullptr;  // the parent records; a worker only computes units
  if (!o.checkpoint.empty() && !o.resume.empty())
    refuse("--resume", o.resume,
           "give --checkpoint FILE (a new study) or --resume FILE (a study to resume), not both");
  const double every = parse_every(o.every);
  const bool resuming = !o.resume.empty();
  const std::string& path = resuming ? o.resume : o.checkpoint;
  const std::string option = resuming ? "--resume" : "--checkpoint";
  if (path.empty()) {
    if (!o.every.empty()) refuse("--checkpoint-every", o.every, "needs --checkpoint FILE or --resume FILE");
    return nullptr;
  }
  if (const std::string other = outputs.written_as(path); !other.empty())
    refuse(option, path,
           "is also the command's output " + other + ": the checkpoint needs a file of its own");
  std::error_code ec;
  const std::filesystem::path at = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  for (std::size_t i = 0; i < folders.size() && !ec; ++i) {
    if (folders[i].empty()) continue;
    const std::filesystem::path dir =
        std::filesystem::weakly_canonical(std::filesystem::absolute(folders[i], ec), ec);
    const auto rel = at.lexically_relative(dir);
    if (!ec && !rel.empty() && *rel.begin() != "..")
      refuse(option, path,
             "lies in the folder " + folders[i] + " that the command writes (" +
                 (i == 0 ? "--vega" : "--png") + "): the checkpoint needs a file of its own");
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0)
    if (const auto in = input_read_as(st.st_dev, st.st_ino))
      refuse(option, path, "is the command's input " + in->path + " (" + in->what + ")");
  const std::string id = identity(study, args, scenario_path, context.registry());
  return resuming ? StudyCheckpoint::resume(path, id, every) : StudyCheckpoint::create(path, id, every);
}

void print_resume_note(const StudyCheckpoint* checkpoint, bool quiet) {
  if (checkpoint && !quiet && !checkpoint->resume_note().empty())
    std::cerr << checkpoint->resume_note() << "\n";
}

Args without_checkpoint_options(const Args& args) {
  Args out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string name = option_name(args[i]);
    if (kCheckpointOptions.count(name)) {
      if (args[i].find('=') == std::string::npos) ++i;
      continue;
    }
    out.push_back(args[i]);
  }
  return out;
}

}  // namespace tessera::cli
