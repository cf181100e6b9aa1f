// report/html/html_report.* and report/html/web_assets.*: the page is self-contained, deterministic and
// cannot be broken out of by the data it carries.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "output_test_util.hpp"
#include "report/html/answer_sentence.hpp"
#include "report/html/html_report.hpp"
#include "tessera/error.hpp"

using nlohmann::json;
using tessera::test::TempDir;

namespace {

tessera::WebAssets fake_assets() {
  tessera::WebAssets a;
  a.vega = "/*vega*/";
  a.vega_lite = "/*vega-lite*/";
  a.vega_embed = "/*vega-embed*/";
  a.vega_version = "5.33.1";
  a.vega_lite_version = "5.23.0";
  a.vega_embed_version = "6.29.0";
  return a;
}

json result() {
  return json::parse(R"({"scenario": "evil </script><script>alert(1)</script>", "version": "0.1.0",
    "model": "M & N", "machine": "X", "latency_model": "roofline", "search": "exhaustive",
    "objectives": [{"name": "latency", "key": "latency_s"}],
    "pareto": [{"cp": 1, "tp": 2, "kv_shard_mode": "</script><b>", "objectives": {"latency_s": 0.5}}], "top": []})");
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("html report inlines the three scripts and exposes the views") {
  const std::string h = tessera::html_report(result(), "tessera run", fake_assets());
  CHECK(h.find("<script>/*vega*/") != std::string::npos);
  CHECK(h.find("<script>/*vega-lite*/") != std::string::npos);
  CHECK(h.find("<script>/*vega-embed*/") != std::string::npos);
  CHECK(h.find("window.tesseraViews") != std::string::npos);
  CHECK(h.find("id=\"view-pareto\"") != std::string::npos);
  CHECK(h.find("vega 5.33.1, vega-lite 5.23.0, vega-embed 6.29.0") != std::string::npos);
  CHECK(h.find("src=") == std::string::npos);  // nothing loaded from elsewhere
  CHECK(h.find("http://") == std::string::npos);
}

TEST_CASE("html report is the same bytes for the same result and command") {
  CHECK(tessera::html_report(result(), "tessera run x", fake_assets()) ==
        tessera::html_report(result(), "tessera run x", fake_assets()));
}

TEST_CASE("html report escapes the result's text in the header and in the inlined specs") {
  const std::string h = tessera::html_report(result(), "tessera run 'a<b'", fake_assets());
  // Exactly the page's own closing tags: 3 library scripts, the specs, the loader.
  CHECK(count(h, "</script>") == 5);
  CHECK(h.find("<h1>evil &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</h1>") != std::string::npos);
  CHECK(h.find("M &amp; N") != std::string::npos);
  CHECK(h.find("<code>tessera run &#39;a&lt;b&#39;</code>") != std::string::npos);
  CHECK(h.find("\\u003c/script>") != std::string::npos);
}

TEST_CASE("html report of a serve result draws the serving frontier") {
  json r =
      json::parse(R"({"scenario": "s", "workload": {"mode": "serve"}, "machine": {"name": "DGX", "pe": "gpu",
    "pes": 8}, "plugins": {"serving": {"name": "aggregated"}, "latency": "overlap", "memory": {"name": "standard"},
    "objectives": []}, "frontier": [{"tp": 8, "tokens_per_s_per_user": 10, "tokens_per_s_per_pe": 20}]})");
  const std::string h = tessera::html_report(r, "tessera serve s.yaml", fake_assets());
  CHECK(h.find("id=\"view-frontier\"") != std::string::npos);
  CHECK(h.find("DGX (8 x gpu)") != std::string::npos);
  CHECK(h.find("serving aggregated, latency overlap, memory standard") != std::string::npos);
}

TEST_CASE("web assets missing are an error naming the file and the set-up script") {
  TempDir dir;
  try {
    tessera::load_web_assets(dir.path().string());
    FAIL("no error");
  } catch (const tessera::Error& e) {
    const std::string m = e.what();
    CHECK(m.find(dir / "vega/build/vega.min.js") != std::string::npos);
    CHECK(m.find("scripts/install-deps.sh") != std::string::npos);
    CHECK(m.find("TESSERA_WEB_DIR") != std::string::npos);
  }
}

