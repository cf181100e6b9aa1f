// Measurement CSVs held to the YAML standard (docs/limits.md "JSON and CSV"): BOM, ragged rows,
// duplicate columns, cell and row limits, bounded counts, every diagnostic at FILE:LINE:COL;
// the GEMM/copy shape scanner that replaced std::regex.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <string>

#include "analysis/validation.hpp"
#include "core/csv.hpp"
#include "tessera/limits.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_measurement_csv {

using namespace tessera;
using namespace tessera::validation;

namespace {

const std::string kHeader =
    "id,source,source_locator,software,model,precision,hardware,n_devices,tp,pp,ep,batch,input_len,output_"
    "len,"
    "metric,value,unit,notes\n";
const std::string kRow =
    "1,S,loc,TensorRT-LLM,Llama-2-7B,fp16,A100 SXM 80GB,1,1,1,,1,128,1,ttft,7,ms,plain\n";

// The first diagnostic of parsing `text`, formatted.
std::string first_error(const std::string& text) {
  try {
    parse_measurements(text, "m.csv");
  } catch (const InputErrors& e) {
    REQUIRE(!e.diagnostics().empty());
    return e.diagnostics()[0].format();
  }
  return "(read)";
}

struct LimitGuard {
  Limits saved = current_limits();
  ~LimitGuard() { set_limits(saved); }
};

}  // namespace

TEST_CASE("measurements CSV: a UTF-8 BOM and CRLF line ends are read", "[csv]") {
  const auto rows = parse_measurements("\xEF\xBB\xBF" + kHeader + kRow, "m.csv");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].id == "1");
  CHECK(rows[0].line == 2);
  std::string crlf = kHeader + kRow;
  for (std::size_t i = crlf.find('\n'); i != std::string::npos; i = crlf.find('\n', i + 2))
    crlf.insert(i, "\r");
  const auto r2 = parse_measurements(crlf, "m.csv");
  REQUIRE(r2.size() == 1);
  CHECK(r2[0].notes == "plain");
}

TEST_CASE("measurements CSV: ragged rows are refused at their line and cell", "[csv]") {
  CHECK(first_error(kHeader + kRow + "2,S,loc,x,Llama-2-7B,fp16,A100,1,1,1,,1,128,1,ttft,7,ms,a,b\n") ==
        "m.csv:3:59: error: the row has 19 cells, the header 18 (a comma inside a cell needs the cell in "
        "double "
        "quotes)");
  CHECK(first_error(kHeader + "2,S,loc\n") == "m.csv:2:5: error: the row has 3 cells, the header 18");
  // A trailing comma is one more (empty) cell.
  CHECK(first_error(kHeader + kRow.substr(0, kRow.size() - 1) + ",\n").rfind("m.csv:2:", 0) == 0);
}

TEST_CASE("measurements CSV: duplicate and missing header columns are refused", "[csv]") {
  CHECK(first_error("id,source,id\n1,2,3\n") ==
        "m.csv:1:11: error: duplicate column 'id' (also column 1); each column of measurements.csv appears "
        "once");
  CHECK(first_error("id,value\n1,2\n").rfind("m.csv:1:1: error: missing column 'source'", 0) == 0);
  CHECK(first_error("") == "m.csv:1:1: error: empty file (expected the header of measurements.csv)");
}

TEST_CASE("measurements CSV: counts beyond 2^31-1 are refused at their cell", "[csv]") {
  // tp = pp = 2^32 once wrapped tp*pp to 0, a zero divisor.
  const std::string row =
      "1,S,loc,x,Llama-2-7B,fp16,A100 SXM 80GB,8,4294967296,4294967296,,1,128,1,ttft,7,ms,n\n";
  CHECK(first_error(kHeader + row) ==
        "m.csv:2:43: error: tp: expected a count from 1 to 2147483647, found 4294967296");
  // The mapping itself is bounded too (rows built without the reader).
  DataRow r = parse_measurements(kHeader + kRow, "m.csv")[0];
  r.tp = r.pp = "4294967296";
  r.n_devices = "8";
  const Aliases a = load_aliases(default_aliases_path(TESSERA_SOURCE_DIR));
  const RowPlan p = plan_row(r, a, TESSERA_SOURCE_DIR);
  CHECK_FALSE(p.mapped);
}

