// A machine family name is text from a file, and `tessera calibrate` writes it into its YAML
// block (--out) and band file (--bands) (once `=1+1` became a spreadsheet formula, a newline
// injected a YAML key): a name outside the family character set is refused where it is read,
// and the writers quote (YAML, RFC 4180) and neutralise formula cells whatever they are given.
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "../outputs/output_test_util.hpp"
#include "analysis/calibration/calibration_study.hpp"
#include "analysis/calibration/error_bands.hpp"
#include "report/study_text/calibration_report.hpp"
#include "tessera/error.hpp"
#include "tessera_build_paths.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_calibrate_family_text {

using namespace tessera;
using namespace tessera::calibration;
using Catch::Matchers::Contains;

namespace {

const char* kHostile[] = {"=1+1", "x\nkernel_overhead: 1 s", "-2,\"q\"", "@SUM(A1)", "\tfamily: y", "a # b",
                          "null"};

Calibration with_family(const std::string& family, const std::string& framework) {
  Calibration c;
  c.latency = "calibrated";
  c.fit.values.push_back({ParamOwner::family, family, "gemm_efficiency", 0.7, false});
  calibration::Band b;
  b.latency = "calibrated";
  b.family = family;
  b.framework = framework;
  b.fold = "leave-one-source-out";
  b.rows = 9;
  b.sources = 2;
  b.p10 = -0.1;
  c.bands.push_back(b);
  return c;
}

std::string message_of(const calibration::FitRowOptions& o) {
  try {
    load_fit_rows(o);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("calibrate: a hostile family name stays one YAML value", "[calibrate]") {
  for (const char* family : kHostile) {
    INFO(family);
    const Calibration c = with_family(family, "vllm");
    const YAML::Node block = YAML::Load(family_block_yaml(c, family));
    REQUIRE(block.IsMap());
    CHECK(block.size() == 1);  // `efficiency:` alone: no key injected
    CHECK(block["efficiency"]["family"].as<std::string>() == family);
    CHECK(block["efficiency"].size() == 2);  // family and gemm_efficiency
    const YAML::Node blocks = YAML::Load(family_blocks_yaml(c));
    CHECK(blocks.size() == 1);
    CHECK(blocks["efficiency"]["family"].as<std::string>() == family);
  }
  // Plain names stay plain (the shipped machine files' families).
  CHECK_THAT(family_block_yaml(with_family("H100/H200", "vllm"), "H100/H200"),
             Contains("  family: H100/H200\n"));
}

TEST_CASE("calibrate: hostile names in the band file are quoted cells and never formulas", "[calibrate]") {
  for (const char* family : kHostile) {
    INFO(family);
    const Calibration c = with_family(family, "=HYPERLINK(\"x\")");
    const std::string text = bands_csv(c, "tessera calibrate x.csv --exclude-notes 'a\n=1+1,b'");
    const BandTable t = parse_band_table(text, "bands.csv");
    REQUIRE(t.rows.size() == 1);  // one band, one row: nothing broke a row or added one
    const BandRow& r = t.rows[0];
    const std::string f = family;
    const bool formula = !f.empty() && std::string("=+-@\t\r").find(f.front()) != std::string::npos;
    CHECK(r.family == (formula ? "'" + f : f));
    CHECK(r.framework == "'=HYPERLINK(\"x\")");
    CHECK(r.rows == 9);
    CHECK(r.p10_ln == -0.1);
    CHECK(t.generated_by.find('\n') == std::string::npos);  // the command stays on its comment line
  }
}

TEST_CASE("calibrate: a family name outside the character set is refused where it is read", "[calibrate]") {
  const std::string root = TESSERA_SOURCE_DIR;
  test::TempDir dir;
  // A machine whose block names a hostile family, and one H200 GEMM row mapped to it.
  std::ofstream(dir / "m.yaml") << "schema_version: 1\nkind: machine\nname: m\npe:\n  name: pe\n"
                                   "  flops: {bf16: 100 TFLOP/s}\n"
                                   "  hbm: {capacity: 16 GB, bandwidth: 1 TB/s, usable: 0.9}\n"
                                   "levels:\n  - {name: node, fanout: 8, link_bw: 400 GB/s, latency: 0.1 us, "
                                   "topology: all-to-all}\n"
                                   "efficiency:\n  family: \"=1+1\\nkernel_overhead: 1 s\"\n";
  std::ofstream(dir / "one.csv")
      << "id,source,source_locator,software,model,precision,hardware,n_devices,tp,pp,ep,batch,input_len,"
         "output_len,metric,value,unit,notes\n"
         "1,S,loc,\"PyTorch 2.11 eager (2.11.0, CUDA 13.0)\",Llama-3.1-70B,bf16,H200 SXM "
         "141GB,1,1,1,,1,,,kernel_latency,0.05,ms,"
         "\"M=1,K=8192,N=10240 ; proj=qkv\"\n";
  FitRowOptions o;
  o.target = {dir / "one.csv"};
  o.data_root = root;
  o.framework = "none";
  o.machine = dir / "m.yaml";
  const std::string m = message_of(o);
  CHECK_THAT(m, Contains(dir / "m.yaml"));
  CHECK_THAT(m, Contains("efficiency.family: '=1+1"));
  CHECK_THAT(m, Contains("is not a family name"));
  o.family = "A100,x";
  CHECK_THAT(message_of(o), Contains("--family 'A100,x' is not a family name"));
  o.family.clear();
  o.family_map = {"x,y=m"};
  CHECK_THAT(message_of(o), Contains("--family-map: 'x,y' is not a family name"));
  // The shipped families load.
  FitRowOptions shipped;
  shipped.target = {root + "/data/measurements-h200.csv"};
  shipped.data_root = root;
  CHECK_FALSE(load_fit_rows(shipped).rows.empty());
}

}  // namespace test_calibrate_family_text
