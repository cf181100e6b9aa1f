// Hugging Face config.json import: each fixture yields exactly the model of the matching
// models/*.yaml (dtypes bf16; the name comes from the folder).
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../outputs/output_test_util.hpp"
#include "scenario/readers/json_tree.hpp"
#include "scenario/scenario_loader.hpp"
#include "tessera/limits.hpp"

using namespace tessera;
namespace fs = std::filesystem;

namespace {
void check_same(const ModelSpec& a, const ModelSpec& b) {
  CHECK(a.layers == b.layers);
  CHECK(a.hidden == b.hidden);
  CHECK(a.heads == b.heads);
  CHECK(a.kv_heads == b.kv_heads);
  CHECK(a.head_dim == b.head_dim);
  CHECK(a.ffn == b.ffn);
  CHECK(a.ffn_kind == b.ffn_kind);
  CHECK(a.vocab == b.vocab);
  CHECK(a.tied_embeddings == b.tied_embeddings);
  CHECK(a.attention_bias == b.attention_bias);
  CHECK(a.mlp_bias == b.mlp_bias);
  CHECK(a.parallel_block == b.parallel_block);
  CHECK(a.dtype.weights == b.dtype.weights);
  CHECK(a.dtype.kv == b.dtype.kv);
  CHECK(a.dtype.activations == b.dtype.activations);
  CHECK(a.has_moe == b.has_moe);
  CHECK(a.moe.experts == b.moe.experts);
  CHECK(a.moe.top_k == b.moe.top_k);
  CHECK(a.moe.expert_ffn == b.moe.expert_ffn);
  CHECK(a.moe.shared_experts == b.moe.shared_experts);
  CHECK(a.moe.dense_layers == b.moe.dense_layers);
  CHECK(a.has_mla == b.has_mla);
  CHECK(a.mla.kv_lora_rank == b.mla.kv_lora_rank);
  CHECK(a.mla.q_lora_rank == b.mla.q_lora_rank);
  CHECK(a.mla.rope_dim == b.mla.rope_dim);
  CHECK(a.mla.nope_dim == b.mla.nope_dim);
  CHECK(a.mla.v_head_dim == b.mla.v_head_dim);
  CHECK(a.layer_types == b.layer_types);
  CHECK(a.attention.sliding_window == b.attention.sliding_window);
  CHECK(a.attention.chunk == b.attention.chunk);
  CHECK(a.attention.sinks == b.attention.sinks);
  CHECK(a.moe.router_bias == b.moe.router_bias);
}

const std::string kSrc = TESSERA_SOURCE_DIR;
}  // namespace

TEST_CASE("each hf_config fixture yields the model of the matching YAML file", "[hf]") {
  int n = 0;
  for (const auto& e : fs::directory_iterator(kSrc + "/tests/fixtures/hf")) {
    if (!e.is_directory()) continue;
    const std::string name = e.path().filename().string();
    const std::string yaml = kSrc + "/models/" + name + ".yaml";
    if (!fs::exists(yaml)) continue;
    INFO(name);
    const ModelSpec hf = load_model_file((e.path() / "config.json").string());
    const ModelSpec ref = load_model_file(yaml);
    CHECK(hf.name == name);
    check_same(hf, ref);
    ++n;
  }
  CHECK(n >= 7);
}

TEST_CASE("hf_config in a scenario - with the scenario's dtype and overrides", "[hf]") {
  LoadOptions o;
  o.data_root = std::string(TESSERA_TEST_DIR) + "/fixtures/data";
  o.set = {"model.layers=4"};
  const Scenario s = load_scenario(std::string(TESSERA_TEST_DIR) + "/fixtures/hf.yaml", o);
  CHECK(s.model.name == "mixtral-8x7b");
  CHECK(s.model.layers == 4);
  CHECK(s.model.moe.experts == 8);
  CHECK(s.model.moe.expert_ffn == 14336);
  CHECK(s.model.dtype.weights == DType::fp8);
  CHECK(s.model.dtype.kv == DType::fp8);
  CHECK(s.model.dtype.activations == DType::bf16);
}

