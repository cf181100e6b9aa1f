// Reading a measured operator table and interpolating in it (kernel_table.hpp).
#include "kernel_table.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "tessera/error.hpp"

namespace tessera::plugins {

namespace {

// The axes each operator may be tabled over (README.md "Table format").
struct OpAxes {
  const char* op;
  std::array<const char*, kMaxTableAxes> axes;
};
constexpr OpAxes kOps[] = {
    {"gemm", {"m", "n", "k", "nk", nullptr, nullptr}},
    {"attention_decode", {"batch", "context", "q_heads", "kv_heads", nullptr, nullptr}},
    {"attention_prefill", {"batch", "context", "q_heads", "kv_heads", nullptr, nullptr}},
    {"copy", {"bytes", nullptr, nullptr, nullptr, nullptr, nullptr}},
    {"all_reduce", {"bytes", "ranks", nullptr, nullptr, nullptr, nullptr}},
    {"fused_moe", {"tokens", "experts", nullptr, nullptr, nullptr, nullptr}},
};

std::string trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && (s[a] == ' ' || s[a] == '\t' || s[a] == '\r')) ++a;
  while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\r')) --b;
  return std::string(s.substr(a, b - a));
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t c = line.find(',', start);
    out.push_back(trim(std::string_view(line).substr(start, c == std::string::npos ? c : c - start)));
    if (c == std::string::npos) break;
    start = c + 1;
  }
  return out;
}

bool parse_positive(const std::string& s, double& v) {
  const char* b = s.data();
  const char* e = s.data() + s.size();
  const auto r = std::from_chars(b, e, v);
  return r.ec == std::errc() && r.ptr == e && std::isfinite(v) && v > 0;
}

std::string fmt(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

}  // namespace

KernelTable parse_kernel_table(std::string_view text, const std::string& file, const std::string& name) {
  KernelTable t;
  t.name = name;
  const auto fail = [&](int line, const std::string& what) -> void {
    throw InputError(file + ":" + std::to_string(line) + ": error: kernel table: " + what);
  };
  std::vector<std::string> header;
  std::vector<std::vector<double>> points;
  std::istringstream in{std::string(text)};
  std::string raw;
  int line_no = 0;
  const OpAxes* op = nullptr;
  for (; std::getline(in, raw);) {
    ++line_no;
    const std::string line = trim(raw);
    if (line.empty()) continue;
    if (line[0] == '#') {
      const std::string body = trim(std::string_view(line).substr(1));
      const std::size_t colon = body.find(':');
      if (colon == std::string::npos) continue;
      const std::string key = body.substr(0, colon), value = trim(std::string_view(body).substr(colon + 1));
      if (key == "machine")
        t.machine = value;
      else if (key == "software")
        t.software = value;
      else if (key == "framework")
        t.framework = value;
      else if (key == "op")
        t.op = value;
      else if (key == "dtype")
        t.dtype = value;
      else if (key == "level")
        t.level = value;
      continue;  // any other comment
    }
    if (header.empty()) {
      for (const OpAxes& o : kOps)
        if (t.op == o.op) op = &o;
      if (t.machine.empty()) fail(line_no, "no '# machine:' line before the header");
      if (!op)
        fail(line_no, "'# op: " + t.op +
                          "' is not a tabled operator (gemm, attention_decode, "
                          "attention_prefill, copy, all_reduce, fused_moe)");
      if (t.dtype.empty()) fail(line_no, "no '# dtype:' line before the header");
      if (t.framework.empty()) t.framework = "any";
      header = split_csv(line);
      if (header.size() < 3 || header[header.size() - 2] != "time_us" || header.back() != "source")
        fail(line_no, "the header must end with time_us,source");
      for (std::size_t a = 0; a + 2 < header.size(); ++a) {
        bool known = false;
        for (const char* ax : op->axes) known = known || (ax && header[a] == ax);
        if (!known) fail(line_no, "column '" + header[a] + "' is not an axis of " + t.op);
        if (std::find(t.axes.begin(), t.axes.end(), header[a]) != t.axes.end())
          fail(line_no, "axis '" + header[a] + "' given twice");
        t.axes.push_back(header[a]);
      }
      if (static_cast<int>(t.axes.size()) > kMaxTableAxes) fail(line_no, "too many axes");
      t.grid.resize(t.axes.size());
      continue;
    }
    const std::vector<std::string> cells = split_csv(line);
    if (cells.size() != header.size())
      fail(line_no, std::to_string(cells.size()) + " cells, the header has " + std::to_string(header.size()));
    std::vector<double> p(header.size() - 1);
    for (std::size_t a = 0; a + 1 < header.size(); ++a)
      if (!parse_positive(cells[a], p[a]))
        fail(line_no, header[a] + " '" + cells[a] + "' is not a positive number");
    if (cells.back().empty()) fail(line_no, "no source (a row id 'row N' or the script and date)");
    points.push_back(std::move(p));
    t.sources.push_back(cells.back());
  }
  if (header.empty()) fail(line_no, "no header line");
  if (points.empty()) fail(line_no, "no entries");
  const std::size_t d = t.axes.size();
  for (const auto& p : points)
    for (std::size_t a = 0; a < d; ++a) t.grid[a].push_back(p[a]);
  std::size_t total = 1;
  for (auto& g : t.grid) {
    std::sort(g.begin(), g.end());
    g.erase(std::unique(g.begin(), g.end()), g.end());
    total *= g.size();
  }
  if (total != points.size())
    fail(line_no, std::to_string(points.size()) + " entries do not fill the grid of " +
                      std::to_string(total) + " (every combination of the axis values must be given once)");
  t.log_seconds.assign(total, std::nan(""));
  std::vector<std::string> sources(total);
  for (std::size_t e = 0; e < points.size(); ++e) {
    std::size_t idx = 0;
    for (std::size_t a = 0; a < d; ++a) {
      const auto it = std::lower_bound(t.grid[a].begin(), t.grid[a].end(), points[e][a]);
      idx = idx * t.grid[a].size() + static_cast<std::size_t>(it - t.grid[a].begin());
    }
    if (!std::isnan(t.log_seconds[idx]))
      fail(line_no, "entry " + std::to_string(e + 1) + " repeats a grid point");
    t.log_seconds[idx] = std::log(points[e][d] * 1e-6);
    sources[idx] = t.sources[e];
  }
  t.sources = std::move(sources);
  monotone_envelope(t);
  t.hit_tag = "table " + t.name;
  for (std::size_t a = 0; a < d; ++a)
    t.outside_tags.push_back("fallback: calibrated (" + t.axes[a] + " outside " + fmt(t.grid[a].front()) +
                             ".." + fmt(t.grid[a].back()) + " in " + t.name + ")");
  return t;
}

