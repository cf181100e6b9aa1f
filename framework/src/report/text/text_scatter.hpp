#pragma once
// A small scatter plot in text for a terminal (`tessera run` and `serve` draw their Pareto
// frontier with it): the points on a grid of characters, the frontier and the best marked,
// both axes labelled with ticks in human units, optional vertical lines (an SLO). An axis
// whose values are all positive and span 20x or more is logarithmic (its label says "log").
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "tessera/export.hpp"

namespace tessera {

struct ScatterAxis {
  std::string label;                          // "latency", "PEs"
  std::function<std::string(double)> format;  // a tick's text ("6.131 ms"); empty = %.4g
};

struct ScatterPoint {
  enum class Kind { other, frontier, best };  // drawn over one another in this order
  double x = 0, y = 0;
  Kind kind = Kind::other;
};

struct ScatterLine {  // a vertical line at x (e.g. the SLO's floor on tokens/s/user)
  double x = 0;
  std::string label;
};

struct ScatterOptions {
  std::size_t width = 72;   // display columns of every line, at most
  std::size_t height = 12;  // rows of the plotting area
  bool unicode = true;      // box-drawing characters and ·●★; else ASCII (. o * | + -)
  std::string other_label = "other configurations";
  std::string frontier_label = "Pareto frontier";
  std::string best_label = "best";
};

// The plot as lines ending in '\n'; "" when no point has finite coordinates (positive ones
// on a logarithmic axis). Non-finite points are left out.
TESSERA_API std::string render_scatter(const ScatterAxis& x, const ScatterAxis& y,
                                       const std::vector<ScatterPoint>& points,
                                       const std::vector<ScatterLine>& lines, const ScatterOptions& options);

}  // namespace tessera