namespace {
// The first diagnostic of loading `json` as a model file, formatted ("FILE:L:C: error: ...").
std::string first_error(const std::string& json) {
  // A folder of its own: ctest runs the test cases that call this in parallel processes.
  const tessera::test::TempDir dir;
  const std::string path = dir / "config.json";
  { std::ofstream(path, std::ios::binary) << json; }
  try {
    load_model_file(path);
  } catch (const InputErrors& e) {
    REQUIRE(!e.diagnostics().empty());
    std::string m = e.diagnostics()[0].format();
    if (m.rfind(path, 0) == 0) m = "F" + m.substr(path.size());
    return m;
  }
  return "(loaded)";
}

const std::string kLlama =
    "{\n  \"model_type\": \"llama\",\n  \"hidden_size\": 4096,\n  \"num_hidden_layers\": 32,\n"
    "  \"num_attention_heads\": 32,\n  \"intermediate_size\": 11008,\n  \"vocab_size\": 32000";
}  // namespace

TEST_CASE("hf_config: an unknown model_type is refused at its value naming family:", "[hf]") {
  const std::string m =
      first_error(R"({"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "vocab_size": 50257})");
  CHECK(m.rfind("F:1:16: error: hf_config.model_type: 'gpt2' is not a supported family (llama,", 0) == 0);
  CHECK(m.find("family: llama}") != std::string::npos);
  CHECK(first_error(R"({"hidden_size": 8})")
            .rfind("F:1:1: error: hf_config: the config has no model_type", 0) == 0);
  CHECK(first_error(R"({"model_type": 7})") ==
        "F:1:2: error: hf_config.model_type: expected a string, found 7");
}

TEST_CASE("hf_config: missing fields and the schema's checks located at the JSON key", "[hf]") {
  CHECK(first_error(
            "{\n  \"model_type\": \"llama\",\n  \"hidden_size\": 4096,\n  \"num_hidden_layers\": 32\n}") ==
        "F:1:1: error: hf_config: the llama config lacks num_attention_heads, intermediate_size and "
        "vocab_size, "
        "which Tessera needs");
  CHECK(first_error(kLlama + ",\n  \"num_key_value_heads\": 5\n}") ==
        "F:8:3: error: model.kv_heads: expected a divisor of heads (32, grouped-query attention), found 5");
  CHECK(first_error(kLlama + "\n}") == "(loaded)");
}

