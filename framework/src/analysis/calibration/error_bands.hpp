#pragma once
// The error band of a prediction (docs/accuracy.md "Error bands"): how far
// held-out validation says the measured value lies from a realistic latency model's prediction,
// for the machine family and framework profile it ran with. The band table
// (data/error-bands.csv, written by `tessera calibrate`) holds per (latency model, family,
// framework, fold) the 10th/50th/90th percentiles of ln(predicted/measured) over the held-out
// rows. A latency P is then measured in [P·exp(−p90), P·exp(−p10)]; a throughput (its inverse)
// in [P·exp(p10), P·exp(p90)].
//
// Limits: a band file is at most kMaxBandRows data rows and every input-file limit
// (docs/limits.md: file.bytes, csv.cell_bytes); a bad file is an InputError located at
// FILE:LINE:COL naming the column and what was expected.
#include <cstddef>
#include <string>
#include <vector>

#include "tessera/export.hpp"

namespace tessera {

class PluginRegistry;
class Session;

inline constexpr std::size_t kMaxBandRows = 4096;
// The fold whose band is printed; other folds may appear as extra rows.
inline constexpr char kBandFold[] = "leave-one-source-out";
// A (model, family, framework) row is used when it rests on at least this many held-out rows;
// otherwise the family's pooled `*` row.
inline constexpr long kMinBandRows = 5;
// ... and on at least this many independent sources (one source's rows share its setup's bias).
inline constexpr long kMinBandSources = 2;

struct BandRow {
  std::string latency_model;  // calibrated, measured
  std::string family;         // "H100/H200"
  std::string framework;      // a calibrated profile name, or "*" (the family's frameworks pooled)
  std::string fold;           // leave-one-source-out, ...
  long rows = 0;              // held-out rows the percentiles rest on
  long sources = 0;           // independent sources among them
  double p10_ln = 0, p50_ln = 0, p90_ln = 0;
  int line = 0;  // in the file
};

struct BandTable {
  std::string file;
  std::string generated_by;  // the first comment line, without '#'
  std::vector<BandRow> rows;
};

// Parses a band file's text (`file` names it in messages). Throws InputErrors.
TESSERA_API BandTable parse_band_table(const std::string& text, const std::string& file);
// Reads and parses `path` (read_input_file's checks). Throws InputError(s).
TESSERA_API BandTable load_band_table(const std::string& path);
// <shipped data root>/data/error-bands.csv; "" for the path of a missing file is not an error:
// shipped_band_table() is then empty and every realistic prediction "uncalibrated".
TESSERA_API std::string default_band_path();
// The shipped table, read once (thread-safe); a bad shipped file throws on every call.
TESSERA_API const BandTable& shipped_band_table();

struct Band {
  enum class Status { band, uncalibrated, bound };
  Status status = Status::uncalibrated;
  std::string reason;  // uncalibrated / bound: why (printed after the status)
  // status band:
  std::string latency_model;  // whose rows (measured may take calibrated's)
  std::string family, framework, fold;
  long rows = 0, sources = 0;
  double p10_ln = 0, p90_ln = 0;
  std::string note;  // "<model> has no rows: <its fallback>'s band", "framework vllm: 3 rows, the family's"

  bool has_band() const { return status == Status::band; }
  // Relative bounds (−0.09, +0.21) of a latency and of a throughput.
  TESSERA_API double latency_low_rel() const;
  TESSERA_API double latency_high_rel() const;
  TESSERA_API double throughput_low_rel() const;
  TESSERA_API double throughput_high_rel() const;
};

// A latency model as the band table sees it: its name, whether its predictions carry a band
// (PluginRole kRoleErrorBand of its descriptor: a realistic model, fitted to measurements) and
// the model it falls back on (its descriptor's fallback; "" when none).
struct BandModel {
  std::string name;
  bool error_band = false;
  std::string fallback;
};
// The band model of latency plugin `name` as its descriptor declares it (nothing when not loaded).
TESSERA_API BandModel band_model(const PluginRegistry& registry, const std::string& name);

// The table's rows against the latency plugins loaded so far (nothing is loaded to check): a row
// under the name of a plugin without the error-band role (a bound: overlap, roofline) can never
// be its band and is refused at FILE:LINE:1, naming the loaded plugins that take bands. Rows of
// other names (an out-of-tree model's) are kept. Every band lookup of a session checks the
// shipped table so. Throws InputErrors.
TESSERA_API void check_band_models(const BandTable& table, const PluginRegistry& registry);

// The band for (latency model, machine family, framework profile): the (model, family,
// framework) row of fold kBandFold with rows >= kMinBandRows from >= kMinBandSources sources, else
// (model, family, "*"), else uncalibrated. A model with a fallback takes its own rows when the
// table has any for the family, else its fallback's (and says so). A model without the error-band
// role is a bound (no band); an empty family is uncalibrated.
TESSERA_API Band find_band(const BandTable& table, const BandModel& model, const std::string& family,
                           const std::string& framework);

// The machine family a session's latency model reads (the `family` text parameter of its machine
// block, or of its fallback's when it reads that one; "" when absent) and its framework profile name (the
// latency plugin's `framework` parameter as the scenario set it, else its default; "" for a
// plugin without one).
TESSERA_API std::string session_family(const Session& session);
TESSERA_API std::string session_serving_stack(const Session& session);
// find_band(shipped_band_table(), ...) for the session.
TESSERA_API Band session_band(const Session& session);
// A disaggregated pair's band (serve with serving.disaggregated): the session's when both pools run
// on the scenario's machine or on machines of one family; pools on machines of different families
// (or one without a family) are uncalibrated, naming both.
TESSERA_API Band disaggregated_band(const Session& session);

}  // namespace tessera
