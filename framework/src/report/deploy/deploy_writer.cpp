// Rendering --deploy's files (report/deploy/deploy_writer.hpp).
#include "report/deploy/deploy_writer.hpp"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "core/text/safe_text.hpp"
#include "core/text/shell_word.hpp"
#include "report/text/text_table.hpp"
#include "scenario/prefix_cache_check.hpp"
#include "scenario/serving_stacks/stack_precision.hpp"

namespace tessera {

namespace {

// The scenario file's name (not its path: the files are the same wherever the scenario lies).
std::string scenario_file(const Scenario& s) {
  return s.file.empty() ? std::string("built-in") : std::filesystem::path(s.file).filename().string();
}

std::string model_id(const Scenario& s) { return s.model_hf_id.empty() ? s.model.name : s.model_hf_id; }

std::string replace_model(std::string command, const std::string& model) {
  const std::size_t at = command.find("{model}");
  if (at != std::string::npos) command.replace(at, 7, shell_quote(model));
  return command;
}

// Copies of the command to launch: the pool's instances, times dp when the framework starts
// one instance per replica (and the configuration shares no experts across replicas).
std::int64_t instances(const ServingStackProfile& f, const DeployEntry& e) {
  const bool per_replica = !f.replicas_by_flag && !attention_dp(e.point.config);
  return e.pool_instances * (per_replica ? e.point.config.dp : 1);
}

// The scenario's prefix caching, KV offload and speculative decoding, as its launch flags see them:
// the drafter drafting `draft_tokens` (the serving point's k; -1: serving.speculative.steps).
DeployPoint cached(const Scenario& s, DeployPoint p, std::int64_t draft_tokens = -1) {
  p.dtypes = served_dtypes(s.model);
  p.prefix_caching = prefix_caching_on(s);
  for (OffloadTierKind t : s.serving.prefix_cache.offload) {
    if (t == OffloadTierKind::dram) p.offload_dram_bytes = s.machine.host_memory.dram.capacity;
    if (t == OffloadTierKind::ssd) p.offload_ssd = true;
  }
  // The pool's expert-parallel load balancer (serving.eplb, or the pool's own).
  const EplbSpec& eplb = p.role == DeployPoint::Role::aggregated
                             ? s.serving.eplb
                             : s.serving.pool_eplb(p.role == DeployPoint::Role::prefill);
  p.eplb = eplb.given;
  p.redundant_experts = eplb.given ? eplb.redundant_experts : 0;
  const SpeculativeSpec& sp = s.serving.speculative;
  if (sp.given) {
    p.spec_steps = draft_tokens >= 0 ? draft_tokens : sp.steps;
    p.spec_method = sp.method;
    p.spec_head = sp.head;
  }
  return p;
}

}  // namespace

std::vector<DeployEntry> deploy_entries(const Scenario& scenario, const ServeResult& result,
                                        const DisaggStudy* disagg, std::size_t top) {
  std::vector<DeployEntry> out;
  const MachineSpec& m = scenario.machine;
  const std::string rank = result.axes.empty() ? std::string("the ranking") : result.axes.front().name;
  for (std::size_t i = 0; i < std::min(top, result.top.size()); ++i) {
    const ServeRecord& r = result.top[i];
    DeployEntry e;
    e.label = i == 0 ? "best" : "top-" + std::to_string(i + 1);
    e.title =
        i == 0 ? "the best configuration by " + rank : "number " + std::to_string(i + 1) + " by " + rank;
    e.config = format_config(r.config, m);
    e.metrics = "tokens/s/PE " + fixed(r.tokens_per_s_per_pe, 1) + ", TTFT " +
                fixed(r.metrics.ttft_s * 1e3, 1) + " ms, TPOT " + fixed(r.metrics.tpot_s * 1e3, 2) + " ms, " +
                std::to_string(r.pes) + " PEs" +
                (r.point.speculative_tokens > 0
                     ? ", drafting k = " + std::to_string(r.point.speculative_tokens) + " (" +
                           fixed(r.point.tokens_per_verify, 2) + " tokens per verify)"
                     : std::string());
    e.point = cached(
        scenario, DeployPoint{r.config, r.point.batch, r.point.token_budget, DeployPoint::Role::aggregated},
        r.point.speculative_tokens);
    out.push_back(std::move(e));
  }
  if (disagg && disagg->result.best) {
    const DisaggPair& p = *disagg->result.best;
    const std::string pair = "tokens/s/PE " + fixed(p.tokens_per_s_per_pe, 1) + ", TTFT " +
                             fixed(p.ttft_s * 1e3, 1) + " ms, TPOT " + fixed(p.tpot_s * 1e3, 2) + " ms, " +
                             std::to_string(p.pes) + " PEs (both pools)";
    const std::int64_t isl = scenario.workload.input;
    DeployEntry pe;
    pe.label = "disagg-prefill";
    pe.title = "the disaggregated best pair's prefill pool (" + std::to_string(p.x) +
               (p.x == 1 ? " instance)" : " instances)");
    pe.config = format_config(p.prefill.config, m);
    pe.metrics = pair;
    pe.point = cached(scenario, DeployPoint{p.prefill.config, p.prefill.batch, p.prefill.batch * isl,
                                            DeployPoint::Role::prefill});
    pe.pool_instances = p.x;
    DeployEntry de;
    de.label = "disagg-decode";
    de.title = "the disaggregated best pair's decode pool (" + std::to_string(p.y) +
               (p.y == 1 ? " instance)" : " instances)");
    de.config = format_config(p.decode.config, m);
    de.metrics = pair;
    de.point = cached(
        scenario, DeployPoint{p.decode.config, p.decode.batch, p.decode.batch, DeployPoint::Role::decode});
    de.pool_instances = p.y;
    out.push_back(std::move(pe));
    out.push_back(std::move(de));
  }
  return out;
}

namespace {

// The `yaml:` entries of `flags` as the config file's lines: `key: value`, a dotted key
// (kv_cache_config.host_cache_size) as a child of its parent's mapping, children of one parent
// together where the parent first appears.
std::string yaml_options(const std::vector<LaunchFlag>& flags) {
  std::vector<std::pair<std::string, std::string>> lines;  // (key or parent, text)
  for (const LaunchFlag& lf : flags) {
    if (lf.flag->yaml.empty()) continue;
    const std::string& key = lf.flag->yaml;
    const std::string value = lf.value.empty() ? "true" : lf.value;
    const std::size_t dot = key.find('.');
    if (dot == std::string::npos) {
      lines.emplace_back(key, key + ": " + value + "\n");
      continue;
    }
    const std::string parent = key.substr(0, dot);
    const std::string child = "  " + key.substr(dot + 1) + ": " + value + "\n";
    auto it =
        std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.first == parent + "."; });
    if (it == lines.end())
      lines.emplace_back(parent + ".", parent + ":\n" + child);
    else
      it->second += child;
  }
  std::string out;
  for (const auto& l : lines) out += l.second;
  return out;
}