TEST_CASE("hf_config: null zero negative fractional and huge values are refused at their key", "[hf]") {
  CHECK(
      first_error(kLlama + ",\n  \"num_key_value_heads\": null\n}") ==
      "F:8:3: error: hf_config.num_key_value_heads: expected a positive integer (at most 2^53-1), found null "
      "(Tessera does not guess what a null stands for: give the value)");
  CHECK(first_error(kLlama + ",\n  \"head_dim\": 0}")
            .rfind("F:8:3: error: hf_config.head_dim: expected a positive integer (at most 2^53-1), found 0",
                   0) == 0);
  CHECK(first_error(kLlama + ", \"head_dim\": -128}").find("found -128") != std::string::npos);
  CHECK(first_error(kLlama + ", \"head_dim\": 12.5}").find("found 12.5") != std::string::npos);
  CHECK(first_error(kLlama + ", \"head_dim\": 18446744073709551615}").find("found 18446744073709551615") !=
        std::string::npos);
  CHECK(first_error(kLlama + ", \"head_dim\": 9007199254740992}").find("found 9007199254740992") !=
        std::string::npos);
  CHECK(first_error(kLlama + ", \"tie_word_embeddings\": null}") ==
        "F:7:24: error: hf_config.tie_word_embeddings: expected true or false, found null");
  // A DeepSeek config with `n_routed_experts: null` is not silently dense.
  std::ifstream in(kSrc + "/tests/fixtures/hf/deepseek-v3/config.json");
  std::string ds((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string key = "\"n_routed_experts\": 256";
  REQUIRE(ds.find(key) != std::string::npos);
  ds.replace(ds.find(key), key.size(), "\"n_routed_experts\": null");
  CHECK(first_error(ds).find("error: hf_config.n_routed_experts: expected a positive integer") !=
        std::string::npos);
  // Qwen2-MoE with moe_intermediate_size 0 and a shared expert: refused, no division by zero.
  CHECK(first_error(R"({"model_type": "qwen2_moe", "num_hidden_layers": 2, "hidden_size": 64,
  "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100, "num_experts": 4,
  "num_experts_per_tok": 2, "moe_intermediate_size": 0, "shared_expert_intermediate_size": 128})")
            .rfind("F:3:29: error: hf_config.moe_intermediate_size: expected a positive integer", 0) == 0);
}

TEST_CASE("hf_config: JSON problems located - duplicate keys 1e400 depth and string size refused", "[hf]") {
  CHECK(first_error(kLlama + ",\n  \"vocab_size\": 32001\n}") ==
        "F:8:3: error: hf_config: duplicate key \"vocab_size\" (first at line 7, column 3); JSON readers "
        "disagree "
        "on which one counts, so Tessera refuses both");
  CHECK(first_error(kLlama + ",\n  \"rope_theta\": 1e400\n}") ==
        "F:8:17: error: hf_config: the number 1e400 is out of range (beyond a double, about 1.8e308)");
  CHECK(first_error("{\"model_type\": \"llama\", \"hidden_size\": 40")
            .rfind("F:1:42: error: malformed JSON: ", 0) == 0);
  CHECK(first_error("{\"a\": [1, 2,, 3]}").rfind("F:1:13: error: malformed JSON: syntax error", 0) == 0);
  const std::string deep = kLlama + ", \"x\": " + std::string(100, '[') + std::string(100, ']') + "}";
  CHECK(first_error(deep).find("exceeds the limit yaml.depth (64); raise it with --limit yaml.depth=N") !=
        std::string::npos);
  const std::string big = kLlama + ", \"x\": \"" + std::string(70000, 'a') + "\"}";
  CHECK(first_error(big) ==
        "F:7:29: error: hf_config: a JSON string of 70000 bytes exceeds the limit scalar.bytes (65536); "
        "raise it "
        "with --limit scalar.bytes=N");
  CHECK(first_error("[1, 2]") ==
        "F:1:1: error: hf_config: expected a JSON object (a Hugging Face config.json), "
        "found a list");
  CHECK(first_error("").rfind("F:1:1: error: malformed JSON", 0) == 0);
}

TEST_CASE("hf_config in a scenario: family: reads an unknown model_type by a supported family's rules",
          "[hf]") {
  const fs::path dir = fs::temp_directory_path() / "tessera-hf-family";
  fs::create_directories(dir);
  {
    std::ofstream(dir / "config.json")
        << R"({"model_type": "my_llama", "num_hidden_layers": 4, "hidden_size": 512, "num_attention_heads": 8,
           "intermediate_size": 1024, "vocab_size": 1000})";
  }
  const auto scenario =
      [&](const std::string& model) {
        std::ofstream(dir / "s.yaml")
            << "schema_version: 1\nkind: scenario\nmodel: " << model << "\nmachine: " << TESSERA_TEST_DIR
            << "/fixtures/data/machines/tiny-cube.yaml\nworkload: {mode: decode, context: 1K}\n";
        return (dir / "s.yaml").string();
      };
  const Scenario s = load_scenario(scenario("{hf_config: config.json, family: llama}"), LoadOptions{});
  CHECK(s.model.layers == 4);
  CHECK(s.model.kv_heads == 8);
  CHECK_THROWS_WITH(load_scenario(scenario("{hf_config: config.json}"), LoadOptions{}),
                    Catch::Contains("'my_llama' is not a supported family"));
  CHECK_THROWS_WITH(
      load_scenario(scenario("{hf_config: config.json, family: lama}"), LoadOptions{}),
      Catch::Contains("s.yaml:3:41: error: model.family: 'lama' is not a supported family (did you mean "
                      "'llama' or 'llama4'?)"));
  {
    std::ofstream(dir / "config.json")
        << R"({"model_type": "qwen2", "num_hidden_layers": 4, "hidden_size": 512, "num_attention_heads": 8,
           "intermediate_size": 1024, "vocab_size": 1000})";
  }
  CHECK_THROWS_WITH(load_scenario(scenario("{hf_config: config.json, family: llama}"), LoadOptions{}),
                    Catch::Contains("model.family: 'llama' contradicts the config's model_type 'qwen2'"));
  {
    std::ofstream(dir / "config.json")
        << R"({"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "vocab_size": 50257})";
  }
  CHECK_THROWS_WITH(
      load_scenario(scenario("{hf_config: config.json, family: llama}"), LoadOptions{}),
      Catch::Contains("config.json:1:1: error: hf_config: the 'gpt2' config read as llama lacks "
                      "num_hidden_layers, hidden_size, num_attention_heads and intermediate_size"));
  CHECK_THROWS_WITH(load_scenario(scenario("{hf_config: config.json, famly: llama}"), LoadOptions{}),
                    Catch::Contains("did you mean 'family'?"));
  fs::remove_all(dir);
}

