#pragma once
// Documented resource limits (docs/limits.md), in the manner of SQLite's sqlite3_limit: every
// input-driven size has a maximum, a name, a way to raise it (`--limit NAME=N` on every
// command, a few also with their own flag) and one diagnostic phrase that names both.
//
// The table is data: each row names a field of `Limits`, its default and what it bounds; the
// option parser, the diagnostics and the docs test all read it. Code that checks a limit reads
// `current_limits()`, which the application sets once, before any work, from the command line.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "tessera/export.hpp"

namespace tessera {

struct Limits {
  // Input files (YAML, JSON, CSV).
  std::uint64_t file_bytes = 16ull << 20;  // one input file's size, bytes
  std::uint64_t yaml_nodes = 1'000'000;    // nodes per YAML document, aliases expanded
  std::uint64_t yaml_depth = 64;           // nesting depth of a YAML or JSON document
  std::uint64_t scalar_bytes = 65'536;     // one scalar (or JSON string) in bytes
  std::uint64_t list_values = 100'000;     // values in one sweep list
  std::uint64_t csv_rows = 1'000'000;      // data rows of a measurements CSV
  std::uint64_t csv_cell_bytes = 4'096;    // one CSV cell in bytes
  std::uint64_t diagnostics = 100;         // input problems reported at once; the rest counted
  // Work.
  std::uint64_t max_configs = 10'000'000;       // evaluations a study may start (hardware points x configs)
  std::uint64_t grid_points = 1'000'000'000;    // points of a parallelism grid (enumerated, before validity)
  std::uint64_t hardware_points = 100'000;      // points of a hardware grid
  std::uint64_t report_top = 100'000;           // rows of a top-N table
  std::uint64_t threads = 256;                  // evaluation threads
  std::uint64_t search_samples = 10'000'000;    // samples of a sampling search
  std::uint64_t search_stale_rounds = 1'000;    // rounds in a row a search may propose nothing new
  std::uint64_t moe_table_entries = 1'000'000;  // entries of the exact MoE most-loaded-rank table, per thread
  std::uint64_t calibrate_fit_predictions = 256;  // distinct predictions one calibration fit runs on
  std::uint64_t calibrate_folds = 64;             // held-out folds (each a fit) of one calibration
  std::uint64_t validate_load_rows = 2000;  // rows under a load (request simulations) of one validate-data
  // Magnitudes (plausibility bounds that also keep every product exact: docs/limits.md).
  std::uint64_t model_dimension = 1ull
                                  << 24;   // any integer dimension of a model (layers, hidden, vocab, ...)
  std::uint64_t machine_pes = 1ull << 24;  // PEs of a machine: the product of its fanouts
  std::uint64_t workload_tokens = 1ull << 30;  // a token count (context, batch, chunk)
  // Plugins (after the magnitudes: a field added at the end keeps every earlier offset).
  std::uint64_t plugin_probe_seconds = 10;  // seconds a probed library's initialisers may take
  std::uint64_t plugin_unit_seconds = 600;  // seconds an isolated worker may hold one work unit
};

struct LimitInfo {
  const char* name;              // as written after --limit: "yaml.nodes"
  std::uint64_t Limits::*field;  // the field it sets
  const char* bounds;            // what it bounds, one line
  const char* flag;              // a dedicated flag, or nullptr ("--max-configs")
};

// Every limit, in documentation order.
TESSERA_API std::span<const LimitInfo> limit_table();

// The limits in force (defaults until set_limits is called). Set once by the application,
// before any work starts; read by every check. Not changed while work runs.
TESSERA_API const Limits& current_limits();
TESSERA_API void set_limits(const Limits& limits);

// Parses one `NAME=N` (N a positive integer, 1e7 style allowed when exact) into `limits`.
// Throws InputError naming the nearest limit for an unknown name.
TESSERA_API void apply_limit_setting(Limits& limits, std::string_view setting);

// The standard tail of every over-limit diagnostic:
// "exceeds the limit yaml.nodes (1000000); raise it with --limit yaml.nodes=N".
// `name` must be a row of limit_table().
TESSERA_API std::string limit_exceeded(std::string_view name);

// The value in force for a limit by name (for messages and tests).
TESSERA_API std::uint64_t limit_value(std::string_view name);

}  // namespace tessera