// The machine a deployed point runs on: a disaggregated pool's own machine when it has one.
const MachineSpec& pool_machine_of(const Scenario& s, DeployPoint::Role role) {
  if (role == DeployPoint::Role::prefill && s.serving.prefill_machine.given)
    return s.serving.prefill_machine.machine;
  if (role == DeployPoint::Role::decode && s.serving.decode_machine.given)
    return s.serving.decode_machine.machine;
  return s.machine;
}

}  // namespace

// Values on a script's command line go through shell_quote (core/text/shell_word.hpp); names in its
// `#` comments and in the README through printable_text, so that a newline cannot end a comment
// and start a command.
std::vector<DeployFile> render_deploy_entry(const Scenario& s, const DeployEntry& e) {
  const ServingStackProfile& f = s.framework.profile;
  const std::vector<LaunchFlag> flags = launch_flags(f, s.model, e.point);
  std::ostringstream sh;
  const std::string yaml_name = e.label + ".yaml";
  const std::string yaml = yaml_options(flags);
  const bool has_yaml = !yaml.empty();
  const bool per_replica = !f.replicas_by_flag && !attention_dp(e.point.config) && e.point.config.dp > 1;
  sh << "#!/bin/sh\n"
     << "# " << printable_text(e.title + " (Tessera --deploy, " + s.framework.label() + ")") << '\n'
     << "# scenario: " << printable_text(s.name + " (" + scenario_file(s) + ")") << '\n'
     << "# config: " << printable_text(e.config) << ", batch " << e.point.batch << ", token budget "
     << e.point.token_budget << '\n'
     << "# predicted: " << printable_text(e.metrics) << '\n'
     << "# instances: " << instances(f, e) << '\n';
  if (per_replica)
    sh << "# dp replicas as instances: " << e.point.config.dp << " (" << printable_text(f.title)
       << " starts one instance per data-parallel replica)\n";
  // One process group of this command spans `pes` PEs: more than a first-level unit (a node)
  // holds needs the framework's multi-node launch, which this line alone does not do.
  const MachineSpec& m = pool_machine_of(s, e.point.role);
  const std::int64_t node = m.pes_per_unit(1);
  const std::int64_t pes = per_replica ? e.point.config.pes() / e.point.config.dp : e.point.config.pes();
  if (node > 0 && pes > node)
    sh << "# nodes: one instance spans " << (pes + node - 1) / node << " x "
       << printable_text(m.levels.empty() ? std::string("unit") : m.levels[0].name) << " (" << node
       << " PEs each): start it with " << printable_text(f.title)
       << "'s multi-node launch (docs/frameworks.md \"Multi-node\"): as written it starts on one node only\n";
  for (const LaunchFlag& lf : flags)  // what no flag can say (data/frameworks.yaml `comment:`)
    if (!lf.flag->comment.empty()) sh << "# " << printable_text(lf.flag->comment) << '\n';
  sh << replace_model(f.command, model_id(s));
  for (const LaunchFlag& lf : flags) {
    if (!lf.flag->flag.empty()) {
      sh << " \\\n  " << lf.flag->flag;
      if (!lf.value.empty()) sh << ' ' << shell_quote(lf.value);
    }
  }
  if (has_yaml) sh << " \\\n  " << f.config_flag << ' ' << yaml_name;
  sh << '\n';
  std::vector<DeployFile> out{{e.label + ".sh", sh.str()}};
  if (has_yaml)
    out.push_back({yaml_name, "# " + printable_text(f.title + " " + s.framework.version().version) +
                                  " options for " + e.label + ".sh (Tessera --deploy)\n" + yaml});
  return out;
}