TEST_CASE("json_tree: a tree as deep as a raised yaml.depth is built and freed without recursion", "[hf]") {
  const Limits saved = current_limits();
  Limits l = saved;
  l.yaml_depth = 400000;
  set_limits(l);
  {
    loader::Diags d;
    const std::string text = std::string(300000, '[') + std::string(300000, ']');
    auto tree = loader::parse_json_text(text, "deep.json", d);
    CHECK(d.empty());
    REQUIRE(tree);
    CHECK(tree->is_array());
  }  // freed here: a recursive destructor would overflow the stack
  set_limits(saved);
}

namespace {
ModelSpec hf_fixture(const std::string& folder) {
  return load_model_file(kSrc + "/tests/fixtures/hf/" + folder + "/config.json");
}

// A model from config text (the file is written to a fresh temporary folder).
ModelSpec hf_text(const std::string& json) {
  const tessera::test::TempDir dir;  // its own folder: test cases run in parallel processes
  { std::ofstream(dir / "config.json", std::ios::binary) << json; }
  return load_model_file(dir / "config.json");
}
}  // namespace

// Falcon (modeling_falcon.py): KV heads from new_decoder_architecture / multi_query /
// num_kv_heads, a plain GELU MLP of ffn_hidden_size (default 4 x hidden_size), `bias` on every
// linear layer, parallel when new_decoder_architecture or parallel_attn (default true), tied
// embeddings unless tie_word_embeddings says otherwise (PretrainedConfig's default).
TEST_CASE("hf_config falcon: Falcon-7B multi-query and Falcon-40B grouped KV heads - parallel blocks",
          "[hf][parallel_block]") {
  const ModelSpec f7 = hf_fixture("falcon-7b");
  CHECK(f7.name == "falcon-7b");
  CHECK(f7.layers == 32);
  CHECK(f7.hidden == 4544);
  CHECK(f7.heads == 71);
  CHECK(f7.kv_heads == 1);    // multi_query, old decoder architecture
  CHECK(f7.head_dim == 64);   // 4544 / 71
  CHECK(f7.ffn == 4 * 4544);  // no ffn_hidden_size: 4 x hidden
  CHECK(f7.ffn_kind == FfnKind::plain);
  CHECK(f7.vocab == 65024);
  CHECK(f7.tied_embeddings);  // no tie_word_embeddings: tied
  CHECK_FALSE(f7.attention_bias);
  CHECK_FALSE(f7.mlp_bias);
  CHECK(f7.parallel_block);  // parallel_attn true
  // 32 x (4544*(4544 + 2*64) + 4544^2 + 2*4544*18176) + 65024*4544 + norms (32*2*2*4544 +
  // 2*4544; the count adds (2L+1)*H) -> about 6.92e9, the published "7B" (tied).
  CHECK(params_total(f7) == Approx(6.92e9).epsilon(0.01));

  const ModelSpec f40 = hf_fixture("falcon-40b");
  CHECK(f40.layers == 60);
  CHECK(f40.hidden == 8192);
  CHECK(f40.heads == 128);
  CHECK(f40.kv_heads == 8);  // new_decoder_architecture: num_kv_heads
  CHECK(f40.head_dim == 64);
  CHECK(f40.ffn == 32768);
  CHECK(f40.parallel_block);

  const ModelSpec f180 = hf_fixture("falcon-180b");
  CHECK(f180.kv_heads == 8);  // multi_query is true there too, but the new architecture wins
  CHECK(f180.ffn == 59392);
  CHECK(f180.parallel_block);
  CHECK_FALSE(f180.tied_embeddings);
}

