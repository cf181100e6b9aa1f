#pragma once
// The field table walks mappings (field_table.hpp): a mapping of an input file is read by the
// rows under its canonical path — it must be a mapping, its keys are checked against the rows
// ("did you mean"), every row with a slot is typed, ranged and stored in the site, and every
// child mapping is read the same way, recursively, in table order. Only what the table cannot
// say stays code: a child reader named by canonical path (a list of levels, a mapping keyed by
// number format, per-plugin blocks, a name with a rule of its own).
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "scenario/fields/field_table.hpp"
#include "scenario/readers/yaml_tree.hpp"

namespace tessera::loader {

// A child the table cannot read by itself: `read` gets the child's node and its shown path. It is
// called only when the key is present (a required row missing is reported by the walker), or,
// with `absent_too`, also with nullptr when the key is absent (the reader says whether that is an
// error: a machine's name is required in a machine file, not inline).
struct ChildReader {
  std::string_view canonical;  // the child's canonical path ("machine.levels", "machine.pe.name")
  std::function<void(const YNode* node, const std::string& path)> read;
  bool absent_too = false;
};

// The reader of a file's `name` (the row `canonical`, "model.name"): required when `require` (a
// model or machine file of its own), optional inline; its text into `out`. `n` is the mapping
// read at `path`; every reference must outlive the walk.
ChildReader name_reader(const YNode& n, const std::string& path, std::string_view canonical, bool require,
                        std::string& out, Diags& d);

// Reads mapping `n` (shown at `path`) by the rows under `canonical` into `site`: false (with a
// diagnostic) when `n` is not a mapping. Children in table order (a required one missing is
// reported): a reader of `children` when one names the row, else a slot row read into `site`,
// else a child mapping (not a list) read recursively with the same readers. Rows with
// neither a slot nor a reader (a file's `kind`, read before) are left to the caller.
bool read_mapping(const YNode& n, const std::string& path, std::string_view canonical,
                  const schema::FieldSite& site, Diags& d, std::span<const ChildReader> children = {});

}  // namespace tessera::loader
