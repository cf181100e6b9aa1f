// The rows of the field table (field_table.hpp). STUB of the interface: a few rows so that the
// generators can be written against it; the full table replaces this file.
#include "scenario/field_table.hpp"
#include "host/plugin_defaults.hpp"

#include <iterator>

namespace tessera::schema {

namespace {

constexpr FieldRow kRows[] = {
    {"model.heads",
     FieldFile::model,
     FieldUse::value,
     {"heads", ParamType::integer, Dimension::none, nullptr, 1, 65536, nullptr, 0, "attention (query) heads"},
     false},
    {"machine.pe.hbm.capacity",
     FieldFile::machine,
     FieldUse::value,
     {"capacity", ParamType::quantity, Dimension::bytes, nullptr, 0, kNoMax, nullptr, 0,
      "HBM capacity per PE"},
     false},
    {"machine.pe.hbm.usable",
     FieldFile::machine,
     FieldUse::value,
     {"usable", ParamType::real, Dimension::none, "0.92", 0, 1, nullptr, 0,
      "fraction of the HBM capacity the runtime can allocate, in (0, 1]"},
     false},
    {"machine.levels.*.link_bw",
     FieldFile::machine,
     FieldUse::value,
     {"link_bw", ParamType::quantity, Dimension::bandwidth, nullptr, 0, kNoMax, nullptr, 0,
      "per-PE link bandwidth at this level, one direction"},
     false},
    {"sweep.parallelism.tp",
     FieldFile::scenario,
     FieldUse::value,
     {"tp", ParamType::integer, Dimension::none, "[1]", 1, 1048576, nullptr, 0, "tensor-parallel degrees"},
     true},
    {"plugins.latency",
     FieldFile::scenario,
     FieldUse::choice,
     {"latency", ParamType::string, Dimension::none, plugin_defaults::kLatency, kNoMin, kNoMax, nullptr, 0,
      "latency model(s): a name, {name: ..., params}, or a list of them"},
     false},
};

}  // namespace

std::span<const FieldRow> field_rows() { return {kRows, std::size(kRows)}; }

const FieldRow* find_field(std::string_view canonical_path) {
  for (const FieldRow& r : kRows)
    if (r.path == canonical_path) return &r;
  return nullptr;
}

}  // namespace tessera::schema