TEST_CASE("hf_config falcon: sequential blocks multi-head attention ffn_hidden_size and bias",
          "[hf][parallel_block]") {
  // Falcon-RW-style: old architecture, parallel_attn false, multi_query false -> MHA, sequential.
  const ModelSpec rw = hf_text(R"({"model_type": "falcon", "num_hidden_layers": 24, "hidden_size": 2048,
    "num_attention_heads": 32, "vocab_size": 50304, "multi_query": false, "parallel_attn": false,
    "new_decoder_architecture": false, "alibi": true, "bias": true, "ffn_hidden_size": 6144,
    "tie_word_embeddings": false})");
  CHECK(rw.kv_heads == 32);
  CHECK(rw.ffn == 6144);
  CHECK_FALSE(rw.parallel_block);
  CHECK(rw.attention_bias);
  CHECK(rw.mlp_bias);
  CHECK_FALSE(rw.tied_embeddings);
  // new_decoder_architecture is parallel whatever parallel_attn says (FalconDecoderLayer).
  const ModelSpec nda = hf_text(R"({"model_type": "falcon", "num_hidden_layers": 2, "hidden_size": 512,
    "num_attention_heads": 8, "num_kv_heads": 2, "vocab_size": 1000, "new_decoder_architecture": true,
    "parallel_attn": false})");
  CHECK(nda.parallel_block);
  CHECK(nda.kv_heads == 2);
  // ffn_hidden_size null: 4 x hidden_size, as FalconConfig documents.
  CHECK(hf_text(R"({"model_type": "falcon", "num_hidden_layers": 2, "hidden_size": 512,
    "num_attention_heads": 8, "vocab_size": 1000, "ffn_hidden_size": null})")
            .ffn == 2048);
  CHECK(first_error(R"({"model_type": "falcon", "num_hidden_layers": 2, "hidden_size": 512,
    "num_attention_heads": 8, "vocab_size": 1000, "parallel_attn": "yes"})") ==
        "F:2:51: error: hf_config.parallel_attn: expected true or false, found \"yes\"");
  CHECK(first_error(R"({"model_type": "falcon", "num_hidden_layers": 2, "hidden_size": 512,
    "num_attention_heads": 8, "vocab_size": 1000, "new_decoder_architecture": true, "num_kv_heads": 3})") ==
        "F:2:85: error: model.kv_heads: expected a divisor of heads (8, grouped-query attention), found 3");
}

// GPT-J (modeling_gptj.py): always parallel; n_layer/n_embd/n_head; n_inner null -> 4 x n_embd.
// The fixture is also matched against models/gpt-j-6b.yaml by the first test case.
TEST_CASE("hf_config gptj: GPT-J-6B and n_inner rotary_dim", "[hf][parallel_block]") {
  const ModelSpec j = hf_fixture("gpt-j-6b");
  CHECK(j.layers == 28);
  CHECK(j.hidden == 4096);
  CHECK(j.heads == 16);
  CHECK(j.kv_heads == 16);
  CHECK(j.head_dim == 256);
  CHECK(j.ffn == 16384);
  CHECK(j.ffn_kind == FfnKind::plain);
  CHECK_FALSE(j.attention_bias);
  CHECK(j.mlp_bias);
  CHECK(j.parallel_block);
  CHECK(hf_text(R"({"model_type": "gptj", "n_layer": 2, "n_embd": 512, "n_head": 8, "n_inner": 1000,
    "vocab_size": 100})")
            .ffn == 1000);
  CHECK(first_error(R"({"model_type": "gptj", "n_layer": 2, "n_embd": 512, "n_head": 8,
    "vocab_size": 100, "rotary_dim": 65})") ==
        "F:2:24: error: hf_config.rotary_dim: expected at most the head dimension n_embd / n_head (64), "
        "found 65");
  CHECK(first_error(R"({"model_type": "gptj", "n_embd": 512, "n_head": 8, "vocab_size": 100})") ==
        "F:1:1: error: hf_config: the gptj config lacks n_layer, which Tessera needs");
}

// GPT-NeoX (modeling_gpt_neox.py): use_parallel_residual (default true); attention_bias
// (default true); MLP biases always; plain MLP of intermediate_size.
TEST_CASE("hf_config gpt_neox: GPT-NeoX-20B and use_parallel_residual", "[hf][parallel_block]") {
  const ModelSpec x = hf_fixture("gpt-neox-20b");
  CHECK(x.layers == 44);
  CHECK(x.hidden == 6144);
  CHECK(x.heads == 64);
  CHECK(x.kv_heads == 64);
  CHECK(x.head_dim == 96);
  CHECK(x.ffn == 24576);
  CHECK(x.ffn_kind == FfnKind::plain);
  CHECK(x.attention_bias);
  CHECK(x.mlp_bias);
  CHECK_FALSE(x.tied_embeddings);
  CHECK(x.parallel_block);
  // EleutherAI's model card: 20,554,567,680 parameters; 44 x (4*6144^2 + 2*6144*24576 + biases)
  // + 2*50432*6144 + norms.
  CHECK(params_total(x) == Approx(20554567680.0).epsilon(0.001));
  const ModelSpec seq = hf_text(R"({"model_type": "gpt_neox", "num_hidden_layers": 2, "hidden_size": 512,
    "num_attention_heads": 8, "intermediate_size": 2048, "vocab_size": 1000,
    "use_parallel_residual": false, "attention_bias": false})");
  CHECK_FALSE(seq.parallel_block);
  CHECK_FALSE(seq.attention_bias);
  CHECK(seq.mlp_bias);
}

