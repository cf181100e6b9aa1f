// Hugging Face config.json import: each fixture yields exactly the model of the matching
// models/*.yaml (dtypes bf16; the name comes from the folder).
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <filesystem>
#include <fstream>

#include "scenario/scenario_loader.hpp"

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
  CHECK(n >= 5);
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

TEST_CASE("hf_config: an unsupported architecture names what is missing", "[hf]") {
  const fs::path dir = fs::temp_directory_path() / "tessera-hf-test";
  fs::create_directories(dir);
  const std::string path = (dir / "config.json").string();
  { std::ofstream(path) << R"({"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "vocab_size": 50257})"; }
  try {
    load_model_file(path);
    FAIL("expected InputErrors");
  } catch (const InputErrors& e) {
    REQUIRE(e.diagnostics().size() == 1);
    const std::string m = e.diagnostics()[0].message;
    CHECK(m.find("unsupported architecture 'gpt2'") != std::string::npos);
    CHECK(m.find("num_hidden_layers, hidden_size, num_attention_heads and intermediate_size") !=
          std::string::npos);
  }
  {
    std::ofstream(path)
        << "{\n  \"model_type\": \"llama\",\n  \"hidden_size\": 4096,\n  \"num_hidden_layers\": 32\n}";
  }
  try {
    load_model_file(path);
    FAIL("expected InputErrors");
  } catch (const InputErrors& e) {
    CHECK(e.diagnostics()[0].message ==
          "hf_config: the llama config lacks num_attention_heads, intermediate_size and vocab_size, which "
          "Tessera "
          "needs");
  }
  {
    std::ofstream(path)
        << "{\n  \"model_type\": \"llama\",\n  \"hidden_size\": 4096,\n  \"num_hidden_layers\": 32,\n"
           "  \"num_attention_heads\": 32,\n  \"num_key_value_heads\": 5,\n"
           "  \"intermediate_size\": 11008,\n  \"vocab_size\": 32000\n}";
  }
  try {
    load_model_file(path);
    FAIL("expected InputErrors");
  } catch (const InputErrors& e) {
    // The model schema's check, located at the JSON key.
    CHECK(e.diagnostics()[0].format() == path +
                                             ":6:3: error: model.kv_heads: expected a divisor of heads (32, "
                                             "grouped-query attention), found 5");
  }
  { std::ofstream(path) << "{\"model_type\": \"llama\", \"hidden_size\": 40"; }
  CHECK_THROWS_WITH(load_model_file(path), Catch::Contains("malformed JSON"));
  fs::remove_all(dir);
}
