// data/frameworks.yaml and --deploy's scripts against the frameworks' own argument definitions
// (tests/data/framework-args/<framework>-<version>.txt, extracted from each release's source by
// scripts/data/extract_framework_args.py; docs/frameworks.md "Precision"): every flag and key
// Tessera writes must be one the framework's parser accepts, a switch a switch, a literal among
// the accepted choices. Read with the framework's definitions, not Tessera's own flag table, so a
// misspelled or removed flag fails here.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "report/deploy/deploy_writer.hpp"
#include "scenario/scenario_loader.hpp"
#include "scenario/serving_stacks/stack_launch.hpp"
#include "scenario/serving_stacks/stack_precision.hpp"
#include "tessera_build_paths.hpp"

using namespace tessera;

namespace {

struct ArgDef {
  bool is_switch = false;
  std::set<std::string> choices;  // empty: any value
};

struct ArgDefs {
  std::map<std::string, ArgDef> flags, yaml;
};

std::set<std::string> split_choices(const std::string& text) {
  std::set<std::string> out;
  std::string item;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      item += text[++i];
    } else if (text[i] == ',') {
      out.insert(item);
      item.clear();
    } else {
      item += text[i];
    }
  }
  out.insert(item);
  return out;
}

std::string source_path(const std::string& rel) { return std::string(TESSERA_SOURCE_DIR) + "/" + rel; }

ArgDefs read_defs(const std::string& framework, const std::string& version) {
  std::ifstream in(source_path("tests/data/framework-args/" + framework + "-" + version + ".txt"));
  REQUIRE(in.good());
  ArgDefs d;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ws(line);
    std::string kind, name, type, extra;
    ws >> kind >> name >> type >> extra;
    ArgDef a;
    a.is_switch = type == "switch";
    if (extra.rfind("choices=", 0) == 0) a.choices = split_choices(extra.substr(8));
    (kind == "flag" ? d.flags : d.yaml)[name] = a;
  }
  REQUIRE(!d.flags.empty());
  return d;
}

// vLLM's --quantization is checked after parsing, against QuantizationMethods.
std::set<std::string> vllm_quantization_methods(const std::string& version) {
  std::ifstream in(source_path("tests/data/framework-args/vllm-quantization-methods.txt"));
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(version + " ", 0) == 0) return split_choices(line.substr(version.size() + 1));
  return {};
}

// "" when `value` (of `name`, a switch when `value` is null) is accepted by `defs`, else why not.
std::string problem(const std::map<std::string, ArgDef>& defs, const std::string& name,
                    const std::string* value, const std::set<std::string>& extra_choices = {}) {
  const auto it = defs.find(name);
  if (it == defs.end()) return name + " is not an argument of this version";
  if (it->second.is_switch != (value == nullptr))
    return name + (it->second.is_switch ? " is a switch: it takes no value" : " takes a value");
  const std::set<std::string>& choices = it->second.choices.empty() ? extra_choices : it->second.choices;
  if (value && !choices.empty() && value->find('{') == std::string::npos && !choices.count(*value))
    return name + " does not accept '" + *value + "'";
  return "";
}

std::string flag_problem(const ArgDefs& defs, const ServingStackFlag& f, const std::set<std::string>& quant) {
  if (!f.comment.empty()) return "";
  const std::string* value = f.is_switch() ? nullptr : &f.literal;
  const std::string numeric = "1";
  if (!f.value.empty()) value = &numeric;
  if (!f.flag.empty())
    return problem(defs.flags, f.flag, value, f.flag == "--quantization" ? quant : std::set<std::string>{});
  // A YAML switch is written `key: true` (deploy_writer's yaml_options).
  static const std::string yes = "true";
  return problem(defs.yaml, f.yaml, f.is_switch() ? &yes : value);
}

const ServingStackCatalog& catalog() {
  static const ServingStackCatalog c =
      load_serving_stack_catalog(default_serving_stacks_path(TESSERA_SOURCE_DIR));
  return c;
}

}  // namespace

