#pragma once
// One measured operator table of latency/measured: kernel times on a full grid of shapes for one
// machine, operator and number format, each entry with its provenance. README.md "Table format"
// and docs/accuracy.md "Measured kernel tables" describe the file and the interpolation.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::plugins {

inline constexpr int kMaxTableAxes = 6;

struct KernelTable {
  std::string name;               // the file's stem: "dgx-h200-gemm-bf16"
  std::string machine;            // MachineSpec::name it was measured on ("DGX-H200")
  std::string software;           // what ran the kernels (informational)
  std::string framework;          // the `framework` it applies to; "any": every framework
  std::string op;                 // gemm, attention_decode, attention_prefill, copy, all_reduce, fused_moe
  std::string dtype;              // the stage's math format ("bf16", "fp8"); "any" for collectives
  std::string level;              // collectives: the machine level the group spans ("node"); else ""
  std::vector<std::string> axes;  // numeric axes, in the file's column order
  std::vector<std::vector<double>> grid;  // per axis: its distinct values, ascending
  std::vector<double> log_seconds;        // ln(time in s), row-major over grid (last axis fastest)
  std::vector<std::string> sources;       // per entry: "row 1004" or "scripts/measure/... DATE"
  // Tags explain prints (built once, so that timing a stage builds no string).
  std::string hit_tag;                    // "table dgx-h200-gemm-bf16"
  std::vector<std::string> outside_tags;  // per axis: "fallback: calibrated (m outside 1..4096 in ...)"
};

// The result of one lookup: the interpolated time, or the axis whose value lies outside the grid.
struct TableLookup {
  bool hit = false;
  double seconds = 0;
  int outside_axis = -1;  // when !hit
};

// Log-space multilinear interpolation over the grid: ln t is linear in ln x along every axis
// between the two grid values around x; a value on a grid point uses that point; an axis with
// a single value matches only that value (relative tolerance 1e-6). `query` holds one value per
// axis (positive), in the table's axis order. Allocates nothing.
TableLookup lookup(const KernelTable& t, const double* query);

// Whether a larger value of `axis` can always run a smaller problem (padding it): the sizes m, n,
// k, nk, batch, context, bytes and tokens; not ranks, experts or head counts.
bool padded_axis(const std::string& axis);

// The table made non-decreasing along every padded axis: a grid point slower than a larger shape
// takes that shape's time (the larger kernel on padded input is always there to run), so that
// the interpolated time never falls as a size grows. Applied by parse_kernel_table.
void monotone_envelope(KernelTable& t);

// Parses one table file's text (README.md "Table format"). Throws tessera::InputError naming
// `file` and the line on any problem: a missing key, an unknown column, an incomplete grid, a
// duplicate entry, a non-positive time or axis value.
KernelTable parse_kernel_table(std::string_view text, const std::string& file, const std::string& name);

// Every id of a `row N` provenance in the table (the measurement rows it was built from).
std::vector<std::string> provenance_row_ids(const KernelTable& t);

}  // namespace tessera::plugins