TEST_CASE("model file: parallel_block defaults to false and is read as a bool", "[hf][parallel_block]") {
  CHECK_FALSE(load_model_file(kSrc + "/models/llama3.1-70b.yaml").parallel_block);
  CHECK(load_model_file(kSrc + "/models/falcon-180b.yaml").parallel_block);
  CHECK(load_model_file(kSrc + "/models/gpt-j-6b.yaml").parallel_block);
}

// gpt-oss (modeling_gpt_oss.py): layer_types, sliding_window, sinks, expert and router biases.
TEST_CASE("hf_config gpt_oss: layer_types read and refused at the entry", "[hf][layers]") {
  const ModelSpec m = hf_fixture("gpt-oss-20b");
  CHECK(m.layers == 24);
  CHECK(m.layer_types.size() == 24);
  CHECK(m.layer_types[0] == AttentionKind::sliding);
  CHECK(m.layer_types[1] == AttentionKind::full);
  CHECK(m.layers_of(AttentionKind::sliding) == 12);
  CHECK(m.attention.sliding_window == 128);
  CHECK(m.attention.sinks);
  CHECK(m.moe.router_bias);
  CHECK(m.mlp_bias);
  CHECK(m.attention_bias);
  CHECK(m.moe.experts == 32);
  CHECK(m.moe.top_k == 4);
  CHECK(m.moe.expert_ffn == 2880);
  const std::string head =
      "{\"model_type\": \"gpt_oss\", \"num_hidden_layers\": 2, \"hidden_size\": 64, \"num_attention_heads\": "
      "4,"
      " \"num_key_value_heads\": 2, \"head_dim\": 16, \"intermediate_size\": 64, \"vocab_size\": 100,"
      " \"num_local_experts\": 4, \"num_experts_per_tok\": 2, \"sliding_window\": 8,\n";
  CHECK(first_error(head + " \"layer_types\": [\"sliding_attention\", \"full_attention\"]}") == "(loaded)");
  // A kind Tessera does not model, at its entry; a list of the wrong length, at the list.
  CHECK(first_error(head + " \"layer_types\": [\"linear_attention\", \"full_attention\"]}") ==
        "F:2:18: error: hf_config.layer_types[0]: expected full_attention or sliding_attention (the kinds "
        "Tessera models for gpt_oss), found \"linear_attention\"");
  CHECK(first_error(head + " \"layer_types\": [\"sliding_attention\"]}")
            .rfind(
                "F:2:2: error: model.layer_types: expected one attention kind per layer (layers: 2), found 1",
                0) == 0);
  CHECK(first_error(head + " \"x\": 1}").find("lacks layer_types") != std::string::npos);
}