TEST_CASE("framework args: every flag of data/frameworks.yaml is accepted by its version's parser") {
  std::size_t checked = 0;
  for (const ServingStackProfile& f : catalog().frameworks)
    for (const ServingStackVersion& v : f.versions) {
      const ArgDefs defs = read_defs(f.name, v.version);
      const std::set<std::string> quant =
          f.name == "vllm" ? vllm_quantization_methods(v.version) : std::set<std::string>{};
      if (f.name == "vllm") REQUIRE(!quant.empty());
      for (const ServingStackFlag& flag : v.flags) {
        INFO(f.name + "@" + v.version + " " + flag.name() + " " + flag.literal);
        CHECK(flag_problem(defs, flag, quant) == "");
        ++checked;
      }
    }
  CHECK(checked > 100);
}

TEST_CASE(
    "framework args: the check refuses a misspelled flag and a value on a switch and an unknown choice") {
  const ArgDefs defs = read_defs("vllm", "0.19.0");
  ServingStackFlag f;
  f.flag = "--tensor-paralel-size";
  f.value = {FlagTerm::tp};
  CHECK(flag_problem(defs, f, {}) == "--tensor-paralel-size is not an argument of this version");
  f.flag = "--enable-expert-parallel";
  f.value.clear();
  f.literal = "yes";
  CHECK(flag_problem(defs, f, {}) == "--enable-expert-parallel is a switch: it takes no value");
  f.flag = "--kv-cache-dtype";
  f.literal = "fp8_e4m3fn";
  CHECK(flag_problem(defs, f, {}) == "--kv-cache-dtype does not accept 'fp8_e4m3fn'");
  f.flag = "--quantization";
  f.literal = "nvfp4";
  CHECK(flag_problem(defs, f, vllm_quantization_methods("0.19.0")) ==
        "--quantization does not accept 'nvfp4'");
  const ArgDefs trt = read_defs("tensorrt-llm", "1.0");
  f = ServingStackFlag{};
  f.yaml = "kv_cache_config.tokens_per_block";  // a 1.1 key, not 1.0's (the 1.0 KV rule's default names it)
  f.value = {FlagTerm::batch};
  CHECK(flag_problem(trt, f, {}) == "kv_cache_config.tokens_per_block is not an argument of this version");
}

namespace {

// The words of a script's command after its first `skip` words (the command's own), `\`
// continuations joined, single quotes removed; `#` lines apart.
std::vector<std::string> command_words(const std::string& script, std::size_t skip) {
  std::istringstream in(script);
  std::string line, joined;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line.back() == '\\') line.pop_back();
    joined += line + ' ';
  }
  std::vector<std::string> words;
  std::istringstream ws(joined);
  std::string w;
  while (ws >> w) {
    std::string plain;
    for (char c : w)
      if (c != '\'') plain += c;
    words.push_back(plain);
  }
  words.erase(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(std::min(skip, words.size())));
  return words;
}

