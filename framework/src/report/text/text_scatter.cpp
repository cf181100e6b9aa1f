#include "report/text/text_scatter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/text/text_table.hpp"  // display_width

namespace tessera {
namespace {

struct Scale {
  double lo = 0, hi = 1;
  bool log = false;
  double t(double v) const {  // 0..1 across the axis
    const double a = log ? std::log10(lo) : lo, b = log ? std::log10(hi) : hi, x = log ? std::log10(v) : v;
    return b > a ? (x - a) / (b - a) : 0.5;
  }
  double at(double t) const {  // the value at 0..1
    if (log) return std::pow(10.0, std::log10(lo) + t * (std::log10(hi) - std::log10(lo)));
    return lo + t * (hi - lo);
  }
};

Scale scale_of(std::vector<double> values) {
  Scale s;
  if (values.empty()) return s;
  const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
  s.lo = *mn;
  s.hi = *mx;
  s.log = s.lo > 0 && s.hi / s.lo >= 20;
  if (s.hi == s.lo) {  // one value: a range around it
    const double d = s.lo == 0 ? 1 : std::abs(s.lo) * 0.1;
    s.lo -= d;
    s.hi += d;
    s.log = false;
  }
  return s;
}

std::string tick(const ScatterAxis& a, double v) {
  if (a.format) return a.format(v);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::size_t cell(double t, std::size_t n) {
  const double c = std::round(std::clamp(t, 0.0, 1.0) * static_cast<double>(n - 1));
  return static_cast<std::size_t>(c);
}

}  // namespace

std::string render_scatter(const ScatterAxis& xa, const ScatterAxis& ya,
                           const std::vector<ScatterPoint>& points, const std::vector<ScatterLine>& lines,
                           const ScatterOptions& o) {
  std::vector<ScatterPoint> pts;
  for (const ScatterPoint& p : points)
    if (std::isfinite(p.x) && std::isfinite(p.y)) pts.push_back(p);
  if (pts.empty()) return "";
  std::vector<double> xs, ys;
  for (const ScatterPoint& p : pts) {
    xs.push_back(p.x);
    ys.push_back(p.y);
  }
  for (const ScatterLine& l : lines)
    if (std::isfinite(l.x)) xs.push_back(l.x);
  Scale sx = scale_of(xs), sy = scale_of(ys);
  // A logarithmic axis leaves out what is not positive (a line at 0, say).
  const auto drawable = [](const Scale& s, double v) { return !s.log || v > 0; };

  const std::size_t rows = std::max<std::size_t>(o.height, 3);
  const std::size_t ymid = (rows - 1) / 2;  // the ticked rows: top, middle, bottom
  const std::string ty[3] = {tick(ya, sy.hi), tick(ya, sy.at(1 - static_cast<double>(ymid) / (rows - 1))),
                             tick(ya, sy.lo)};
  std::size_t margin = 0;
  for (const auto& t : ty) margin = std::max(margin, display_width(t));
  const std::size_t cols = o.width > margin + 12 ? o.width - margin - 2 : 10;

  const char* dot = o.unicode ? "·" : ".";
  const char* front = o.unicode ? "●" : "o";
  const char* star = o.unicode ? "★" : "*";
  const char* vline = o.unicode ? "┊" : ":";
  std::vector<std::vector<std::string>> grid(rows, std::vector<std::string>(cols, " "));
  std::vector<std::vector<int>> rank(rows, std::vector<int>(cols, 0));
  for (const ScatterLine& l : lines) {
    if (!std::isfinite(l.x) || !drawable(sx, l.x)) continue;
    const std::size_t c = cell(sx.t(l.x), cols);
    for (std::size_t r = 0; r < rows; ++r) grid[r][c] = vline;
  }
  for (const ScatterPoint& p : pts) {
    if (!drawable(sx, p.x) || !drawable(sy, p.y)) continue;
    const int k = p.kind == ScatterPoint::Kind::best ? 3 : p.kind == ScatterPoint::Kind::frontier ? 2 : 1;
    const std::size_t c = cell(sx.t(p.x), cols), r = rows - 1 - cell(sy.t(p.y), rows);
    if (k < rank[r][c]) continue;
    rank[r][c] = k;
    grid[r][c] = k == 3 ? star : k == 2 ? front : dot;
  }

  std::string out;
  out += std::string(margin + 1, ' ') + ya.label + (sy.log ? " (log)" : "") + '\n';
  for (std::size_t r = 0; r < rows; ++r) {
    std::string label;
    if (r == 0) label = ty[0];
    if (r == ymid) label = ty[1];
    if (r == rows - 1) label = ty[2];
    const bool ticked = !label.empty();
    std::string line = std::string(margin - display_width(label), ' ') + label + ' ';
    line += ticked ? (o.unicode ? "┤" : "+") : (o.unicode ? "│" : "|");
    for (const auto& g : grid[r]) line += g;
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + '\n';
  }
  // The x axis: a rule with three ticks, their values under them.
  std::string axis = std::string(margin + 1, ' ') + (o.unicode ? "└" : "+");
  const std::size_t mid = (cols - 1) / 2;
  for (std::size_t c = 0; c < cols; ++c)
    axis += (c == 0 || c == mid || c == cols - 1) ? (o.unicode ? "┬" : "+") : (o.unicode ? "─" : "-");
  out += axis + '\n';
  const std::string tl = tick(xa, sx.lo), tm = tick(xa, sx.at(static_cast<double>(mid) / (cols - 1))),
                    th = tick(xa, sx.hi);
  std::string ticks(margin + 2, ' ');
  ticks += tl;
  const std::size_t base = margin + 2;
  const std::size_t mw = display_width(tm), hw = display_width(th);
  const std::size_t mid_at = base + mid >= mw / 2 ? base + mid - mw / 2 : 0;
  if (mid_at > display_width(ticks) + 1) ticks += std::string(mid_at - display_width(ticks), ' ') + tm;
  const std::size_t hi_at = base + cols >= hw ? base + cols - hw : 0;
  if (hi_at > display_width(ticks) + 1) ticks += std::string(hi_at - display_width(ticks), ' ') + th;
  out += ticks + '\n';
  const std::string xl = xa.label + (sx.log ? " (log)" : "");
  const std::size_t xl_at =
      base + cols / 2 >= display_width(xl) / 2 ? base + cols / 2 - display_width(xl) / 2 : 0;
  out += std::string(xl_at, ' ') + xl + '\n';

  // The legend: the marks present, then each line.
  bool has[4] = {false, false, false, false};
  for (const ScatterPoint& p : pts)
    has[p.kind == ScatterPoint::Kind::best ? 3 : p.kind == ScatterPoint::Kind::frontier ? 2 : 1] = true;
  std::vector<std::string> items;
  if (has[3]) items.push_back(std::string(star) + " " + o.best_label);
  if (has[2]) items.push_back(std::string(front) + " " + o.frontier_label);
  if (has[1]) items.push_back(std::string(dot) + " " + o.other_label);
  for (const ScatterLine& l : lines)
    if (std::isfinite(l.x) && !l.label.empty()) items.push_back(std::string(vline) + " " + l.label);
  const std::string pad(margin + 2, ' ');
  std::string legend;
  for (const std::string& item : items) {
    if (!legend.empty() && display_width(pad + legend + "   " + item) > o.width) {
      out += pad + legend + '\n';
      legend.clear();
    }
    legend += (legend.empty() ? "" : "   ") + item;
  }
  if (!legend.empty()) out += pad + legend + '\n';
  return out;
}

}  // namespace tessera
