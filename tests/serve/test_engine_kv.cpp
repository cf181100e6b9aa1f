// Engine KV capacity (eval/engine_kv.hpp, docs/frameworks.md "KV capacity"): the published engine
// log lines of data/engine-kv-logs.csv against each framework's rule, and the admission rule.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

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

// The capacity Tessera predicts for one row: its model, machine, dtypes, framework rule and knobs.
std::int64_t predict(const std::map<std::string, std::string>& r) {
  std::string engine = r.at("gpu_memory_gib").empty() ? "" : "gpu_memory: " + r.at("gpu_memory_gib") + " GiB";
  std::istringstream knobs(r.at("knobs"));
  for (std::string kv; std::getline(knobs, kv, ';');) {
    const auto eq = kv.find('=');
    engine += (engine.empty() ? "" : ", ") + kv.substr(0, eq) + ": " + kv.substr(eq + 1);
  }
  const std::string text = "schema_version: 1\nkind: scenario\nmodel: " + r.at("model") +
                           "\nmachine: " + r.at("machine") + "\ndtype: {weights: " + r.at("weights") +
                           ", kv: " + r.at("kv") +
                           "}\nworkload: {mode: serve, input: 1K, output: 1K}\nframework: " + r.at("rule") +
                           "\nengine: {" + engine + "}\n";
  LoadOptions o;
  o.data_root = TESSERA_SOURCE_DIR;
  const Scenario s = load_scenario_text(text, r.at("id"), TESSERA_SOURCE_DIR, o);
  Session session(s, registry());
  const ParallelConfig c = parse_config("tp=" + r.at("tp"), session.machine());
  Evaluation e;
  session.evaluator().layout_for(c, e);
  REQUIRE(e.layout.valid);
  return engine_kv_capacity(session.evaluator(), s.engine_kv, c, e.layout, std::stoll(r.at("profile_tokens")))
      .tokens;
}

}  // namespace

TEST_CASE("engine KV capacity against published engine log lines") {
  // Measured errors of the rules (predicted / logged - 1), per row; the rows are data, not fitted:
  // nothing in the rules was tuned on them. Within 3 %: kv5 only. kv1 (+4.6 %): the 1.79 GiB of
  // non-torch memory the log shows is not modelled; kv2 (-5.6 %) and kv4 (-11.8 %): the source
  // states no GPU total, so the machine's 80 GB (74.5 GiB, where CUDA reports about 79.2 GiB)
  // applies; kv3 (+36 %): 2023 vLLM at TP 4 counted NCCL and other non-torch memory in its peak
  // (docs/frameworks.md "KV capacity", measured figures).
  const std::map<std::string, double> expected_error = {
      {"kv1", 0.0455}, {"kv2", -0.0555}, {"kv3", 0.3600}, {"kv4", -0.1183}, {"kv5", -0.0062}};
  std::size_t n = 0;
  for (const auto& r : rows()) {
    const double logged = std::stod(r.at("logged_tokens"));
    const double predicted = static_cast<double>(predict(r));
    const double error = predicted / logged - 1;
    INFO(r.at("id") << " " << r.at("framework") << " " << r.at("model") << ": predicted " << predicted
                    << ", logged " << logged << ", error " << error * 100 << " %");
    CHECK(error == Approx(expected_error.at(r.at("id"))).margin(0.005));
    ++n;
  }
  CHECK(n == 5);
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
  // 0.9 x 80 GB - 17.6 GB of weights - 0.57 GB of activations, over 40960 B per token per GPU.
  CHECK(text.find("KV capacity 1,313,264 tokens per replica (vLLM 0.12.0 rule: 0.90 x 74.51 GiB") !=
        std::string::npos);
  CHECK(text.find("batch 256 per replica, token budget 8192; 8 gpus") != std::string::npos);
  CHECK(text.find("batch limits: max sequences 256, KV capacity 283") != std::string::npos);
  CHECK(text.find("432 tok/s/PE") != std::string::npos);
}
