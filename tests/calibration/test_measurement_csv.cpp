// Measurement CSVs held to the YAML standard (docs/limits.md "JSON and CSV"): BOM, ragged rows,
// duplicate columns, cell and row limits, counts and values held to a scenario's ranges, unique
// ids, every diagnostic at FILE:LINE:COL;
// the GEMM/copy shape scanner that replaced std::regex.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "analysis/accuracy/accuracy_study.hpp"
#include "core/text/csv.hpp"
#include "tessera/limits.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_measurement_csv {

using namespace tessera;
using namespace tessera::accuracy;

namespace {

const std::string kHeader =
    "id,source,source_locator,software,model,precision,hardware,n_devices,tp,pp,ep,batch,input_len,output_"
    "len,"
    "metric,value,unit,notes\n";
const std::string kRow =
    "1,S,loc,TensorRT-LLM,Llama-2-7B,fp16,A100 SXM 80GB,1,1,1,,1,128,1,ttft,7,ms,plain\n";
// The same row under other ids (ids are unique within a file).
const std::string kRow2 = "2" + kRow.substr(1);
const std::string kRow3 = "3" + kRow.substr(1);

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
        "m.csv:2:43: error: tp: expected a whole number from 1 to 1000000, found 4294967296");
  // The mapping itself is bounded too (rows built without the reader).
  DataRow r = parse_measurements(kHeader + kRow, "m.csv")[0];
  r.tp = r.pp = "4294967296";
  r.n_devices = "8";
  const Aliases a = load_aliases(default_aliases_path(TESSERA_SOURCE_DIR));
  const RowPlan p = plan_row(r, a, TESSERA_SOURCE_DIR);
  CHECK_FALSE(p.mapped);
}

// A row of kRow's cells with some replaced: {column index, text}.
std::string row_with(std::initializer_list<std::pair<std::size_t, std::string>> cells,
                     const std::string& id = "1") {
  std::vector<std::string> c = {id,     "S", "loc", "x", "Llama-2-7B", "fp16", "A100 SXM 80GB",
                                "1",    "1", "1",   "",  "1",          "128",  "1",
                                "ttft", "7", "ms",  "n"};
  for (const auto& [i, text] : cells) c[i] = text;
  std::string s;
  for (std::size_t i = 0; i < c.size(); ++i) s += (i ? "," : "") + c[i];
  return s + "\n";
}

// The problem reported for a row, without its location.
std::string cell_error(const std::string& row) {
  const std::string e = first_error(kHeader + row);
  const std::size_t at = e.find("error: ");
  return at == std::string::npos ? e : e.substr(at + 7);
}

TEST_CASE("measurements CSV: counts are decimal whole numbers in a scenario's ranges", "[csv]") {
  LimitGuard guard;
  enum : std::size_t { n_devices = 7, tp, pp, ep, batch, input_len, output_len };
  const std::string digits = ": expected a whole number in decimal digits (blank when not stated), found ";
  for (const char* form : {"0x10", "+1", "-1", "1.5", "1e3", "inf", "nan", "1 000", "０"})
    CHECK(cell_error(row_with({{batch, form}})) == "batch" + digits + "\"" + form + "\"");
  CHECK(cell_error(row_with({{pp, "1.5"}})) == "pp" + digits + "\"1.5\"");
  // Blanks around a number are trimmed; a blank cell is "not stated".
  CHECK(parse_measurements(kHeader + row_with({{tp, " 8 "}, {pp, ""}, {ep, ""}}), "m.csv").size() == 1);
  // Degrees: 1..10^6, as sweep.parallelism.
  CHECK(cell_error(row_with({{tp, "0"}})) == "tp: expected a whole number from 1 to 1000000, found 0");
  CHECK(cell_error(row_with({{ep, "1000001"}})) ==
        "ep: expected a whole number from 1 to 1000000, found 1000001");
  CHECK(parse_measurements(kHeader + row_with({{ep, "1000000"}}), "m.csv").size() == 1);
  // Devices: machine.pes; token counts: workload.tokens (lengths may be 0).
  CHECK(cell_error(row_with({{n_devices, "16777217"}})) ==
        "n_devices: 16777217 exceeds the limit machine.pes (16777216); raise it with --limit machine.pes=N");
  CHECK(cell_error(row_with({{n_devices, "0"}})) ==
        "n_devices: expected a whole number of at least 1, found 0");
  CHECK(cell_error(row_with({{batch, "2147483647"}})) ==
        "batch: 2147483647 exceeds the limit workload.tokens (1073741824); raise it with --limit "
        "workload.tokens=N");
  CHECK(cell_error(row_with({{batch, "0"}})) == "batch: expected a whole number of at least 1, found 0");
  CHECK(
      cell_error(row_with({{input_len, "1073741825"}})).rfind("input_len: 1073741825 exceeds the limit", 0) ==
      0);
  CHECK(parse_measurements(kHeader + row_with({{input_len, "0"}, {output_len, "0"}}), "m.csv").size() == 1);
  CHECK(parse_measurements(kHeader + row_with({{batch, "1073741824"}}), "m.csv").size() == 1);
  // A raised limit lets more through, never past 2^31-1.
  Limits l = current_limits();
  l.workload_tokens = 1ull << 40;
  set_limits(l);
  CHECK(parse_measurements(kHeader + row_with({{batch, "2147483647"}}), "m.csv").size() == 1);
  CHECK(
      cell_error(row_with({{batch, "2147483648"}})) ==
      "batch: expected a whole number of at most 2147483647 (a row's counts stay within 2^31-1 whatever the "
      "limit workload.tokens), found 2147483648");
}