// Every flag of `script` (and key of `yaml`) checked against `defs`; "" when all are accepted.
std::string script_problems(const ArgDefs& defs, const ServingStackProfile& f, const std::string& script,
                            const std::string& yaml, const std::set<std::string>& quant) {
  std::size_t skip = 0;
  std::istringstream cmd(f.command);
  for (std::string w; cmd >> w;) ++skip;
  const std::vector<std::string> words = command_words(script, skip);
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const auto it = defs.flags.find(words[i]);
    const bool takes_value = it != defs.flags.end() && !it->second.is_switch;
    const std::string* value = takes_value && i + 1 < words.size() ? &words[i + 1] : nullptr;
    const std::string p =
        problem(defs.flags, words[i], value, words[i] == "--quantization" ? quant : std::set<std::string>{});
    if (!p.empty()) out += p + "\n";
    if (value) ++i;
  }
  std::istringstream ys(yaml);
  std::string line, parent;
  while (std::getline(ys, line)) {
    const std::size_t colon = line.find(':');
    if (line.empty() || line[0] == '#' || colon == std::string::npos) continue;
    std::string key = line.substr(0, colon), value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    if (key[0] == ' ') {
      key = parent + "." + key.substr(key.find_first_not_of(' '));
    } else if (value.empty()) {
      parent = key;
      continue;
    }
    const std::string p = problem(defs.yaml, key, &value);
    if (!p.empty()) out += p + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("framework args: an FP8 study's scripts carry its precision in words each version accepts") {
  for (const ServingStackProfile& f : catalog().frameworks)
    for (const ServingStackVersion& v : f.versions) {
      LoadOptions o;
      o.set = {"framework=" + f.name + "@" + v.version, "dtype.weights=fp8", "dtype.kv=fp8",
               "dtype.activations=fp16"};
      const Scenario s = load_scenario(source_path("scenarios/llama3.1-70b-serve-4k1k-h100-disagg.yaml"), o);
      const ArgDefs defs = read_defs(f.name, v.version);
      const std::set<std::string> quant =
          f.name == "vllm" ? vllm_quantization_methods(v.version) : std::set<std::string>{};
      CHECK(unwritable_precision(s.framework.profile, s.model.dtype) == "");
      for (DeployPoint::Role role :
           {DeployPoint::Role::aggregated, DeployPoint::Role::prefill, DeployPoint::Role::decode}) {
        DeployEntry e;
        e.label = "x";
        e.point.config.tp = 4;
        e.point.config.dp = 2;
        e.point.batch = 64;
        e.point.token_budget = 8192;
        e.point.role = role;
        e.point.dtypes = s.model.dtype;
        const std::vector<DeployFile> files = render_deploy_entry(s, e);
        const std::string script = files[0].content, yaml = files.size() > 1 ? files[1].content : "";
        INFO(s.framework.label() + "\n" + script + yaml);
        CHECK(script_problems(defs, s.framework.profile, script, yaml, quant) == "");
        if (f.name == "vllm") {
          CHECK(script.find("--quantization fp8") != std::string::npos);
          CHECK(script.find("--kv-cache-dtype fp8") != std::string::npos);
          CHECK(script.find("--dtype float16") != std::string::npos);
        } else if (f.name == "sglang") {
          CHECK(script.find("--quantization fp8") != std::string::npos);
          CHECK(script.find("--kv-cache-dtype fp8_e4m3") != std::string::npos);
          CHECK(script.find("--dtype float16") != std::string::npos);
        } else {
          CHECK(script.find("# weights fp8: ") != std::string::npos);
          CHECK(yaml.find("kv_cache_config:\n  dtype: fp8\n") != std::string::npos);
          CHECK(yaml.find("\ndtype: float16\n") != std::string::npos);
        }
        const ParsedLaunch back = parse_launch(s.framework.profile, script, yaml);
        CHECK(back.point.dtypes.kv == DType::fp8);
        CHECK(back.point.dtypes.activations == DType::fp16);  // not the default: read back
        if (f.name != "tensorrt-llm") CHECK(back.point.dtypes.weights == DType::fp8);
      }
    }
}

TEST_CASE("framework args: a precision no flag states is refused by --deploy naming the format") {
  LoadOptions o;
  o.set = {"framework=vllm@0.19.0", "dtype.weights=int4"};
  const Scenario s = load_scenario(source_path("scenarios/llama3.1-70b-serve-4k1k-h100.yaml"), o);
  CHECK(unwritable_precision(s.framework.profile, s.model.dtype) ==
        "vLLM 0.19.0 has no flag for weights in int4 (data/frameworks.yaml lists none with `when: "
        "[weights=int4]`): a script would serve another precision than the study priced");
  o.set = {"framework=tensorrt-llm@1.1", "dtype.kv=nvfp4"};
  const Scenario t = load_scenario(source_path("scenarios/llama3.1-70b-serve-4k1k-h100.yaml"), o);
  CHECK(unwritable_precision(t.framework.profile, t.model.dtype)
            .rfind("TensorRT-LLM 1.1 has no flag for a KV cache in nvfp4", 0) == 0);
  o.set = {"framework=sglang@0.5.9", "dtype.activations=fp8"};  // fp8 activations beside bf16 weights
  const Scenario u = load_scenario(source_path("scenarios/llama3.1-70b-serve-4k1k-h100.yaml"), o);
  CHECK(unwritable_precision(u.framework.profile, served_dtypes(u.model))
            .rfind("SGLang 0.5.9 has no flag for activations in fp8 beside bf16 weights", 0) == 0);
  o.set = {"framework=vllm@0.19.0", "dtype.expert_weights=nvfp4"};  // a dense model has no experts
  const Scenario w = load_scenario(source_path("scenarios/llama3.1-70b-serve-4k1k-h100.yaml"), o);
  CHECK(checkpoint_weights(served_dtypes(w.model)) == DType::bf16);
}

TEST_CASE("framework args: the wide-EP scenario's pools carry their own MoE settings and kernels") {
  const Scenario s = load_scenario(source_path("scenarios/deepseek-v3-wide-ep-disagg-h200.yaml"), {});
  const DisaggregationSpec& d = s.serving.disaggregated;
  CHECK(d.prefill.ep == std::vector<std::int32_t>{32});
  CHECK(d.decode.ep == std::vector<std::int32_t>{64, 128});
  CHECK(d.decode.tp == std::vector<std::int32_t>{1});
  // Each pool its own balancer: 32 redundant experts in prefill, 128 in decode.
  CHECK(d.prefill_eplb.redundant_experts == 32);
  CHECK(d.decode_eplb.redundant_experts == 128);
  const ArgDefs defs = read_defs("sglang", "0.5.9");
  const auto script = [&](DeployPoint::Role role, std::int32_t dp) {
    DeployEntry e;
    e.label = "x";
    e.point.config.dp = dp;
    e.point.config.ep = dp;  // EP over the whole TP x DP group: DeepEP's layout
    e.point.config.ffn_shard_scope = FfnShardScope::tp_cp_dp;
    e.point.config.kv_shard_mode = KvShardMode::replicate;
    e.point.batch = 32;
    e.point.token_budget = 4096;
    e.point.role = role;
    e.point.dtypes = s.model.dtype;
    const EplbSpec& eplb = role == DeployPoint::Role::aggregated
                               ? s.serving.eplb
                               : s.serving.pool_eplb(role == DeployPoint::Role::prefill);
    e.point.eplb = eplb.given;
    e.point.redundant_experts = eplb.redundant_experts;
    const std::string text = render_deploy_entry(s, e)[0].content;
    INFO(text);
    CHECK(script_problems(defs, s.framework.profile, text, "", {}) == "");
    CHECK(text.find("--quantization fp8") != std::string::npos);
    CHECK(text.find("--enable-dp-attention") != std::string::npos);
    CHECK(text.find("--ep-size " + std::to_string(dp)) != std::string::npos);
    CHECK(text.find("--moe-a2a-backend deepep") != std::string::npos);
    return text;
  };
  const std::string prefill = script(DeployPoint::Role::prefill, 32);
  const std::string decode = script(DeployPoint::Role::decode, 64);
  const std::string aggregated = script(DeployPoint::Role::aggregated, 8);
  CHECK(prefill.find("--deepep-mode normal") != std::string::npos);
  CHECK(decode.find("--deepep-mode low_latency") != std::string::npos);
  CHECK(aggregated.find("--deepep-mode auto") != std::string::npos);
  CHECK(prefill.find("--enable-eplb") != std::string::npos);
  CHECK(prefill.find("--ep-num-redundant-experts 32") != std::string::npos);
  CHECK(decode.find("--ep-num-redundant-experts 128") != std::string::npos);
  CHECK(aggregated.find("eplb") == std::string::npos);  // serving.eplb not given
}
