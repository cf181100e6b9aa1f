// Engine KV capacity (eval/engine_kv.hpp, docs/frameworks.md "KV capacity"): the published engine
// log lines of data/engine-kv-logs.csv against each framework's rule, and the admission rule.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "eval/engine_kv.hpp"
#include "eval/session.hpp"
#include "output_test_util.hpp"
#include "scenario/scenario_loader.hpp"
#include "search_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

// One CSV record: commas inside double quotes kept, "" an escaped quote.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted && ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (ch == '"') {
      quoted = !quoted;
    } else if (ch == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += ch;
    }
  }
  return out;
}

std::vector<std::map<std::string, std::string>> rows() {
  std::ifstream in(std::string(TESSERA_SOURCE_DIR) + "/data/engine-kv-logs.csv");
  std::string line;
  std::getline(in, line);
  const auto header = csv_fields(line);
  std::vector<std::map<std::string, std::string>> out;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto f = csv_fields(line);
    REQUIRE(f.size() == header.size());
    std::map<std::string, std::string> r;
    for (std::size_t i = 0; i < f.size(); ++i) r[header[i]] = f[i];
    out.push_back(std::move(r));
  }
  return out;
}

// The capacity Tessera predicts for one row: its model, machine, dtypes, framework rule and knobs,
// then `extra` engine knobs ("non_torch: 0.3 GiB"); `vocab` receives the model's vocabulary.
std::int64_t predict(const std::map<std::string, std::string>& r, const std::string& extra = "",
                     std::int64_t* vocab = nullptr) {
  std::string engine = r.at("gpu_memory_gib").empty() ? "" : "gpu_memory: " + r.at("gpu_memory_gib") + " GiB";
  std::istringstream knobs(r.at("knobs"));
  for (std::string kv; std::getline(knobs, kv, ';');) {
    const auto eq = kv.find('=');
    engine += (engine.empty() ? "" : ", ") + kv.substr(0, eq) + ": " + kv.substr(eq + 1);
  }
  if (!extra.empty()) engine += (engine.empty() ? "" : ", ") + extra;
  const std::string text =
      "schema_version: 1\nkind: scenario\nmodel: " + r.at("model") + "\nmachine: " + r.at("machine") +
      "\ndtype: {weights: " + r.at("weights") + ", kv: " + r.at("kv") +
      (r.at("lm_head_weights").empty() ? "" : ", lm_head_weights: " + r.at("lm_head_weights")) +
      "}\nworkload: {mode: serve, input: 1K, output: 1K}\nframework: " + r.at("rule") + "\nengine: {" +
      engine + "}\n";
  LoadOptions o;
  o.data_root = TESSERA_SOURCE_DIR;
  const Scenario s = load_scenario_text(text, r.at("id"), TESSERA_SOURCE_DIR, o);
  Session session(s, registry());
  if (vocab) *vocab = s.model.vocab;
  const ParallelConfig c = parse_config("tp=" + r.at("tp"), session.machine());
  Evaluation e;
  session.evaluator().layout_for(c, e);
  REQUIRE(e.layout.valid);
  const std::int64_t seqs = r.at("max_num_seqs").empty() ? 0 : std::stoll(r.at("max_num_seqs"));
  return engine_kv_capacity(session.evaluator(), s.engine_kv, c, e.layout, std::stoll(r.at("profile_tokens")),
                            seqs)
      .tokens;
}

