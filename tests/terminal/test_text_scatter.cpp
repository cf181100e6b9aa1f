// render_scatter on concrete points at a fixed width: where each mark lands, the ticks in the
// axis' units, the logarithmic axis, the SLO line, the legend, and the width bound.
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

#include "report/text/text_scatter.hpp"
#include "report/text/text_table.hpp"

using namespace tessera;

namespace {

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}

ScatterAxis axis(const std::string& label) {
  return {label, [](double v) { return fixed(v, 0); }};
}

}  // namespace

TEST_CASE("a linear scatter puts each mark in its cell with ticks and a legend") {
  ScatterOptions o;
  o.width = 16;
  o.height = 3;
  o.unicode = false;
  // x 0..10 over 13 columns (16 - margin 1 - 2), y 0..2 over 3 rows.
  const std::vector<ScatterPoint> pts = {{0, 0, ScatterPoint::Kind::other},
                                         {10, 2, ScatterPoint::Kind::frontier},
                                         {5, 1, ScatterPoint::Kind::best}};
  const std::string s = render_scatter(axis("x"), axis("y"), pts, {}, o);
  CHECK(s ==
        "  y\n"
        "2 +            o\n"
        "1 +      *\n"
        "0 +.\n"
        "  ++-----+-----+\n"
        "   0     5    10\n"
        "         x\n"
        "   * best\n"
        "   o Pareto frontier\n"
        "   . other configurations\n");
}

TEST_CASE("the best mark wins its cell and a log axis says so") {
  ScatterOptions o;
  o.width = 30;
  o.height = 5;
  o.unicode = true;
  // y spans 1..1000 (1000x): logarithmic, 10 and 100 land on rows 3 and 1 of 0..4 from the top.
  const std::vector<ScatterPoint> pts = {{1, 1, ScatterPoint::Kind::other},
                                         {2, 10, ScatterPoint::Kind::other},
                                         {3, 1000, ScatterPoint::Kind::frontier},
                                         {3, 1000, ScatterPoint::Kind::best},
                                         {2, NAN, ScatterPoint::Kind::other}};
  const std::vector<std::string> l = lines_of(render_scatter(axis("x"), axis("y"), pts, {}, o));
  REQUIRE(l.size() >= 9);
  CHECK(l[0] == "     y (log)");
  CHECK(l[1].find("1000 ┤") == 0);
  CHECK(l[1].find("★") != std::string::npos);
  CHECK(l[1].find("●") == std::string::npos);  // under the best
  CHECK(l[3].find("  32 ┤") == 0);             // the middle tick: 10^1.5 rounded
  CHECK(l[4].find("·") != std::string::npos);  // y = 10: 1/3 of the way up, row 4 of 1..5
  CHECK(l[5].find("   1 ┤·") == 0);
  for (const std::string& line : l) CHECK(display_width(line) <= 30);
}

TEST_CASE("an SLO line is drawn over its column and named in the legend") {
  ScatterOptions o;
  o.width = 24;
  o.height = 3;
  o.unicode = false;
  const std::vector<ScatterPoint> pts = {{0, 0, ScatterPoint::Kind::other},
                                         {20, 1, ScatterPoint::Kind::best}};
  const std::vector<ScatterLine> slo = {{10, "SLO 10 tok/s"}};
  const std::vector<std::string> l = lines_of(render_scatter(axis("x"), axis("y"), pts, slo, o));
  // x 0..20 over 21 columns: the line at column 10, after "1 +" (3 characters).
  REQUIRE(l.size() == 10);
  for (std::size_t r = 1; r <= 3; ++r) CHECK(l[r].substr(3 + 10, 1) == ":");
  CHECK(l[9] == "   : SLO 10 tok/s");
}

TEST_CASE("nothing finite to draw draws nothing") {
  CHECK(render_scatter(axis("x"), axis("y"), {{NAN, 1, ScatterPoint::Kind::other}}, {}, {}).empty());
}