TEST_CASE("measurements CSV: the cell and row limits name themselves", "[csv]") {
  LimitGuard guard;
  CHECK(first_error(kHeader + "1,\"" + std::string(5000, 'x') + "\"\n") ==
        "m.csv:2:3: error: a cell longer than 4096 bytes exceeds the limit csv.cell_bytes (4096); raise it "
        "with "
        "--limit csv.cell_bytes=N");
  Limits l = current_limits();
  l.csv_rows = 2;
  set_limits(l);
  CHECK(parse_measurements(kHeader + kRow + kRow, "m.csv").size() == 2);
  CHECK(first_error(kHeader + kRow + kRow + kRow) ==
        "m.csv:4:1: error: more than 2 data rows exceeds the limit csv.rows (2); raise it with --limit "
        "csv.rows=N");
  CHECK(first_error(kHeader + "1,\"open\n") ==
        "m.csv:2:3: error: unterminated quoted cell: the quote opened here is never closed (a quote inside a "
        "cell "
        "is written \"\")");
}

TEST_CASE("measurements CSV: GEMM and copy shapes are scanned without std::regex", "[csv]") {
  const Aliases a = load_aliases(default_aliases_path(TESSERA_SOURCE_DIR));
  DataRow r = parse_measurements(kHeader + kRow, "m.csv")[0];
  r.metric = "kernel_latency";
  r.unit = "us";
  const auto plan = [&](const std::string& model, const std::string& notes) {
    r.model = model;
    r.notes = notes;
    return plan_row(r, a, TESSERA_SOURCE_DIR);
  };
  RowPlan p = plan("GEMM M=64 K=12288 N=12288", "");
  REQUIRE(p.measure == Measure::gemm);
  CHECK((p.gemm_m == 64 && p.gemm_k == 12288 && p.gemm_n == 12288));
  p = plan("Llama-2-7B", "shape M = 1,K=8192 ,  N=10240; M=2 K=2 N=2");
  REQUIRE(p.measure == Measure::gemm);
  CHECK((p.gemm_m == 1 && p.gemm_k == 8192 && p.gemm_n == 10240));
  CHECK_FALSE(plan("x", "M=1K=2N=3").mapped);     // no separator
  CHECK_FALSE(plan("x", "M=1,,K=2,N=3").mapped);  // two commas
  p = plan("x", "a copy bytes= 4096 here");
  REQUIRE(p.measure == Measure::copy);
  CHECK(p.copy_bytes == 4096);
  // A very long number in a notes cell (rows built without the reader have no cell limit): once a
  // stack overflow inside std::regex.
  CHECK_FALSE(
      plan("x", "M=" + std::string(200000, '9') + " K=1 N=1 copy bytes=" + std::string(200000, '7')).mapped);
}

TEST_CASE("prepare_row reads each model and machine file once", "[csv]") {
  const Aliases a = load_aliases(default_aliases_path(TESSERA_SOURCE_DIR));
  const auto rows = parse_measurements(kHeader + kRow + kRow, "m.csv");
  PreparedFiles files;
  for (const DataRow& r : rows) {
    const RowPlan p = plan_row(r, a, TESSERA_SOURCE_DIR);
    REQUIRE(p.mapped);
    const PreparedRow prep = prepare_row(r, p, files);
    CHECK(prep.model.layers > 0);
  }
  CHECK(files.models.size() == 1);
  CHECK(files.machines.size() == 1);
}

TEST_CASE("row plans read the framework version from the software column", "[csv]") {
  const Aliases a = load_aliases(default_aliases_path(TESSERA_SOURCE_DIR));
  auto version = [&](const char* software) {
    DataRow r = parse_measurements(kHeader + kRow, "m.csv")[0];
    r.software = software;
    return plan_row(r, a, TESSERA_SOURCE_DIR).framework_version;
  };
  CHECK(version("TensorRT-LLM v0.7a") == "0.7a");
  CHECK(version("TensorRT-LLM v0.5.0 (TensorRT 9.1.0.4)") == "0.5.0");
  CHECK(version("lmdeploy v0.1.0a1 (TurboMind engine), CUDA 11.8") == "0.1.0a1");
  CHECK(version("NVIDIA MLPerf harness on TensorRT-LLM (TensorRT 10.1.0, CUDA 12.7)") == "");
  CHECK(version("vLLM main, default attention and MoE backends") == "main");
  CHECK(version("Databricks inference server (TensorRT-LLM based per text)") == "");
}

}  // namespace test_measurement_csv