// Which layers run the experts, as the transformers modelling files decide it: Qwen-MoE
// (modeling_qwen3_moe.py) layer i unless in mlp_only_layers and only when (i + 1) is a multiple of
// decoder_sparse_step; DeepSeek (modeling_deepseek.py) i >= first_k_dense_replace and i a multiple
// of moe_layer_freq. Leading dense layers stay moe.dense_layers; any other order is ffn_types.
TEST_CASE("hf_config: the MoE layers of decoder_sparse_step mlp_only_layers and moe_layer_freq",
          "[hf][ffn]") {
  const std::string qwen =
      "{\"model_type\": \"qwen3_moe\", \"hidden_size\": 1024, \"num_hidden_layers\": 6, "
      "\"num_attention_heads\": 8, \"num_key_value_heads\": 2, \"head_dim\": 128, \"intermediate_size\": "
      "4096, \"vocab_size\": 32000, \"num_experts\": 16, \"num_experts_per_tok\": 2, "
      "\"moe_intermediate_size\": 512";
  const auto kinds = [](const ModelSpec& m) {
    std::string s;
    for (const LayerFfn f : m.ffn_types) s += f == LayerFfn::moe ? 'm' : 'd';
    return s;
  };
  ModelSpec m = hf_text(qwen + ", \"decoder_sparse_step\": 2}");
  CHECK(kinds(m) == "dmdmdm");
  CHECK(m.moe_layers() == 3);
  m = hf_text(qwen + ", \"mlp_only_layers\": [0, 4]}");
  CHECK(kinds(m) == "dmmmdm");
  m = hf_text(qwen + ", \"mlp_only_layers\": [0, 1], \"decoder_sparse_step\": 1}");
  CHECK(m.ffn_types.empty());  // leading dense layers: moe.dense_layers, as before
  CHECK(m.moe.dense_layers == 2);
  CHECK(first_error(qwen + ", \"mlp_only_layers\": [0, 6]}")
            .find("error: hf_config.mlp_only_layers[1]: expected a layer index in [0, num_hidden_layers), "
                  "found 6") != std::string::npos);
  // No layer runs the experts: a dense model, as transformers builds it.
  m = hf_text(qwen + ", \"decoder_sparse_step\": 7}");
  CHECK_FALSE(m.has_moe);
  CHECK(m.ffn_types.empty());
  // A layer count past model.dimension is refused by the limit, before any per-layer rule walks it.
  CHECK(first_error(
            "{\"model_type\": \"qwen3_moe\", \"hidden_size\": 1024, \"num_hidden_layers\": "
            "9007199254740991, \"num_attention_heads\": 8, \"num_key_value_heads\": 2, \"head_dim\": 128, "
            "\"intermediate_size\": 4096, \"vocab_size\": 32000, \"num_experts\": 16, "
            "\"num_experts_per_tok\": 2, \"moe_intermediate_size\": 512, \"decoder_sparse_step\": 2}")
            .find("exceeds the limit model.dimension") != std::string::npos);

  ModelSpec v3 = hf_fixture("deepseek-v3");
  CHECK(v3.ffn_types.empty());
  CHECK(v3.moe.dense_layers == 3);
  const std::string text = [] {
    std::ifstream in(kSrc + "/tests/fixtures/hf/deepseek-v3/config.json");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }();
  std::string every_second = text;
  every_second.replace(every_second.find("\"moe_layer_freq\": 1"), 19, "\"moe_layer_freq\": 2");
  const ModelSpec half = hf_text(every_second);
  REQUIRE(half.ffn_types.size() == 61);
  CHECK(kinds(half).substr(0, 8) == "ddddmdmd");  // layers 0-2 dense, then every even layer
  CHECK(half.moe_layers() == 29);                 // 4, 6, ..., 60
}

// Llama 4 and Gemma 3 (their text_config), as modeling_llama4.py and modeling_gemma3.py decide
// each layer's attention when the config does not list layer_types.
TEST_CASE("hf_config llama4 and gemma3: text_config and the layer rules", "[hf][layers]") {
  const std::string text =
      "\"hidden_size\": 1024, \"num_hidden_layers\": 8, \"num_attention_heads\": 8, \"num_key_value_heads\": "
      "2, \"head_dim\": 128, \"vocab_size\": 32000";
  const std::string llama4 = "{\"model_type\": \"llama4\", \"text_config\": {" + text +
                             ", \"intermediate_size\": 512, \"intermediate_size_mlp\": 4096, "
                             "\"num_local_experts\": 4, \"num_experts_per_tok\": 1";
  const auto kinds = [](const ModelSpec& m) {
    std::string s;
    for (const AttentionKind k : m.layer_types)
      s += k == AttentionKind::full ? 'f' : k == AttentionKind::chunked ? 'c' : 's';
    return s;
  };
  ModelSpec m = hf_text(llama4 + ", \"attention_chunk_size\": 256, \"interleave_moe_layer_step\": 2}}");
  CHECK(kinds(m) == "cccfcccf");
  CHECK(m.attention.chunk == 256);
  CHECK(m.ffn == 4096);
  CHECK(m.moe.expert_ffn == 512);
  CHECK(m.moe.shared_experts == 1);
  CHECK(m.moe_layers() == 4);  // layers 1, 3, 5, 7
  REQUIRE(m.ffn_types.size() == 8);
  CHECK(m.ffn_types[0] == LayerFfn::dense);
  CHECK(m.ffn_types[1] == LayerFfn::moe);
  m = hf_text(llama4 + ", \"attention_chunk_size\": 256, \"no_rope_layers\": [1, 0, 1, 1, 1, 1, 1, 0]}}");
  CHECK(kinds(m) == "cfcccccf");
  m = hf_text(llama4 + "}}");  // no attention_chunk_size: every layer full
  CHECK(m.layer_types.empty());
  CHECK(first_error("{\"model_type\": \"llama4\", \"text_config\": 3}")
            .find("error: hf_config.text_config: expected the language model's fields (a JSON object) in a "
                  "llama4 config, found") != std::string::npos);

  const std::string gemma =
      "{\"model_type\": \"gemma3\", \"text_config\": {" + text +
      ", \"intermediate_size\": 4096, \"sliding_window\": 512, \"sliding_window_pattern\": 4}}";
  m = hf_text(gemma);
  CHECK(kinds(m) == "sssfsssf");
  CHECK(m.attention.sliding_window == 512);
  CHECK(m.tied_embeddings);  // Gemma ties the LM head to the embedding
}

