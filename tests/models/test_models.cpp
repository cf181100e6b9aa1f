// The shipped model library: parameter counts against published figures, and each
// Hugging Face config.json fixture read into exactly the model of its YAML file.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "scenario/scenario_loader.hpp"
#include "tessera/model.hpp"

namespace fs = std::filesystem;
using namespace tessera;

namespace {

struct Published {
  std::string file;
  double total = 0, active = 0;
  double tolerance = 0.01;  // relative; wider only where the source rounds (its source column says how)
};

std::vector<Published> published() {
  std::ifstream in(std::string(TESSERA_SOURCE_DIR) + "/tests/data/published_params.csv");
  std::vector<Published> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    Published p;
    std::string total, active, tolerance;
    std::getline(ss, p.file, ',');
    std::getline(ss, total, ',');
    std::getline(ss, active, ',');
    std::getline(ss, tolerance, ',');
    p.total = std::stod(total);
    p.active = active.empty() ? 0 : std::stod(active);
    if (!tolerance.empty()) p.tolerance = std::stod(tolerance);
    rows.push_back(p);
  }
  return rows;
}

std::string models_dir() { return std::string(TESSERA_SOURCE_DIR) + "/models/"; }

}  // namespace

TEST_CASE("every shipped model has a published parameter count", "[models]") {
  const auto rows = published();
  std::vector<std::string> listed;
  for (const auto& r : rows) listed.push_back(r.file);
  for (const auto& entry : fs::directory_iterator(models_dir())) {
    if (entry.path().extension() != ".yaml") continue;
    INFO(entry.path().filename().string());
    CHECK(std::find(listed.begin(), listed.end(), entry.path().filename().string()) != listed.end());
  }
  CHECK(rows.size() >= 15);
}

TEST_CASE("parameter counts match the published totals within 1 % (or the source's rounding)", "[models]") {
  for (const auto& r : published()) {
    const ModelSpec m = load_model_file(models_dir() + r.file);
    INFO(r.file << ": computed total " << params_total(m) << ", published " << r.total);
    CHECK(r.tolerance <= 0.05);  // a source rounded further says nothing a test can hold
    CHECK(params_total(m) == Approx(r.total).epsilon(r.tolerance));
    if (r.active > 0) {
      INFO(r.file << ": computed active " << params_active(m) << ", published " << r.active);
      CHECK(params_active(m) == Approx(r.active).epsilon(r.tolerance));
    }
  }
}

TEST_CASE("dense models touch every parameter", "[models]") {
  const ModelSpec m = load_model_file(models_dir() + "llama3.1-70b.yaml");
  CHECK(params_active(m) == Approx(params_total(m)));
  CHECK(params_total(m) == Approx(70.55e9).epsilon(0.002));
}

TEST_CASE("hand-derived Mixtral-8x7B counts", "[models]") {
  // Per layer: attention 4096*128*(32+16) + 32*128*4096 = 41,943,040; one expert 3*4096*14336
  // = 176,160,768; router 4096*8 = 32,768; norms 2*4096. 32 layers + final norm 4096 +
  // embedding and lm_head 2*32000*4096 = 262,144,000.
  const double per_layer_common = 41943040.0 + 32768.0 + 8192.0;
  const double expert = 176160768.0;
  const double total = 32 * (per_layer_common + 8 * expert) + 4096 + 262144000.0;
  const double active = 32 * (per_layer_common + 2 * expert) + 4096 + 262144000.0;
  const ModelSpec m = load_model_file(models_dir() + "mixtral-8x7b.yaml");
  CHECK(params_total(m) == Approx(total).epsilon(1e-12));
  CHECK(params_active(m) == Approx(active).epsilon(1e-12));
}

