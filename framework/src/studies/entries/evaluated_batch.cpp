#include "studies/entries/evaluated_batch.hpp"

#include <algorithm>

#include "core/checkpoint/byte_record.hpp"

namespace tessera::studies {

namespace {
constexpr const char* kWhat = "an evaluated batch from a worker process";
}  // namespace

std::string save_configs(const std::vector<ParallelConfig>& configs) {
  ByteWriter out;
  out.put_list(configs);
  return out.take();
}

std::vector<ParallelConfig> load_configs(std::string_view bytes) {
  ByteReader in(bytes, "a batch of configurations");
  std::vector<ParallelConfig> configs = in.get_list<ParallelConfig>();
  if (!in.done()) in.fail();
  return configs;
}

EvaluatedBatch::EvaluatedBatch(std::size_t rows, std::vector<std::string> objective_names)
    : rows_(rows),
      names_(std::move(objective_names)),
      numbers_(kEvaluateNumbers, std::vector<double>(rows)),
      objectives_(names_.size(), std::vector<double>(rows)),
      pes_(rows) {
  for (int f = 0; f < 3; ++f) flags_.push_back(std::make_unique<bool[]>(rows));
}

EvaluateColumns EvaluatedBatch::columns() {
  EvaluateColumns c;
  for (std::size_t d = 0; d < kEvaluateNumbers; ++d) c.numbers[d] = numbers_[d].data();
  for (std::vector<double>& o : objectives_) c.objectives.push_back(o.data());
  c.pes = pes_.data();
  c.valid = flags_[0].get();
  c.fits_memory = flags_[1].get();
  c.feasible = flags_[2].get();
  return c;
}

std::string EvaluatedBatch::save() const {
  ByteWriter out;
  out.put<std::uint64_t>(rows_);
  for (const std::vector<double>& n : numbers_) out.put_list(n);
  out.put<std::uint64_t>(names_.size());
  for (std::size_t o = 0; o < names_.size(); ++o) {
    out.put_text(names_[o]);
    out.put_list(objectives_[o]);
  }
  out.put_list(pes_);
  for (const std::unique_ptr<bool[]>& f : flags_)
    for (std::size_t i = 0; i < rows_; ++i) out.put<std::uint8_t>(f[i] ? 1 : 0);
  return out.take();
}

EvaluatedBatch EvaluatedBatch::load(std::string_view bytes) {
  ByteReader in(bytes, kWhat);
  const auto rows = static_cast<std::size_t>(in.get<std::uint64_t>());
  if (rows > bytes.size()) in.fail();  // each row takes bytes: no allocation for a forged count
  EvaluatedBatch b(rows, {});
  const auto column = [&](auto& into) {
    into = in.get_list<typename std::decay_t<decltype(into)>::value_type>();
    if (into.size() != rows) in.fail();
  };
  for (std::vector<double>& n : b.numbers_) column(n);
  const auto objectives = in.get<std::uint64_t>();
  if (objectives > bytes.size()) in.fail();
  for (std::uint64_t o = 0; o < objectives; ++o) {
    b.names_.push_back(in.get_text());
    b.objectives_.emplace_back();
    column(b.objectives_.back());
  }
  column(b.pes_);
  for (std::unique_ptr<bool[]>& f : b.flags_)
    for (std::size_t i = 0; i < rows; ++i) f[i] = in.get<bool>();
  if (!in.done()) in.fail();
  return b;
}

void EvaluatedBatch::copy_to(const EvaluateColumns& out) const {
  for (std::size_t d = 0; d < kEvaluateNumbers; ++d)
    std::copy(numbers_[d].begin(), numbers_[d].end(), out.numbers[d]);
  for (std::size_t o = 0; o < objectives_.size(); ++o)
    std::copy(objectives_[o].begin(), objectives_[o].end(), out.objectives[o]);
  std::copy(pes_.begin(), pes_.end(), out.pes);
  std::copy(flags_[0].get(), flags_[0].get() + rows_, out.valid);
  std::copy(flags_[1].get(), flags_[1].get() + rows_, out.fits_memory);
  std::copy(flags_[2].get(), flags_[2].get() + rows_, out.feasible);
}

}  // namespace tessera::studies