bool padded_axis(const std::string& axis) {
  if (axis == "ranks" || axis == "experts" || axis == "q_heads" || axis == "kv_heads") return false;
  return true;  // m, n, k, nk, batch, context, bytes, tokens
}

void monotone_envelope(KernelTable& t) {
  const std::size_t d = t.axes.size();
  std::vector<std::size_t> stride(d, 1);
  for (std::size_t a = d; a-- > 1;) stride[a - 1] = stride[a] * t.grid[a].size();
  const std::size_t total = t.log_seconds.size();
  for (std::size_t a = 0; a < d; ++a) {
    if (!padded_axis(t.axes[a])) continue;
    const std::size_t n = t.grid[a].size();
    // Every line along axis a: the entries whose index along a is 0 start one.
    for (std::size_t start = 0; start < total; ++start) {
      if ((start / stride[a]) % n != 0) continue;
      for (std::size_t i = n - 1; i-- > 0;) {
        double& here = t.log_seconds[start + i * stride[a]];
        here = std::min(here, t.log_seconds[start + (i + 1) * stride[a]]);
      }
    }
  }
}

TableLookup lookup(const KernelTable& t, const double* query) {
  const int d = static_cast<int>(t.axes.size());
  std::array<std::size_t, kMaxTableAxes> lo{};
  std::array<double, kMaxTableAxes> frac{};
  for (int a = 0; a < d; ++a) {
    const std::vector<double>& g = t.grid[static_cast<std::size_t>(a)];
    const double q = query[a];
    const double tol = 1e-6 * g.back();
    if (!(q > 0) || q < g.front() * (1 - 1e-6) || q > g.back() + tol) return {false, 0, a};
    if (g.size() == 1) {
      lo[static_cast<std::size_t>(a)] = 0;
      frac[static_cast<std::size_t>(a)] = 0;
      continue;
    }
    std::size_t i = static_cast<std::size_t>(std::upper_bound(g.begin(), g.end(), q) - g.begin());
    i = std::clamp<std::size_t>(i, 1, g.size() - 1) - 1;  // g[i] <= q <= g[i+1]
    const double f = (std::log(q) - std::log(g[i])) / (std::log(g[i + 1]) - std::log(g[i]));
    lo[static_cast<std::size_t>(a)] = i;
    frac[static_cast<std::size_t>(a)] = std::clamp(f, 0.0, 1.0);
  }
  double acc = 0;
  for (unsigned corner = 0; corner < (1u << d); ++corner) {
    double w = 1;
    std::size_t idx = 0;
    for (int a = 0; a < d; ++a) {
      const std::size_t n = t.grid[static_cast<std::size_t>(a)].size();
      const bool up = (corner >> a) & 1u;
      const double f = frac[static_cast<std::size_t>(a)];
      if (up && n == 1) {
        w = 0;
        break;
      }
      w *= up ? f : 1 - f;
      idx = idx * n + lo[static_cast<std::size_t>(a)] + (up ? 1 : 0);
    }
    if (w > 0) acc += w * t.log_seconds[idx];
  }
  return {true, std::exp(acc), -1};
}

std::vector<std::string> provenance_row_ids(const KernelTable& t) {
  std::vector<std::string> ids;
  for (const std::string& s : t.sources)
    if (s.rfind("row ", 0) == 0) ids.push_back(trim(std::string_view(s).substr(4)));
  return ids;
}

}  // namespace tessera::plugins
