// Each layer's FFN (docs/scenario-format.md `ffn_types`, `ffn_pattern`; docs/physics.md §8): a
// list equal to leading dense layers gives the same counts, stages and parameters as
// moe.dense_layers; an all-moe pattern is the model without a list; the most loaded pipeline
// stage of an alternating model, by hand; bad lists refused at their key.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <string>
#include <vector>

#include "scenario/scenario_loader.hpp"
#include "tessera/error.hpp"
#include "tessera/model.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_layer_ffn {

using namespace tessera;

namespace {

// An inline MoE model of `layers` layers with `extra` model keys (YAML flow entries, "" for none).
std::string model_yaml(int layers, const std::string& extra, const std::string& moe_extra = "") {
  return "{name: m, layers: " + std::to_string(layers) +
         ", hidden: 1024, heads: 8, kv_heads: 2, ffn: 4096, vocab: 32000, moe: {experts: 16, top_k: 2, "
         "expert_ffn: 512, shared_experts: 1" +
         moe_extra + "}" + (extra.empty() ? "" : ", " + extra) + "}";
}

ModelSpec load_model(const std::string& model) {
  const std::string src = TESSERA_SOURCE_DIR;
  const std::string text = "schema_version: 1\nkind: scenario\nname: t\nmodel: " + model +
                           "\nmachine: " + src +
                           "/machines/dgx-h100.yaml\nworkload: {mode: decode, context: 1K, batch: 1}\n";
  return load_scenario_text(text, "<layer-ffn>", src, LoadOptions{}).model;
}

std::vector<std::string> errors_of(const std::string& model) {
  std::vector<std::string> out;
  try {
    load_model(model);
  } catch (const InputErrors& e) {
    for (const auto& d : e.diagnostics()) out.push_back(d.message);
  }
  return out;
}

}  // namespace

TEST_CASE("layer FFN - a list of leading dense layers is moe.dense_layers", "[models][ffn]") {
  for (const int layers : {7, 32, 61}) {
    for (const int dense : {0, 1, 3}) {
      std::string list = "ffn_types: [";
      for (int i = 0; i < layers; ++i) list += std::string(i ? ", " : "") + (i < dense ? "dense" : "moe");
      list += "]";
      const ModelSpec a = load_model(model_yaml(layers, "", ", dense_layers: " + std::to_string(dense)));
      const ModelSpec b = load_model(model_yaml(layers, list));
      INFO(layers << " layers, " << dense << " dense");
      CHECK(b.ffn_types.size() == static_cast<std::size_t>(layers));
      CHECK(a.moe_layers() == b.moe_layers());
      CHECK(a.dense_ffn_layers() == b.dense_ffn_layers());
      CHECK(params_total(a) == params_total(b));
      CHECK(params_active(a) == params_active(b));
      // The closed form of leading dense layers and the stage walk of a list agree for every pp.
      for (int pp = 1; pp <= 9; ++pp) {
        INFO("pp " << pp);
        CHECK(a.stage_ffn_layers(LayerFfn::moe, pp) == b.stage_ffn_layers(LayerFfn::moe, pp));
        CHECK(a.stage_ffn_layers(LayerFfn::dense, pp) == b.stage_ffn_layers(LayerFfn::dense, pp));
      }
    }
  }
  // An all-moe pattern is the model without a list.
  const ModelSpec plain = load_model(model_yaml(32, ""));
  const ModelSpec all = load_model(model_yaml(32, "ffn_pattern: [moe]"));
  CHECK(all.moe_layers() == plain.moe_layers());
  CHECK(params_total(all) == params_total(plain));
}

TEST_CASE("layer FFN - an alternating model by hand", "[models][ffn]") {
  // Llama-4 Maverick's shape of FFNs: every second layer MoE, from layer 1.
  const ModelSpec m = load_model(model_yaml(48, "ffn_pattern: [dense, moe]"));
  REQUIRE(m.ffn_types.size() == 48);
  CHECK(m.ffn_types[0] == LayerFfn::dense);
  CHECK(m.ffn_types[47] == LayerFfn::moe);
  CHECK(m.moe_layers() == 24);
  CHECK(m.dense_ffn_layers() == 24);
  // pp 2: 24 layers a stage, 12 of each. pp 5: 10 a stage, 5 of each, but the last stage (40-47,
  // eight layers) is counted as full: 4 moe + 2. pp 7: 7 a stage; layers 0-6 hold 3 moe (1, 3, 5)
  // and 4 dense, layers 7-13 hold 4 moe; the last stage (42-47, six layers) 3 + 1 of each.
  CHECK(m.stage_ffn_layers(LayerFfn::moe, 2) == 12);
  CHECK(m.stage_ffn_layers(LayerFfn::moe, 5) == 6);
  CHECK(m.stage_ffn_layers(LayerFfn::moe, 7) == 4);
  CHECK(m.stage_ffn_layers(LayerFfn::dense, 7) == 4);
  // Parameters: 24 layers of the dense FFN, 24 of experts; the rest as the all-moe model.
  const ModelSpec all = load_model(model_yaml(48, ""));
  const double dense_ffn = 3.0 * 1024 * 4096;
  const double moe_block =
      16.0 * 3 * 1024 * 512 + 1.0 * 3 * 1024 * 512 + 1024.0 * 16;  // experts, shared, router
  CHECK(params_total(all) - params_total(m) == Approx(24 * (moe_block - dense_ffn)).epsilon(1e-12));
}

TEST_CASE("layer FFN - bad lists are refused at their key", "[models][ffn]") {
  auto e = errors_of(model_yaml(4, "ffn_types: [dense, moe, moe]"));
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "model.ffn_types: expected one FFN kind per layer (layers: 4), found 3");
  e = errors_of(model_yaml(4, "ffn_types: [dense, moe, mo, moe]"));
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("model.ffn_types[2]: expected one of dense, moe or none") == 0);
  e = errors_of(model_yaml(4, "ffn_pattern: [dense, moe]", ", dense_layers: 1"));
  REQUIRE(e.size() == 1);
  CHECK(e[0] ==
        "model.moe.dense_layers: give moe.dense_layers (leading dense layers) or ffn_pattern (each "
        "layer's FFN), not both");
  e = errors_of(model_yaml(4, "ffn_pattern: [dense]"));
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("model.ffn_pattern: no layer is moe") == 0);
  e = errors_of(
      "{name: m, layers: 4, hidden: 1024, heads: 8, ffn: 4096, vocab: 32000, ffn_pattern: [dense, moe]}");
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("model.ffn_pattern: a moe layer needs the model's moe block") == 0);
  e = errors_of(model_yaml(4, "ffn_types: []"));
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "model.ffn_types: expected a list of FFN kinds (dense, moe, none), found an empty list");
  // A single kind is a list of one (the field table's list rows), so it must cover the layers.
  e = errors_of(model_yaml(4, "ffn_types: dense"));
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "model.ffn_types: expected one FFN kind per layer (layers: 4), found 1");
  e = errors_of(model_yaml(4, "ffn_types: {dense: 1}"));
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("model.ffn_types: expected a list of FFN kinds (dense, moe, none)") == 0);
  CHECK(errors_of(model_yaml(4, "ffn_pattern: moe")).empty());  // every layer MoE
}

}  // namespace test_layer_ffn