TEST_CASE("web assets are read with their package versions") {
  TempDir dir;
  for (const char* p : {"vega", "vega-lite", "vega-embed"}) {
    std::filesystem::create_directories(dir.path() / p / "build");
    std::ofstream(dir / (std::string(p) + "/build/" + p + ".min.js")) << "/*" << p << "*/";
    std::ofstream(dir / (std::string(p) + "/package.json"))
        << R"({"name": ")" << p << R"(", "version": "1.2.3"})";
  }
  const tessera::WebAssets a = tessera::load_web_assets(dir.path().string());
  CHECK(a.vega == "/*vega*/");
  CHECK(a.vega_embed == "/*vega-embed*/");
  CHECK(a.vega_lite_version == "1.2.3");
}

TEST_CASE("html report of two scopes has the toggle and hides the second scope's charts") {
  json r = result();
  r["scope"] = "full";
  r["by_scope"] = {{"attention", result()}};
  r["by_scope"]["attention"]["scope"] = "attention";
  const std::string h = tessera::html_report(r, "tessera run --scopes full,attention", fake_assets());
  CHECK(count(h, "name=\"tessera-scope\"") == 2);
  CHECK(count(h, "value=\"full\" checked") == 1);
  CHECK(h.find("<section id=\"chart-full-pareto\" data-configs=\"yes\" data-scope=\"full\">") !=
        std::string::npos);
  CHECK(h.find(
            "<section id=\"chart-attention-pareto\" data-configs=\"yes\" data-scope=\"attention\" hidden>") !=
        std::string::npos);
  CHECK(h.find("window.tesseraShowScope") != std::string::npos);
}

TEST_CASE("html report header names each study and its plugins") {
  const json compare = json::parse(R"({"scenario":"c","version":"v","model":"M","machine":"X",
    "models":["overlap","roofline"],"kendall":[]})");
  const std::string h = tessera::html_report(compare, "tessera compare", fake_assets());
  CHECK(h.find("<tr><th>study</th><td>tessera compare</td></tr>") != std::string::npos);
  CHECK(h.find("<tr><th>plugins</th><td>latency overlap, roofline</td></tr>") != std::string::npos);
  const json explain = json::parse(R"({"scenario":"e","version":"v","model":{"name":"Llama"},"machine":"X",
    "latency_model":"roofline","stages":[],"totals":{}})");
  const std::string e = tessera::html_report(explain, "tessera explain", fake_assets());
  CHECK(e.find("<tr><th>model</th><td>Llama</td></tr>") != std::string::npos);
  CHECK(e.find("<tr><th>plugins</th><td>latency roofline</td></tr>") != std::string::npos);
}

TEST_CASE("html report of a band with fields missing or mistyped draws its line without throwing") {
  json r = result();
  r["band"] = {{"status", "band"}};  // each field read by name, never through a missing key
  std::string h = tessera::html_report(r, "tessera report x", fake_assets());
  CHECK(h.find("latency +0 %/+0 %, throughput +0 %/+0 % (, , 0 rows held out, 0 sources, )") !=
        std::string::npos);
  r["band"]["rows"] = "many";  // was nlohmann's type_error (exit 1)
  r["band"]["sources"] = 2.0;
  h = tessera::html_report(r, "tessera report x", fake_assets());
  CHECK(h.find("0 rows held out, 2 sources") != std::string::npos);
}

// Every report opens with a sentence stating the answer, right under its title.
// Quantities in the sentence: seconds as s/ms/µs, base units (B/s, FLOP/s, B) with the SI prefix
// core/sdk/units.hpp picks, 3 significant digits, other units as they are.
TEST_CASE("html report answer quantities in human units") {
  using tessera::answer_quantity;
  CHECK(answer_quantity(0.0129, "s") == "12.9 ms");
  CHECK(answer_quantity(4.2e-5, "s") == "42 \u00b5s");
  CHECK(answer_quantity(3.35e12, "B/s") == "3.35 TB/s");
  CHECK(answer_quantity(450, "B/s") == "450 B/s");
  CHECK(answer_quantity(989e12, "FLOP/s") == "989 TFLOP/s");
  CHECK(answer_quantity(80e9, "B") == "80 GB");
  CHECK(answer_quantity(2689.4, "tokens/s") == "2689 tokens/s");
  CHECK(answer_quantity(0.5, "") == "0.5");
}

