// Loading a scenario (docs/specification.md §2): read the file, resolve its model and machine (path, name,
// inline mapping, Hugging Face config), apply `overrides:` and `--set` to the tree, then parse
// every part with its schema, collecting all problems before throwing InputErrors.
#include "scenario/scenario_loader.hpp"

#include "scenario/eplb_check.hpp"
#include "scenario/prefix_cache_check.hpp"
#include "scenario/schemas/requests_schema.hpp"
#include "scenario/speculative_check.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "core/text/input_file.hpp"
#include "core/text/input_text.hpp"
#include "core/text/nearest_name.hpp"
#include "core/text/safe_text.hpp"
#include "scenario/data_roots.hpp"
#include "scenario/hf_config.hpp"
#include "scenario/loader_errors.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/schemas/schemas.hpp"
#include "scenario/schemas/serving_schema.hpp"
#include "scenario/serving_stack_choice.hpp"
#include "scenario/sweeps/moe_scopes.hpp"
#include "scenario/sweeps/overrides.hpp"
#include "scenario/sweeps/pool_parallelism.hpp"

namespace fs = std::filesystem;

namespace tessera {

namespace loader {
namespace {

bool is_json(const std::string& p) { return iends_with(p, ".json"); }
bool is_yaml(const std::string& p) { return iends_with(p, ".yaml") || iends_with(p, ".yml"); }

std::string join_dir(const std::string& base, const std::string& rel) {
  fs::path p(rel);
  if (p.is_relative() && !base.empty()) p = fs::path(base) / p;
  std::string s = p.lexically_normal().string();
  return s.empty() ? std::string(".") : s;
}

std::string parent_dir(const std::string& file) { return fs::path(file).parent_path().string(); }

// A resolved model or machine: its tree (a mapping) and where it came from.
struct Part {
  YNode tree;
  std::string file;          // path, or "inline"
  bool require_name = true;  // files must carry `name:`
};

// Reads a model/machine file (YAML with the right `kind:`, or for a model a config.json).
std::optional<Part> read_part_file(const std::string& path, const std::string& kind, Diags& d) {
  if (kind == "model" && is_json(path)) {
    auto tree = hf_config_tree(path, d);
    if (!tree) return std::nullopt;
    return Part{std::move(*tree), path, false};
  }
  auto tree = read_yaml_file(path, kind, d);
  if (!tree) return std::nullopt;
  if (!check_header(*tree, kind, nullptr, d)) return std::nullopt;
  return Part{std::move(*tree), path, true};
}

std::vector<std::string> yaml_files_in(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir.empty() ? "." : dir, ec)) {
    if (!e.is_regular_file(ec)) continue;
    const std::string name = e.path().filename().string();
    if (is_yaml(name) || is_json(name)) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<Part> resolve_path(const std::string& text, const std::string& base_dir,
                                 const std::string& kind, const SourceLocation& where,
                                 const std::string& label, Diags& d) {
  const std::string path = join_dir(base_dir, text);
  const std::string problem = input_file_problem(path);
  if (!problem.empty() && problem != "no such file") {  // a directory, a device, a FIFO, too large
    d.error(where, label + ": the " + kind + " file '" + path + "' " + problem);
    return std::nullopt;
  }
  if (!problem.empty()) {
    const fs::path p(path);
    std::vector<std::string> siblings = yaml_files_in(p.parent_path().string());
    std::string hint = did_you_mean(p.filename().string(), siblings);
    d.error(where, label + ": no such " + kind + " file '" + path + "'" + hint);
    return std::nullopt;
  }
  return read_part_file(path, kind, d);
}

// `model: llama3.1-70b`: <root>/models/<name>.yaml, else a file there whose `name:` matches,
// root by root (scenario/data_roots.hpp).
std::optional<Part> resolve_name(const std::string& name, const std::vector<std::string>& roots,
                                 const std::string& kind, const SourceLocation& where,
                                 const std::string& label, Diags& d) {
  std::vector<std::string> dirs;
  for (const auto& root : roots) dirs.push_back(join_dir(root, kind + "s"));
  for (const auto& dir : dirs)
    for (const char* ext : {".yaml", ".yml"}) {
      const std::string p = join_dir(dir, name + ext);
      std::error_code ec;
      if (fs::is_regular_file(p, ec)) return read_part_file(p, kind, d);
    }
  std::vector<std::string> candidates;
  for (const auto& dir : dirs) {
    std::string match;
    for (const auto& f : yaml_files_in(dir)) {
      if (!is_yaml(f)) continue;
      const std::string p = join_dir(dir, f);
      candidates.push_back(fs::path(f).stem().string());
      Diags quiet;
      auto tree = read_yaml_file(p, kind, quiet);
      if (!tree || !tree->is_mapping()) continue;
      const YNode* n = tree->find("name");
      if (!n || !n->is_scalar()) continue;
      candidates.push_back(n->value);
      if (match.empty() && (n->value == name || edit_distance(n->value, name) == 0)) match = p;
    }
    if (!match.empty()) return read_part_file(match, kind, d);
  }
  std::string where_text;
  for (std::size_t i = 0; i < dirs.size(); ++i)
    where_text += (i ? (i + 1 == dirs.size() ? " or " : ", ") : "") + dirs[i];
  d.error(where, label + ": no " + kind + " named '" + name + "' in " + where_text +
                     did_you_mean(name, candidates) + " (a " + kind + " is a file path, a name from " +
                     (dirs.size() == 1 ? where_text : "those folders") + ", or an inline mapping)");
  return std::nullopt;
}

std::optional<Part> resolve_part(const YNode& src, const std::string& kind, const std::string& base_dir,
                                 const std::vector<std::string>& roots, const std::string& label, Diags& d) {
  if (src.is_scalar() && !src.value.empty()) {
    const std::string& t = src.value;
    if (t.find('/') != std::string::npos || is_yaml(t) || is_json(t))
      return resolve_path(t, base_dir, kind, src.where, label, d);
    return resolve_name(t, roots, kind, src.where, label, d);
  }
  if (src.is_mapping()) {
    if (kind == "model" && src.find("hf_config")) {
      for (const auto& e : src.entries)
        if (e.key != "hf_config" && e.key != "name" && e.key != "family")
          d.error(e.key_where, "unknown key '" + label + "." + e.key + "'" +
                                   did_you_mean(e.key, {"hf_config", "name", "family"}) +
                                   "; {hf_config: PATH} takes hf_config, name and family");
      const YNode& p = *src.find("hf_config");
      if (!p.is_scalar() || p.value.empty()) {
        d.error(p.where,
                label + ".hf_config: expected the path of a Hugging Face config.json, found " + describe(p));
        return std::nullopt;
      }
      const std::string path = join_dir(base_dir, p.value);
      if (const std::string problem = input_file_problem(path); !problem.empty()) {
        d.error(p.where, label + ".hf_config: " +
                             (problem == "no such file" ? "no such file '" + path + "'"
                                                        : "the file '" + path + "' " + problem));
        return std::nullopt;
      }
      std::optional<HfFamily> family;
      if (const YNode* f = src.find("family")) {
        if (!f->is_scalar() || f->value.empty()) {
          d.error(f->where, label + ".family: expected the name of the family the config follows (" +
                                join_names(hf_families()) + "), found " + describe(*f));
          return std::nullopt;
        }
        family = HfFamily{f->value, f->where};
      }
      auto tree = hf_config_tree(path, d, family);
      if (!tree) return std::nullopt;
      if (const YNode* name = src.find("name")) tree->set("name", name->where, *name);
      return Part{std::move(*tree), path, false};
    }
    // Inline: the mapping is the model/machine itself (schema_version and kind optional).
    if (src.find("schema_version") || src.find("kind"))
      if (!check_header(src, kind, nullptr, d)) return std::nullopt;
    return Part{src, "inline", false};
  }
  const std::string example = kind == "model" ? "../models/llama3.1-70b.yaml" : "../machines/cube-sip.yaml";
  d.error(src.where, label + ": expected a " + kind + " file path (e.g. " + example + "), a " + kind +
                         " name, or an inline mapping" + (kind == "model" ? " or {hf_config: PATH}" : "") +
                         ", found " + describe(src));
  return std::nullopt;
}

}  // namespace

}  // namespace loader

using namespace loader;

namespace {

// serving.speculative.model (method draft): read as `model:` is (a path relative to the scenario,
// a name, an inline mapping), parsed, and sharing the target's vocabulary (the drafts are the
// target's tokens).
void load_draft_model(const YNode& tree, const std::string& dir, const std::vector<std::string>& roots,
                      const ModelSpec* target, Scenario& s, Diags& d) {
  SpeculativeSpec& sp = s.serving.speculative;
  const YNode* serving = tree.find("serving");
  const YNode* block = serving && serving->is_mapping() ? serving->find("speculative") : nullptr;
  const YNode* ref = block && block->is_mapping() ? block->find("model") : nullptr;
  if (sp.method != SpeculativeMethod::draft || !ref) return;
  const std::string label = "serving.speculative.model";
  const auto part = resolve_part(*ref, "model", dir, roots, label, d);
  if (!part) return;
  auto draft = parse_model(part->tree, label, part->require_name, d);
  if (!draft) return;
  if (target && draft->vocab != target->vocab)
    d.error(ref->where, label + ": the draft model " + draft->name + " has a vocabulary of " +
                            std::to_string(draft->vocab) + " tokens, the model " + target->name + " " +
                            std::to_string(target->vocab) +
                            "; a draft model must share the target's tokenizer");
  sp.draft_model = std::make_shared<const ModelSpec>(std::move(*draft));
}

}  // namespace

std::string default_scenario_path(const LoadOptions& options) {
  // The first root that has it (a TESSERA_DATA_DIR without scenarios/ keeps the shipped one).
  const std::vector<std::string> roots = data_roots(options);
  for (const auto& root : roots) {
    const std::string p = join_dir(root, "scenarios/llama3.1-70b-decode-128k.yaml");
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p;
  }
  return join_dir(roots.back(), "scenarios/llama3.1-70b-decode-128k.yaml");
}

namespace {

// The model and the machine, in this order.
constexpr const char* kPartKinds[2] = {"model", "machine"};
// The pools' own machines under `serving`, prefill first.
constexpr const char* kPoolKeys[2] = {"prefill_machine", "decode_machine"};

// Where the model and the machine come from: the file, an override of the whole part
// (`--set model=llama3.1-8b`), or --model/--machine.
struct PartSource {
  const YNode* node = nullptr;
  std::string base_dir;
  std::string label;
};

// The model (parts[0]) and the machine (parts[1]) of the scenario `root`; a part that could not be
// read is left empty and its key added to `skip` (the overrides below it are not applied).
void resolve_parts(const YNode& root, const std::string& dir, const std::vector<Override>& overrides,
                   const std::vector<std::string>& droots, const LoadOptions& options,
                   std::optional<Part> (&parts)[2], std::vector<std::string>& skip, Diags& d) {
  const std::string* cli[2] = {&options.model_override, &options.machine_override};
  for (int i = 0; i < 2; ++i) {
    const std::string kind = kPartKinds[i];
    PartSource src{root.find(kind), dir, kind};
    for (const auto& o : overrides)
      if (o.path == kind) src = PartSource{&o.value, o.base_dir, o.label};
    if (i == 0 && !options.model_hf_json.empty()) {
      if (auto tree = hf_config_tree_from_text(options.model_hf_json, options.model_hf_label, d))
        parts[i] = Part{std::move(*tree), options.model_hf_label, false};
    } else if (!cli[i]->empty()) {
      const SourceLocation where{kCommandLine, 0, 0};
      parts[i] = resolve_path(*cli[i], "", kind, where, "--" + kind, d);
    } else if (!src.node) {
      report_missing(root, "", kind, "a " + kind + " file path, name, or inline mapping", d);
    } else {
      parts[i] = resolve_part(*src.node, kind, src.base_dir, droots, src.label, d);
    }
    if (!parts[i]) skip.push_back(kind);
  }
}

// serving.prefill_machine and serving.decode_machine as resolved: each pool's machine, where it was
// given, and whether either was.
struct PoolParts {
  std::optional<Part> parts[2];
  SourceLocation where[2];
  bool separate = false;  // either key given: `machine.<path>` no longer means both pools
};

// serving.prefill_machine / serving.decode_machine: read as `machine:` is (a path relative to
// the scenario, a name, an inline mapping), or replaced whole by an override.
// Each resolved machine is put into `tree` at its key.
void resolve_pool_parts(const YNode& root, const std::string& dir, const std::vector<Override>& overrides,
                        const std::vector<std::string>& droots, YNode& tree, PoolParts& pools,
                        std::vector<std::string>& skip, Diags& d) {
  const YNode* serving_node = root.find("serving");
  for (int i = 0; i < 2; ++i) {
    const std::string label = std::string("serving.") + kPoolKeys[i];
    PartSource src;
    if (serving_node && serving_node->is_mapping())
      if (const YEntry* e = serving_node->find_entry(kPoolKeys[i])) {
        src = PartSource{&e->value, dir, label};
        pools.where[i] = e->key_where;
      }
    for (const auto& o : overrides)
      if (o.path == label) {
        src = PartSource{&o.value, o.base_dir, o.label};
        pools.where[i] = o.where;
      }
    if (!src.node) continue;
    pools.separate = true;
    pools.parts[i] = resolve_part(*src.node, "machine", src.base_dir, droots, src.label, d);
    if (!pools.parts[i]) {
      skip.push_back(label);
      continue;
    }
    YNode* sv = tree.find("serving");
    if (!sv || !sv->is_mapping()) {
      YNode m;
      m.kind = YNode::Kind::mapping;
      m.where = pools.where[i];
      sv = &tree.set("serving", pools.where[i], std::move(m));
    }
    sv->set(kPoolKeys[i], pools.where[i], pools.parts[i]->tree);
  }
}

// The pools' own machines of `tree` parsed into s.serving.
void parse_pool_machines(const YNode& tree, const PoolParts& pools, Scenario& s, Diags& d) {
  for (int i = 0; i < 2; ++i) {
    if (!pools.parts[i]) continue;
    const std::string label = std::string("serving.") + kPoolKeys[i];
    PoolMachine& pm = i == 0 ? s.serving.prefill_machine : s.serving.decode_machine;
    auto m = parse_machine(*tree.find("serving")->find(kPoolKeys[i]), label, pools.parts[i]->require_name,
                           &pm.blocks, d);
    if (!m) continue;
    pm.given = true;
    pm.file = pools.parts[i]->file;
    pm.machine = std::move(*m);
    pm.where = pools.where[i];
  }
}

// A scenario from its parsed tree: `file` names it (s.file, the diagnostics), `dir` is the folder
// its relative paths start from, `name` its name.
Scenario scenario_from_tree(std::optional<YNode> root, const std::string& file, const std::string& dir,
                            const std::string& name, const LoadOptions& options, Diags& d) {
  if (!root) throw_errors(d);
  if (!check_header(*root, "scenario", nullptr, d)) throw_errors(d);
  check_keys(*root, "", *schema_keys(""), d);
  const std::vector<std::string> droots = data_roots(options);
  std::vector<Override> overrides = file_overrides(*root, dir, d);
  for (auto& o : cli_overrides(options.set, d)) overrides.push_back(std::move(o));
  Scenario s;
  s.file = file;
  s.name = name;

  std::optional<Part> parts[2];
  std::vector<std::string> skip;
  resolve_parts(*root, dir, overrides, droots, options, parts, skip, d);

  YNode tree = *root;
  for (int i = 0; i < 2; ++i) {
    if (!parts[i]) continue;
    const YEntry* e = root->find_entry(kPartKinds[i]);
    tree.set(kPartKinds[i], e ? e->key_where : root->where, parts[i]->tree);
  }
  PoolParts pools;
  resolve_pool_parts(*root, dir, overrides, droots, tree, pools, skip, d);
  for (const auto& o : overrides) {
    if (o.path == "model" || o.path == "machine" || o.path == "serving.prefill_machine" ||
        o.path == "serving.decode_machine")
      continue;
    if (apply_pool_override(tree, o, skip, d)) continue;
    if (pools.separate && o.path.rfind("machine.", 0) == 0) {
      refuse_shared_machine_path(o.where, o.label, o.path, d);
      continue;
    }
    apply_override(tree, o, skip, d);
  }

  std::optional<ModelSpec> model;
  std::optional<MachineSpec> machine;
  if (parts[0]) {
    model = parse_model(*tree.find("model"), "model", parts[0]->require_name, d);
    s.model_file = parts[0]->file;
  }
  if (parts[1]) {
    machine = parse_machine(*tree.find("machine"), "machine", parts[1]->require_name, &s.machine_blocks, d);
    s.machine_file = parts[1]->file;
  }
  if (const YNode* dt = tree.find("dtype")) {
    DTypes dtypes = model ? model->dtype : DTypes{};
    parse_dtype_block(*dt, "dtype", dtypes, d);
    if (model) model->dtype = dtypes;
  }
  parse_pool_machines(tree, pools, s, d);
  parse_scenario_sections(tree, machine ? &*machine : nullptr, s, d);
  check_pool_machines(s, machine ? &*machine : nullptr, d);
  if (d.empty()) finish_requests(s, join_dir(dir, s.serving.requests.trace_file), d);
  check_prefix_cache(tree, s, machine ? &*machine : nullptr, d);
  check_speculative(tree, s, model ? &*model : nullptr, d);
  load_draft_model(tree, dir, droots, model ? &*model : nullptr, s, d);
  if (!s.plugins.scheduler.name.empty() && !s.serving.requests.given)
    d.error(s.plugins.scheduler.where,
            "plugins.scheduler: a scheduler decides the iterations of a request "
            "simulation; give serving.requests (docs/physics.md §12.5)");
  if (s.workload.mode != Mode::serve && s.workload.chunk == 0) s.workload.chunk = s.workload.context;
  if (const YNode* m = tree.find("model"))
    if (const YNode* hf = m->is_mapping() ? m->find("hf_id") : nullptr) s.model_hf_id = hf->value;
  const YNode* fw = tree.find("framework");
  const YNode* engine = tree.find("engine");
  if (engine && !fw)
    d.error(engine->where, "engine: the KV-cache knobs need `framework:` (vllm, sglang, tensorrt-llm)");
  throw_if_any(d);
  offer_attention_dp_to_moe_only(tree, *model, s.sweep);  // before the framework reports what it drops
  if (fw) choose_serving_stack(*fw, engine, droots, *model, s);
  check_pool_parallelism(tree, s);  // against the sweep the framework and the model left
  check_prefix_cache_stack(tree, s);
  check_speculative_stack(tree, s);
  check_eplb(tree, s, *model);  // and serving.eplb applied to the effective model
  s.model = std::move(*model);
  s.machine = std::move(*machine);
  return s;
}

}  // namespace

Scenario load_scenario(const std::string& path, const LoadOptions& options) {
  Diags d;
  auto root = read_yaml_file(path, "", d);
  // The default name is the file's, escaped (core/text/safe_text.hpp): a file name may hold a
  // newline or ESC, which a `name:` key may not.
  return scenario_from_tree(std::move(root), path, parent_dir(path),
                            printable_text(fs::path(path).stem().string()), options, d);
}

Scenario load_scenario_file_text(const std::string& text, const std::string& path,
                                 const std::string& base_dir, const LoadOptions& options) {
  Diags d;
  auto root = parse_yaml_file_text(text, path, "", d);
  return scenario_from_tree(std::move(root), path, base_dir.empty() ? parent_dir(path) : base_dir,
                            printable_text(fs::path(path).stem().string()), options, d);
}

Scenario load_scenario_text(const std::string& text, const std::string& label, const std::string& base_dir,
                            const LoadOptions& options) {
  Diags d;
  auto root = parse_yaml_text(text, SourceLocation{label, 0, 0}, label, d);
  return scenario_from_tree(std::move(root), label, base_dir, label, options, d);
}

ModelSpec load_model_file(const std::string& path) {
  Diags d;
  auto part = read_part_file(path, "model", d);
  if (!part) throw_errors(d);
  auto m = parse_model(part->tree, "model", part->require_name, d);
  throw_if_any(d);
  return std::move(*m);
}

MachineSpec load_machine_file(const std::string& path, std::vector<MachineBlock>* blocks) {
  Diags d;
  auto part = read_part_file(path, "machine", d);
  if (!part) throw_errors(d);
  auto m = parse_machine(part->tree, "machine", true, blocks, d);
  throw_if_any(d);
  return std::move(*m);
}

void validate_file(const std::string& path, const LoadOptions& options) {
  if (is_json(path)) {
    load_model_file(path);
    return;
  }
  Diags d;
  auto tree = read_yaml_file(path, "", d);
  if (!tree) throw_errors(d);
  std::string kind;
  if (!check_header(*tree, "", &kind, d)) throw_errors(d);
  if (kind == "scenario") {
    load_scenario(path, options);
  } else if (kind == "model") {
    load_model_file(path);
  } else {
    load_machine_file(path);
  }
}

}  // namespace tessera