TEST_CASE("measurements CSV: the value is a positive decimal number in its unit's range", "[csv]") {
  enum : std::size_t { value = 15, unit = 16 };
  const std::string expected = "value: expected a positive decimal number (e.g. 7, 0.25, 6.9e-05), found ";
  for (const char* form : {"0x10", "inf", "nan", "-3", "+7", "7 ms", "1e", ".", "0x1p3"})
    CHECK(cell_error(row_with({{value, form}})) == expected + "\"" + form + "\"");
  CHECK(cell_error(row_with({{value, "0"}})) == expected + "0");
  CHECK(cell_error(row_with({{value, ""}})) == "value: empty; every row states the measured value");
  CHECK(cell_error(row_with({{value, "1e999"}})) ==
        "value: a number beyond the range of a double, found \"1e999\"");
  CHECK(cell_error(row_with({{value, "1e300"}})) ==
        "value: expected a time within 1 ps to 1 day (86400 s), found \"1e300 ms\"");
  CHECK(cell_error(row_with({{value, "1e-10"}, {unit, "ns"}})).rfind("value: expected a time within", 0) ==
        0);
  CHECK(cell_error(row_with({{value, "1e20"}, {unit, "GB/s"}})) ==
        "value: expected a bandwidth within 1 kB/s to 1 PB/s, found \"1e20 GB/s\"");
  for (const char* good : {"7", "0.25", "6.890296936035156e-05", ".5", "5.", "1E3"})
    CHECK(parse_measurements(kHeader + row_with({{value, good}}), "m.csv").size() == 1);
  // Units with no scenario range (tok/s, %) need only a positive number.
  CHECK(parse_measurements(kHeader + row_with({{value, "1e30"}, {unit, "tok/s"}}), "m.csv").size() == 1);
}

TEST_CASE("measurements CSV: a repeated or empty id is refused and the first row named", "[csv]") {
  CHECK(first_error(kHeader + row_with({}, "7") + row_with({}, "8") + row_with({}, " 7 ")) ==
        "m.csv:4:1: error: id: '7' is already the id of the row at line 2; each row's id is unique");
  CHECK(first_error(kHeader + row_with({}, "7") + row_with({}, "")) ==
        "m.csv:3:1: error: id: empty; every row has an id of its own");
  CHECK(parse_measurements(kHeader + row_with({}, "7") + row_with({}, "7a"), "m.csv").size() == 2);
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
  CHECK(parse_measurements(kHeader + kRow + kRow2, "m.csv").size() == 2);
  CHECK(first_error(kHeader + kRow + kRow2 + kRow3) ==
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
  const auto rows = parse_measurements(kHeader + kRow + kRow2, "m.csv");
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