TEST_CASE("html report opens with the answer sentence of each study") {
  const auto answer = [](const json& r) {
    const std::string h = tessera::html_report(r, "tessera x", fake_assets());
    const std::string open = "<p class=\"answer\" id=\"tessera-answer\">";
    const auto at = h.find(open);
    REQUIRE(at != std::string::npos);
    CHECK(h.find("</h1>\n" + open) != std::string::npos);  // first thing after the title
    return h.substr(at + open.size(), h.find("</p>", at) - at - open.size());
  };
  json run = json::parse(R"({"scenario":"s","machine":{"name":"DGX-H100","pe":"gpu","pes":256},
    "objectives":[{"name":"latency","key":"latency_s","unit":"s"}],
    "best":{"cp":1,"tp":8,"pp":1,"dp":1,"ep":1,"pes":8,"feasible":true,"latency_s":0.0129,
            "objectives":{"latency_s":0.0129},"throughput_tok_s":77.5}})");
  CHECK(answer(run) == "Best: tp=8 on 8 gpus of DGX-H100 \u2014 latency 12.9 ms (77.5 tokens/s).");
  run["best"] = nullptr;
  CHECK(answer(run) == "No configuration is feasible: nothing to recommend (the points below say why).");
  const json serve = json::parse(R"({"scenario":"s","workload":{"mode":"serve"},
    "machine":{"name":"DGX-H100","pe":"gpu","pes":256},
    "best":{"cp":1,"tp":4,"pp":1,"dp":2,"ep":1,"batch":64,"pes":8,"tokens_per_s_per_pe":1234.4,
            "tokens_per_s_per_user":25,"ttft_s":0.2,"tpot_s":0.04}})");
  CHECK(answer(serve) ==
        "Best within the SLO: tp=4 dp=2 b=64 on 8 gpus of DGX-H100 \u2014 1234 tokens/s/gpu at "
        "25 tokens/s/user (TTFT 200 ms, TPOT 40 ms).");
  const json explore = json::parse(R"({"scenario":"s","axes":[
      {"path":"machine.pe.hbm.bandwidth","unit":"B/s","values":[1e12,2e12]}],
    "points":[{"hardware":{"machine.pe.hbm.bandwidth":1e12},"cost_USD":100,"best":{"tp":8,"latency_s":0.004}},
              {"hardware":{"machine.pe.hbm.bandwidth":2e12},"cost_USD":200,"best":{"tp":4,"latency_s":0.003}}]})");
  CHECK(answer(explore) ==
        "Fastest hardware point: pe.hbm.bandwidth 2 TB/s \u2014 latency 3 ms with tp=4, cost $200.");
  const json compare = json::parse(R"({"scenario":"c","objective":"latency","kendall":[],
    "optima":[{"latency_model":"overlap","config":{"tp":8},"latency_s":0.00685},
              {"latency_model":"roofline","config":{"tp":8,"cp":2},"latency_s":0.005}]})");
  CHECK(answer(compare) ==
        "Best by latency under each latency model: overlap: tp=8 \u2014 6.85 ms; roofline: cp=2 tp=8 \u2014 "
        "5 ms.");
  const json vd =
      json::parse(R"({"models":[{"latency":"roofline","summary":{"overall":{"median_ape":0.36}}}]})");
  CHECK(answer(vd) == "Median absolute error against the measurements: roofline 36 %.");
  // Escaped like the rest of the page.
  run["best"] = json::parse(R"({"tp":2,"pes":2,"latency_s":0.5})");
  run["machine"] = "<b>";
  CHECK(answer(run) == "Best: tp=2 on 2 PEs of &lt;b&gt; \u2014 latency 500 ms.");
}
