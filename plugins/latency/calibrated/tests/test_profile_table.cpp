// The profile-provenance table of docs/accuracy.md ("Serving frameworks: version-keyed profiles")
// states every shipped profile's values: each profile has a row, and each number of a row is the
// shipped value in µs (to the printed digits). `ctest -R "provenance table"` reproduces it.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "calibrated.hpp"
#include "core/text/input_text.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_profile_table {

using tessera::trim;
using tessera::plugins::ServingStackProfile;

namespace {

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line.substr(1));
  std::string c;
  while (std::getline(ss, c, '|')) out.push_back(trim(c));
  return out;
}

// `a`, `b` (note) -> {a, b}
std::vector<std::string> labels(const std::string& cell) {
  std::vector<std::string> out;
  for (std::size_t at = cell.find('`'); at != std::string::npos; at = cell.find('`', at + 1)) {
    const auto end = cell.find('`', at + 1);
    if (end == std::string::npos) break;
    out.push_back(cell.substr(at + 1, end - at - 1));
    at = end;
  }
  return out;
}

std::vector<double> values_us(const ServingStackProfile& p) {  // the table's column order
  return {p.launch_overhead * 1e6,     p.collective_overhead * 1e6, p.decode_step_overhead * 1e6,
          p.decode_seq_overhead * 1e6, p.prefill_overhead * 1e6,    p.prefill_chunk_overhead * 1e6};
}

// "150 ⊥" -> 150; "5 / 10" -> {5, 10}
std::vector<double> numbers(std::string cell) {
  const std::string wall = "\xE2\x8A\xA5";  // ⊥: on its range's edge
  if (const auto w = cell.find(wall); w != std::string::npos) cell.erase(w, wall.size());
  std::vector<double> out;
  std::stringstream ss(cell);
  std::string t;
  while (std::getline(ss, t, '/')) out.push_back(std::stod(trim(t)));
  return out;
}

}  // namespace

TEST_CASE("calibrated: the provenance table of docs/accuracy.md states every shipped profile value",
          "[calibrated]") {
  std::map<std::string, const ServingStackProfile*> by_label;
  for (const ServingStackProfile& p : tessera::plugins::serving_stack_profiles()) by_label[p.label()] = &p;
  std::ifstream in(std::string(TESSERA_SOURCE_DIR) + "/docs/accuracy.md");
  REQUIRE(in);
  std::string line;
  bool in_table = false;
  std::map<std::string, int> rows_of;
  while (std::getline(in, line)) {
    if (line.rfind("| profile | launch | call | step | per seq | prefill | per chunk | rests on |", 0) == 0) {
      in_table = true;
      std::getline(in, line);  // |---|
      continue;
    }
    if (!in_table) continue;
    if (line.empty() || line[0] != '|') break;
    const std::vector<std::string> c = cells(line);
    REQUIRE(c.size() == 8);
    const std::vector<std::string> names = labels(c[0]);
    REQUIRE_FALSE(names.empty());
    for (const std::string& n : names) {
      INFO(line);
      INFO("profile " << n);
      REQUIRE(by_label.count(n) == 1);  // the table names shipped profiles only
      ++rows_of[n];
      const std::vector<double> shipped = values_us(*by_label.at(n));
      if (c[1].rfind("= ", 0) == 0) {  // "= generic": the same values as that profile
        const std::vector<std::string> same = labels(c[1]);
        const std::string other = same.empty() ? trim(c[1].substr(2)) : same.front();
        REQUIRE(by_label.count(other) == 1);
        CHECK(shipped == values_us(*by_label.at(other)));
        continue;
      }
      const std::size_t i = static_cast<std::size_t>(&n - names.data());
      for (std::size_t k = 0; k < 6; ++k) {
        const std::vector<double> v = numbers(c[1 + k]);
        REQUIRE((v.size() == 1 || v.size() == names.size()));  // one value, or one per profile named
        const double stated = v.size() == names.size() ? v[i] : v.front();
        INFO("column " << k + 1 << ": " << c[1 + k]);
        CHECK(std::abs(stated - shipped[k]) <= std::max(1e-9, 5e-4 * std::abs(shipped[k])));
      }
    }
  }
  CHECK(in_table);
  for (const auto& [label, p] : by_label) {
    INFO("profile " << label << " has no row of its own in the table");
    CHECK(rows_of[label] == 1);
  }
}

}  // namespace test_profile_table
