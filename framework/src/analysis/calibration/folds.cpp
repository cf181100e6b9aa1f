#include "analysis/calibration/folds.hpp"

#include <map>

namespace tessera::calibration {

const char* fold_name(FoldKind k) {
  switch (k) {
    case FoldKind::in_sample:
      return "in-sample";
    case FoldKind::leave_one_source_out:
      return "leave-one-source-out";
    case FoldKind::leave_one_family_out:
      return "leave-one-family-out";
    case FoldKind::leave_one_stack_version_out:
      return "leave-one-framework-version-out";
  }
  return "";
}

bool parse_fold(const std::string& t, FoldKind& out) {
  for (FoldKind k : all_folds())
    if (t == fold_name(k)) {
      out = k;
      return true;
    }
  if (t == "source")
    out = FoldKind::leave_one_source_out;
  else if (t == "family")
    out = FoldKind::leave_one_family_out;
  else if (t == "framework-version" || t == "version")
    out = FoldKind::leave_one_stack_version_out;
  else
    return false;
  return true;
}

std::vector<FoldKind> all_folds() {
  return {FoldKind::in_sample, FoldKind::leave_one_source_out, FoldKind::leave_one_family_out,
          FoldKind::leave_one_stack_version_out};
}

std::string fold_group(const FitRow& row, FoldKind k) {
  switch (k) {
    case FoldKind::in_sample:
      return "";
    case FoldKind::leave_one_source_out:
      return row.source;
    case FoldKind::leave_one_family_out:
      return row.family;
    case FoldKind::leave_one_stack_version_out:
      return row.framework_version();
  }
  return "";
}

std::vector<Fold> make_folds(const std::vector<FitRow>& rows, FoldKind k) {
  std::vector<Fold> out;
  if (k == FoldKind::in_sample) {
    Fold f;
    f.kind = k;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      f.test.push_back(i);
      f.train.push_back(i);
    }
    out.push_back(std::move(f));
    return out;
  }
  // Groups in order of first appearance; each row's group found once (linear in the rows).
  std::map<std::string, std::size_t> index;
  std::vector<std::size_t> group_of(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto [it, fresh] = index.emplace(fold_group(rows[i], k), out.size());
    if (fresh) {
      Fold f;
      f.kind = k;
      f.held_out = it->first;
      out.push_back(std::move(f));
    }
    group_of[i] = it->second;
  }
  for (std::size_t g = 0; g < out.size(); ++g)
    for (std::size_t i = 0; i < rows.size(); ++i)
      (group_of[i] == g ? out[g].test : out[g].train).push_back(i);
  return out;
}

}  // namespace tessera::calibration
