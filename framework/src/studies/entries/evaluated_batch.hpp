#pragma once
// A batch of configurations and its evaluated columns as bytes: how Python's isolated
// Scenario.evaluate() and configurations() travel between the interpreter and the `tessera`
// worker that computes them (app/evaluate_batch_command.cpp, python/src/evaluate_binding.cpp).
// Both sides are the same build (a worker refuses another), so the values travel as they are.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "studies/entries/evaluate_entry.hpp"
#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"

namespace tessera::studies {

TESSERA_API std::string save_configs(const std::vector<ParallelConfig>& configs);
// InputError when `bytes` are not what save_configs writes.
TESSERA_API std::vector<ParallelConfig> load_configs(std::string_view bytes);

// The columns of an evaluated batch, owned: `rows` rows, one objective column per name
// (objective_columns: "objective_<key>").
class TESSERA_API EvaluatedBatch {
 public:
  EvaluatedBatch(std::size_t rows, std::vector<std::string> objective_names);
  // Where evaluate_batch writes (valid while this batch lives and is not moved).
  EvaluateColumns columns();
  std::string save() const;
  // InputError when `bytes` are not what save() writes.
  static EvaluatedBatch load(std::string_view bytes);
  // Copies the columns into `out` (rows() rows each; the caller's arrays).
  void copy_to(const EvaluateColumns& out) const;
  std::size_t rows() const { return rows_; }
  const std::vector<std::string>& objective_names() const { return names_; }

 private:
  std::size_t rows_;
  std::vector<std::string> names_;
  std::vector<std::vector<double>> numbers_, objectives_;
  std::vector<std::int64_t> pes_;
  std::vector<std::unique_ptr<bool[]>> flags_;  // valid, fits_memory, feasible
};

}  // namespace tessera::studies