TEST_CASE("hf_config: the edges of the Qwen3-Next and Nemotron-H families", "[hf]") {
  const std::string qwen =
      R"({"model_type": "qwen3_next", "num_hidden_layers": 4, "hidden_size": 256, "num_attention_heads": 4,
 "num_key_value_heads": 2, "head_dim": 64, "intermediate_size": 512, "vocab_size": 1000,
 "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 64,
 "linear_num_key_heads": 2, "linear_num_value_heads": 4, "linear_key_head_dim": 32,
 "linear_value_head_dim": 32)";
  // Every layer full attention: no linear layer, so no linear_attention block to refuse.
  const ModelSpec all_full = hf_text(qwen + R"(, "layer_types": ["full_attention", "full_attention",
 "full_attention", "full_attention"]})");
  CHECK(all_full.layers_of(AttentionKind::full) == 4);
  CHECK(all_full.attention.output_gate);
  // The default interval: every fourth layer full, the others Gated DeltaNet.
  const ModelSpec mixed = hf_text(qwen + "}");
  CHECK(mixed.layers_of(AttentionKind::linear) == 3);
  CHECK(mixed.linear.chunk == 64);  // the field table's default
  // Python's NaN or infinity at a key Tessera reads is refused there, not read as null.
  // After a NaN earlier on the same line too (the NaN's null moves the line's rest by a column).
  CHECK(first_error(qwen + R"(, "x": NaN, "linear_conv_kernel_dim": Infinity})")
            .find("hf_config.linear_conv_kernel_dim: expected a positive integer (at most 2^53-1), found "
                  "Infinity") != std::string::npos);
  CHECK(first_error(qwen + R"(, "linear_conv_kernel_dim": NaN})") ==
        "F:5:31: error: hf_config.linear_conv_kernel_dim: expected a positive integer (at most 2^53-1), "
        "found NaN");
  // Nemotron-H's pattern: a character Tessera does not model, then a wrong length.
  const std::string nem =
      R"({"model_type": "nemotron_h", "num_hidden_layers": 3, "hidden_size": 256, "num_attention_heads": 4,
 "num_key_value_heads": 2, "attention_head_dim": 64, "intermediate_size": 512, "vocab_size": 1000,
 "mamba_num_heads": 8, "mamba_head_dim": 32, "ssm_state_size": 16, "n_groups": 2,
 "time_step_limit": [0.0, Infinity], )";
  CHECK(first_error(nem + R"("hybrid_override_pattern": "M\u00e9-"})")
            .find("hf_config.hybrid_override_pattern[1]: expected M (Mamba-2), * (attention) or - (MLP), the "
                  "layers Tessera models, found a non-ASCII byte") != std::string::npos);
  CHECK(first_error(nem + R"("hybrid_override_pattern": "M-"})")
            .find("hf_config.hybrid_override_pattern: expected one of M, * and - per layer (3, "
                  "num_hidden_layers), found 2") != std::string::npos);
  // An attention-and-MLP pattern without M has no mamba block to refuse.
  const ModelSpec no_mamba = hf_text(nem + R"("hybrid_override_pattern": "*--"})");
  CHECK(no_mamba.layers_of(AttentionKind::mamba) == 0);
  CHECK(no_mamba.ffn_free_layers() == 1);
  const ModelSpec m3 = hf_text(nem + R"("hybrid_override_pattern": "M*-"})");
  CHECK(m3.mamba.groups == 2);
  CHECK(m3.mamba.chunk == 256);  // no chunk_size: the field table's default
  CHECK(m3.dtype.state == DType::fp32);
}
