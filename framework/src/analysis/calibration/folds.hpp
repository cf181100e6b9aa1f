#pragma once
// The folds of the calibration protocol (docs/accuracy.md "Protocol"): in sample (one fold that
// holds nothing out, scored on every row), and leave one source / machine family / framework
// version out (one fold per group; the fold's rows are held out of the fit and scored).
#include <string>
#include <vector>

#include "analysis/calibration/fit_rows.hpp"
#include "tessera/export.hpp"

namespace tessera::calibration {

enum class FoldKind { in_sample, leave_one_source_out, leave_one_family_out, leave_one_stack_version_out };

TESSERA_API const char* fold_name(FoldKind k);  // "in-sample", "leave-one-source-out", ...
// Parses "in-sample", "source", "family", "framework-version" (and the long names); false when
// unknown.
TESSERA_API bool parse_fold(const std::string& text, FoldKind& out);
TESSERA_API std::vector<FoldKind> all_folds();

struct Fold {
  FoldKind kind = FoldKind::in_sample;
  std::string held_out;            // the group's label ("" in sample)
  std::vector<std::size_t> test;   // indices of the scored rows (held out unless in sample)
  std::vector<std::size_t> train;  // indices of the rows the fold fits on
};

// The group a row belongs to under `k` (its source, family, framework@version).
TESSERA_API std::string fold_group(const FitRow& row, FoldKind k);

// The folds of kind `k` over `rows`, one per group in order of first appearance.
TESSERA_API std::vector<Fold> make_folds(const std::vector<FitRow>& rows, FoldKind k);

}  // namespace tessera::calibration
