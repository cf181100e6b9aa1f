// Python's isolated evaluate() carries its batch and columns as bytes
// (studies/entries/evaluated_batch.hpp): what a worker evaluates and saves loads back to the
// same columns as one process evaluating them, and bytes that are not a batch are refused.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "search_fixture.hpp"
#include "studies/entries/evaluate_entry.hpp"
#include "studies/entries/evaluated_batch.hpp"
#include "tessera/error.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

bool same_number(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

}  // namespace

TEST_CASE("an evaluated batch saved and loaded gives the columns evaluated in one process", "[evaluate]") {
  const Prepared p(load("llama3.1-70b-decode-128k.yaml"));
  const Session& session = *p.session;
  std::vector<ParallelConfig> configs = studies::sweep_configurations(session);
  configs.resize(std::min<std::size_t>(configs.size(), 300));
  configs.push_back(ParallelConfig{});  // and a row whatever it is
  const std::vector<ParallelConfig> back = studies::load_configs(studies::save_configs(configs));
  REQUIRE(back.size() == configs.size());
  CHECK(std::memcmp(back.data(), configs.data(), configs.size() * sizeof(ParallelConfig)) == 0);

  const std::vector<std::string> names = studies::objective_columns(session);
  studies::EvaluatedBatch computed(back.size(), names);
  studies::evaluate_batch(session, back, 2, computed.columns(), {});
  const studies::EvaluatedBatch loaded = studies::EvaluatedBatch::load(computed.save());
  CHECK(loaded.rows() == configs.size());
  CHECK(loaded.objective_names() == names);

  studies::EvaluatedBatch here(configs.size(), names);
  studies::evaluate_batch(session, configs, 1, here.columns(), {});
  studies::EvaluatedBatch copied(configs.size(), names);
  loaded.copy_to(copied.columns());
  const studies::EvaluateColumns a = here.columns(), b = copied.columns();
  for (std::size_t i = 0; i < configs.size(); ++i) {
    for (std::size_t d = 0; d < studies::kEvaluateNumbers; ++d)
      CHECK(same_number(a.numbers[d][i], b.numbers[d][i]));
    for (std::size_t o = 0; o < names.size(); ++o) CHECK(same_number(a.objectives[o][i], b.objectives[o][i]));
    CHECK(a.pes[i] == b.pes[i]);
    CHECK(a.valid[i] == b.valid[i]);
    CHECK(a.fits_memory[i] == b.fits_memory[i]);
    CHECK(a.feasible[i] == b.feasible[i]);
  }
}

TEST_CASE("bytes that are not an evaluated batch are refused", "[evaluate]") {
  studies::EvaluatedBatch batch(3, {"objective_latency"});
  const std::string bytes = batch.save();
  CHECK_THROWS_AS(studies::EvaluatedBatch::load(bytes.substr(0, bytes.size() - 1)), InputError);  // cut short
  CHECK_THROWS_AS(studies::EvaluatedBatch::load(bytes + "x"), InputError);                        // trailing
  std::string flag = bytes;
  flag.back() = '\2';  // a flag neither 0 nor 1
  CHECK_THROWS_AS(studies::EvaluatedBatch::load(flag), InputError);
  std::string rows = bytes;
  const std::uint64_t forged = ~std::uint64_t{0};
  std::memcpy(rows.data(), &forged, sizeof forged);  // more rows than bytes
  CHECK_THROWS_AS(studies::EvaluatedBatch::load(rows), InputError);
  CHECK_THROWS_AS(studies::load_configs(std::string(5, '\0')), InputError);
}
