// The progress line (framework/app/progress_bar.cpp) fitted to the width: the bar shrinks, then
// the rate and ETA go, then the bar, then the line is cut; never more than width - 1 columns.
#include <catch2/catch.hpp>
#include <string>

#include "progress_bar.hpp"

using tessera::ProgressEvent;
using tessera::cli::progress_line;

TEST_CASE("progress line in full and shrunk to the width") {
  const ProgressEvent half{500, 1000, "configurations"};
  const std::string counts = "500/1000 configurations", tail = "  1234/s  ETA 0 s";
  const std::string full = "[" + std::string(15, '#') + std::string(15, ' ') + "] " + counts + tail;
  CHECK(full.size() == 73);
  CHECK(progress_line(half, 1234.4, 0.4, 0) == full);
  CHECK(progress_line(half, 1234.4, 0.4, 80) == full);
  CHECK(progress_line(half, 1234.4, 0.4, 74) == full);  // 73 columns + the one kept free
  // 60 columns: 14 too many, the bar loses 14 of its 30 marks.
  const std::string sixty = "[" + std::string(8, '#') + std::string(8, ' ') + "] " + counts + tail;
  CHECK(sixty.size() == 59);
  CHECK(progress_line(half, 1234.4, 0.4, 60) == sixty);
  // 50: a 10-mark bar and the counts; the rate and ETA go.
  CHECK(progress_line(half, 1234.4, 0.4, 50) == "[#####     ] " + counts);
  // 30: the counts alone; 10: cut to 9 columns.
  CHECK(progress_line(half, 1234.4, 0.4, 30) == counts);
  CHECK(progress_line(half, 1234.4, 0.4, 10) == "500/1000 ");
  CHECK(progress_line(half, 1234.4, 0.4, 1).empty());
}

TEST_CASE("progress line without a total") {
  const ProgressEvent rows{123, 0, "rows"};
  CHECK(progress_line(rows, 9.6, 0, 0) == "123 rows  10/s");
  CHECK(progress_line(rows, 9.6, 0, 15) == "123 rows  10/s");
  CHECK(progress_line(rows, 9.6, 0, 12) == "123 rows");
  CHECK(progress_line(rows, 9.6, 0, 5) == "123 ");
}

TEST_CASE("progress line of every width fits it") {
  const ProgressEvent e{7331, 7331000, "configurations"};
  for (std::size_t w = 1; w <= 120; ++w) {
    INFO("width " << w);
    CHECK(progress_line(e, 123456.0, 59.0, w).size() <= w - 1);
  }
}