TEST_CASE("each hf_config fixture yields exactly the model of its YAML file", "[models][hf]") {
  const std::string fixtures = std::string(TESSERA_SOURCE_DIR) + "/tests/fixtures/hf/";
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(fixtures)) {
    if (!entry.is_directory()) continue;
    const std::string name = entry.path().filename().string();
    INFO(name);
    // Fixtures of checkpoints with no shipped model file (falcon-7b, falcon-40b, gpt-neox-20b;
    // tests/fixtures/hf/README.md) are checked field by field in tests/scenario/test_hf_config.cpp.
    if (!fs::exists(models_dir() + name + ".yaml")) continue;
    const ModelSpec hf = load_model_file(entry.path().string() + "/config.json");
    const ModelSpec yaml = load_model_file(models_dir() + name + ".yaml");
    CHECK(hf.layers == yaml.layers);
    CHECK(hf.hidden == yaml.hidden);
    CHECK(hf.heads == yaml.heads);
    CHECK(hf.kv_heads == yaml.kv_heads);
    CHECK(hf.head_dim == yaml.head_dim);
    CHECK(hf.ffn == yaml.ffn);
    CHECK(hf.ffn_kind == yaml.ffn_kind);
    CHECK(hf.vocab == yaml.vocab);
    CHECK(hf.tied_embeddings == yaml.tied_embeddings);
    CHECK(hf.attention_bias == yaml.attention_bias);
    CHECK(hf.mlp_bias == yaml.mlp_bias);
    CHECK(hf.parallel_block == yaml.parallel_block);
    CHECK(hf.has_moe == yaml.has_moe);
    CHECK(hf.moe.experts == yaml.moe.experts);
    CHECK(hf.moe.top_k == yaml.moe.top_k);
    CHECK(hf.moe.expert_ffn == yaml.moe.expert_ffn);
    CHECK(hf.moe.shared_experts == yaml.moe.shared_experts);
    CHECK(hf.moe.dense_layers == yaml.moe.dense_layers);
    CHECK(hf.has_mla == yaml.has_mla);
    CHECK(hf.mla.kv_lora_rank == yaml.mla.kv_lora_rank);
    CHECK(hf.mla.q_lora_rank == yaml.mla.q_lora_rank);
    CHECK(hf.mla.rope_dim == yaml.mla.rope_dim);
    CHECK(hf.mla.nope_dim == yaml.mla.nope_dim);
    CHECK(hf.mla.v_head_dim == yaml.mla.v_head_dim);
    CHECK(hf.layer_types == yaml.layer_types);
    CHECK(hf.ffn_types == yaml.ffn_types);
    CHECK(hf.attention.sliding_window == yaml.attention.sliding_window);
    CHECK(hf.attention.chunk == yaml.attention.chunk);
    CHECK(hf.attention.sinks == yaml.attention.sinks);
    CHECK(hf.moe.router_bias == yaml.moe.router_bias);
    CHECK(hf.attention.output_gate == yaml.attention.output_gate);
    CHECK(hf.sparse.index_heads == yaml.sparse.index_heads);
    CHECK(hf.sparse.index_head_dim == yaml.sparse.index_head_dim);
    CHECK(hf.sparse.top_k == yaml.sparse.top_k);
    CHECK(hf.linear.key_heads == yaml.linear.key_heads);
    CHECK(hf.linear.value_heads == yaml.linear.value_heads);
    CHECK(hf.linear.key_head_dim == yaml.linear.key_head_dim);
    CHECK(hf.linear.value_head_dim == yaml.linear.value_head_dim);
    CHECK(hf.linear.conv_kernel == yaml.linear.conv_kernel);
    CHECK(hf.linear.chunk == yaml.linear.chunk);
    CHECK(hf.mamba.heads == yaml.mamba.heads);
    CHECK(hf.mamba.head_dim == yaml.mamba.head_dim);
    CHECK(hf.mamba.state_size == yaml.mamba.state_size);
    CHECK(hf.mamba.groups == yaml.mamba.groups);
    CHECK(hf.mamba.conv_kernel == yaml.mamba.conv_kernel);
    CHECK(hf.mamba.chunk == yaml.mamba.chunk);
    CHECK(hf.dtype.state == yaml.dtype.state);
    CHECK(params_total(hf) == Approx(params_total(yaml)).epsilon(1e-12));
    CHECK(params_active(hf) == Approx(params_active(yaml)).epsilon(1e-12));
    ++checked;
  }
  CHECK(checked >= 17);
}