double median(std::vector<double> v) {
  REQUIRE(!v.empty());
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

TEST_CASE("engine KV capacity against published engine log lines") {
  // Measured errors of the rules (predicted / logged - 1), per row (docs/frameworks.md "KV
  // capacity"). The vLLM 0.19.0 profile terms are medians of the v rows' own logs (in sample; the
  // next test holds each model out); SGLang's load overhead is the median of three loads, two of
  // them s2 and s4's; nothing else was tuned on a row. kv5 is bound by its max_tokens (it tests
  // that path, not the fraction); t3 tests TensorRT-LLM's fraction on a 0.6B model. kv1-kv3 are V0
  // engines of 2023-2024 scored by the 0.12.0 rule (another code path: V0 subtracted all non-torch
  // memory); kv2 and kv4 state no GPU total (A100: the machine's 80 GB; kv4: the H100's reported
  // 79.19 GiB, where SGLang multiplies the free memory after its CUDA context and NCCL init).
  const std::map<std::string, double> expected_error = {
      {"kv1", 0.0325}, {"kv2", -0.0585}, {"kv3", 0.3384},  {"kv4", 0.1158}, {"kv5", 0.0},    {"v1", -0.0003},
      {"v2", -0.0007}, {"v3", 0.0003},   {"v4", -0.0003},  {"v5", -0.0002}, {"v6", -0.0005}, {"v7", -0.0014},
      {"v8", -0.0006}, {"v9", -0.0005},  {"v10", -0.0011}, {"v12", 0.0024}, {"v13", 0.0035}, {"v14", 0.0289},
      {"v15", 0.0019}, {"s2", -0.0014},  {"s4", -0.0003},  {"t3", 0.0211}};
  std::map<std::string, int> within;  // rows within 3 % per framework
  std::size_t n = 0;
  for (const auto& r : rows()) {
    const double logged = std::stod(r.at("logged_tokens"));
    const double predicted = static_cast<double>(predict(r));
    const double error = predicted / logged - 1;
    INFO(r.at("id") << " " << r.at("framework") << " " << r.at("model") << ": predicted " << predicted
                    << ", logged " << logged << ", error " << error * 100 << " %");
    CHECK(error == Approx(expected_error.at(r.at("id"))).margin(0.001));
    if (std::abs(error) <= 0.03) ++within[r.at("framework")];
    ++n;
  }
  CHECK(n == expected_error.size());
  // The acceptance: at least two published log lines per framework within 3 %.
  CHECK(within["vllm"] >= 2);
  CHECK(within["sglang"] >= 2);
  CHECK(within["tensorrt-llm"] >= 2);
}

TEST_CASE("vLLM 0.19.0 profile terms held out by model") {
  // For each model of the vLLM 0.19.0 rows: the activation per vocabulary entry and the non-torch
  // increases (tp 1, tp > 1) as medians of the OTHER models' logged figures, then its rows
  // predicted with them. Leaving a whole model out tells how the rule does on a model it has not
  // seen: within 0.5 % on 13 rows; +4.0 % on v14, Qwen2.5-72B at tp 2, whose pool is 4 % of the
  // memory (3.04 GiB: 0.09 GiB of weights the parameter count does not explain is 3 % of it).
  std::vector<std::map<std::string, std::string>> v;
  for (const auto& r : rows())
    if (r.at("rule") == "vllm@0.19.0") v.push_back(r);
  REQUIRE(v.size() == 14);
  std::map<std::string, std::int64_t> vocab;
  for (const auto& r : v) predict(r, "", &vocab[r.at("model")]);
  for (const auto& [held, unused] : vocab) {
    std::vector<double> act, nt1, ntp;
    for (const auto& r : v) {
      if (r.at("model") == held) continue;
      // The sampler's peak per vocabulary entry and sampled sequence: min(max_num_seqs, T).
      const double sampled = std::min(std::stod(r.at("max_num_seqs")), std::stod(r.at("profile_tokens")));
      act.push_back(std::stod(r.at("logged_activation_gib")) * 1073741824.0 /
                    (static_cast<double>(vocab.at(r.at("model"))) * sampled));
      (r.at("tp") == "1" ? nt1 : ntp).push_back(std::stod(r.at("logged_non_torch_gib")));
    }
    char extra[160];
    std::snprintf(extra, sizeof extra, "sampler_bytes: %.3f B, non_torch: %.3f GiB, non_torch_tp: %.3f GiB",
                  median(act), median(nt1), median(ntp));
    for (const auto& r : v) {
      if (r.at("model") != held) continue;
      const double error = static_cast<double>(predict(r, extra)) / std::stod(r.at("logged_tokens")) - 1;
      INFO(r.at("id") << " " << held << " held out (" << extra << "): error " << error * 100 << " %");
      CHECK(std::abs(error) < (r.at("id") == "v14" ? 0.045 : 0.005));
    }
  }
}

TEST_CASE("engine admission: continuous batching at its worst moment and a static batch") {
  // Staggered: B ISL + ceil(OSL (B + 1) / 2) tokens, in blocks, plus one partly filled block each.
  CHECK(engine_worst_tokens(1, 100, 10, 1, true) == 100 + 10 + 1);
  CHECK(engine_worst_tokens(4, 1000, 100, 16, true) == ((4000 + 250 + 15) / 16 + 4) * 16);
  // Static: every sequence at ISL + OSL, rounded up to whole blocks.
  CHECK(engine_worst_tokens(4, 1000, 100, 16, false) == 4 * 1104);
  // The largest batch: 1,313,264 tokens of Llama-3.1-70B TP8 under vLLM at 4K in, 1K out.
  CHECK(engine_max_batch(1313264, 4096, 1024, 16, true) == 283);
  CHECK(engine_max_batch(1313264, 4096, 1024, 16, false) == 256);
  CHECK(engine_max_batch(100, 4096, 1024, 16, true) == 0);
}

TEST_CASE("serve --max-throughput: no SLO - the engine's KV capacity and the binding batch limit") {
  TempDir dir;
  const std::string out = dir / "out.txt";
  const std::string cmd =
      "TESSERA_PLUGIN_PATH= " + std::string(TESSERA_BINARY_DIR) + "/bin/tessera serve " +
      std::string(TESSERA_SOURCE_DIR) +
      "/scenarios/llama3.1-70b-serve-4k1k-h100.yaml --set framework=vllm --max-throughput -q > " + out +
      " 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  const std::string text = slurp(out);
  CHECK(text.find("SLO        none (every runnable point qualifies)") != std::string::npos);
  // vLLM 0.19.0 (the newest listed): 0.9 x 79.19 GiB (the H100's reported total) - 16.43 GiB of
  // weights - 0.53 GiB of activation (the forward's transient at 8192 tokens; the sampler's 256
  // sequences x 128,256 x 15.79 B = 0.48 GiB is less) - 2.10 GiB non-torch at tp 8, over 40,960 B
  // per token per GPU, in blocks of 16.
  CHECK(text.find("KV capacity 1,368,720 tokens per replica (vLLM 0.19.0 rule: 0.90 x 79.19 GiB") !=
        std::string::npos);
  CHECK(text.find("batch 256 per replica, token budget 8192; 8 gpus") != std::string::npos);
  CHECK(text.find("batch limits: max sequences 256, KV capacity 295") != std::string::npos);
  CHECK(text.find("432 tok/s/PE") != std::string::npos);
}