std::string deploy_refusal(const Scenario& s) {
  return s.framework.set ? unwritable_precision(s.framework.profile, served_dtypes(s.model)) : std::string();
}

std::vector<DeployFile> render_deploy(const Scenario& s, const std::vector<DeployEntry>& entries) {
  std::vector<DeployFile> out;
  std::ostringstream readme;
  const ServingStackChoice& fw = s.framework;
  readme
      << "# Tessera --deploy: " << printable_text(fw.profile.title + ' ' + fw.version().version) << "\n\n"
      << "Launch scripts written by `tessera serve --deploy` for the scenario `" << printable_text(s.name)
      << "` (" << printable_text(scenario_file(s)) << "), model `" << printable_text(model_id(s))
      << "`, framework `" << printable_text(fw.label()) << "` (" << printable_text(fw.version().docs)
      << ").\n"
      << "Each script's comments name the Tessera configuration it launches and what Tessera predicts for\n"
      << "it; `# instances: N` is how many copies of the command to start (a disaggregated pool's\n"
      << "instances, or one per data-parallel replica where the framework has no data-parallel flag).\n"
      << "The flags and where they are documented: docs/frameworks.md.\n\n"
      << "| file | what |\n|---|---|\n";
  for (const DeployEntry& e : entries) {
    std::vector<DeployFile> files = render_deploy_entry(s, e);
    for (const DeployFile& f : files) {
      readme << "| " << f.name << " | "
             << printable_text(f.name.size() > 3 && f.name.substr(f.name.size() - 3) == ".sh"
                                   ? e.title + ": " + e.config
                                   : "options read by " + e.label + ".sh")
             << " |\n";
      out.push_back(f);
    }
  }
  out.push_back({"README.md", readme.str()});
  return out;
}

}  // namespace tessera
