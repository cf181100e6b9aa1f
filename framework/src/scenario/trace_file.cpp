// A request trace file (trace_file.hpp).
#include "scenario/trace_file.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

#include "core/text/csv.hpp"
#include "core/text/input_file.hpp"
#include "scenario/readers/json_tree.hpp"
#include "tessera/limits.hpp"

namespace tessera::loader {

namespace {

using requests::TraceFormat;
using requests::TraceRow;

struct Columns {
  const char* time;
  const char* input;
  const char* output;
  const char* prefix;  // nullptr: none
  double time_scale;   // seconds per unit of the time column
};

Columns columns_of(TraceFormat f) {
  switch (f) {
    case TraceFormat::azure:
      return {"TIMESTAMP", "ContextTokens", "GeneratedTokens", nullptr, 1};
    case TraceFormat::burstgpt:
      return {"Timestamp", "Request tokens", "Response tokens", nullptr, 1};
    case TraceFormat::mooncake:
      return {"timestamp", "input_length", "output_length", nullptr, 1e-3};
    case TraceFormat::tessera:
      break;
  }
  return {"time_s", "input", "output", "prefix_id", 1};
}

const char* format_name(TraceFormat f) {
  constexpr std::array<const char*, 4> names{"tessera", "azure", "burstgpt", "mooncake"};
  return names[static_cast<std::size_t>(f)];
}

std::optional<double> number(std::string_view t) {
  double v = 0;
  const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || p != t.data() + t.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<std::int64_t> integer(std::string_view t) {
  std::int64_t v = 0;
  const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
  return v;
}

// Days from 1970-01-01 to a civil date (Hinnant, "chrono-Compatible Low-Level Date Algorithms").
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

// "2023-11-16 18:15:46.6805900" (Azure's TIMESTAMP) as seconds since 1970, UTC.
std::optional<double> azure_time(std::string_view t) {
  if (t.size() < 19 || t[4] != '-' || t[7] != '-' || (t[10] != ' ' && t[10] != 'T') || t[13] != ':' ||
      t[16] != ':')
    return std::nullopt;
  const auto y = integer(t.substr(0, 4)), mo = integer(t.substr(5, 2)), d = integer(t.substr(8, 2));
  const auto h = integer(t.substr(11, 2)), mi = integer(t.substr(14, 2));
  const auto s = number(t.substr(17));
  if (!y || !mo || !d || !h || !mi || !s || *mo < 1 || *mo > 12 || *d < 1 || *d > 31 || *h > 23 || *mi > 59 ||
      *s < 0 || *s >= 61)
    return std::nullopt;
  const std::int64_t days = days_from_civil(*y, static_cast<unsigned>(*mo), static_cast<unsigned>(*d));
  return static_cast<double>(days * 86400 + *h * 3600 + *mi * 60) + *s;
}

// One row's cells (text and where), checked and appended.
struct Cell {
  std::string_view text;
  SourceLocation where;
};

class Rows {
 public:
  Rows(TraceFormat f, Diags& d) : format_(f), cols_(columns_of(f)), d_(d) {}

  void add(const Cell& time, const Cell& input, const Cell& output, const Cell* prefix) {
    TraceRow r;
    const auto t = format_ == TraceFormat::azure ? azure_time(time.text) : number(time.text);
    if (!t || *t < 0) {
      d_.error(time.where, std::string(cols_.time) + ": expected " +
                               (format_ == TraceFormat::azure ? "a time YYYY-MM-DD HH:MM:SS[.fraction]"
                                                              : "a time of at least 0") +
                               ", found \"" + std::string(time.text) + "\"");
      return;
    }
    r.time_s = *t * cols_.time_scale;
    if (have_time_ && r.time_s < last_time_) {
      d_.error(time.where, std::string(cols_.time) + ": the rows must be in time order, found " +
                               std::string(time.text) + " after a later time");
      return;
    }
    const auto in = integer(input.text), out = integer(output.text);
    if (!in || *in < 1) {
      d_.error(input.where, std::string(cols_.input) + ": expected a token count of at least 1, found \"" +
                                std::string(input.text) + "\"");
      return;
    }
    if (!out || *out < 0) {
      d_.error(output.where, std::string(cols_.output) + ": expected a token count of at least 0, found \"" +
                                 std::string(output.text) + "\"");
      return;
    }
    if (prefix && !prefix->text.empty()) {
      const auto p = integer(prefix->text);
      if (!p || *p < 0) {
        d_.error(prefix->where, std::string(cols_.prefix) + ": expected a prefix id of at least 0, found \"" +
                                    std::string(prefix->text) + "\"");
        return;
      }
      r.prefix_id = *p;
    }
    have_time_ = true;
    last_time_ = r.time_s;
    if (*out == 0) {
      ++skipped_;
      return;
    }
    r.input = *in;
    r.output = *out;
    rows_.push_back(r);
  }

  const Columns& columns() const { return cols_; }
  TraceRead take() {
    TraceRead t;
    t.skipped = skipped_;
    t.rows = std::make_shared<const std::vector<TraceRow>>(std::move(rows_));
    return t;
  }

 private:
  TraceFormat format_;
  Columns cols_;
  Diags& d_;
  std::vector<TraceRow> rows_;
  std::uint64_t skipped_ = 0;
  bool have_time_ = false;
  double last_time_ = 0;
};

void read_csv(const std::string& text, const std::string& path, Rows& rows, Diags& d) {
  const Columns& c = rows.columns();
  std::array<int, 4> at{-1, -1, -1, -1};  // time, input, output, prefix
  bool header = true;
  scan_csv(text, path, [&](const CsvRecord& rec) {
    if (header) {
      header = false;
      const std::array<const char*, 4> names{c.time, c.input, c.output, c.prefix};
      for (std::size_t i = 0; i < rec.size(); ++i)
        for (std::size_t k = 0; k < names.size(); ++k)
          if (names[k] && rec.cells[i].text == names[k]) at[k] = static_cast<int>(i);
      for (std::size_t k = 0; k < 3; ++k)
        if (at[k] < 0)
          d.error({path, rec.line, 1}, std::string("expected a column \"") + names[k] +
                                           "\" in the header (columns " + c.time + ", " + c.input + ", " +
                                           c.output + ")");
      return;
    }
    if (at[0] < 0 || at[1] < 0 || at[2] < 0 || d.full()) return;
    auto cell = [&](int k) -> std::optional<Cell> {
      const auto i = static_cast<std::size_t>(at[static_cast<std::size_t>(k)]);
      if (i >= rec.size()) return std::nullopt;
      return Cell{rec.cells[i].text, {path, rec.cells[i].line, rec.cells[i].column}};
    };
    const auto t = cell(0), in = cell(1), out = cell(2);
    if (!t || !in || !out) {
      d.error({path, rec.line, 1}, "expected " + std::to_string(std::max({at[0], at[1], at[2]}) + 1) +
                                       " cells (up to column " +
                                       std::string(!t    ? c.time
                                                   : !in ? c.input
                                                         : c.output) +
                                       "), found " + std::to_string(rec.size()));
      return;
    }
    const auto p = at[3] >= 0 ? cell(3) : std::nullopt;
    rows.add(*t, *in, *out, p ? &*p : nullptr);
  });
}

void read_jsonl(const std::string& text, const std::string& path, Rows& rows, Diags& d) {
  const Columns& c = rows.columns();
  std::size_t start = 0;
  int line = 0;
  std::uint64_t count = 0;
  while (start < text.size() && !d.full()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    ++line;
    std::string one = text.substr(start, end - start);
    start = end + 1;
    if (one.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (++count > current_limits().csv_rows) {
      d.error({path, line, 1}, "more than " + std::to_string(current_limits().csv_rows) +
                                   " rows: beyond the limit csv.rows (docs/limits.md)");
      return;
    }
    Diags line_d;
    auto node = parse_json_text(one, path, line_d, "trace");
    for (Diagnostic& x : line_d.list) {
      x.where.line = line;
      d.error(x.where, x.message);
    }
    if (!node) continue;
    const SourceLocation here{path, line, 1};
    if (!node->is_object()) {
      d.error(here, "expected a JSON object per line, found " + describe(*node));
      continue;
    }
    std::array<std::string, 3> texts;
    std::array<SourceLocation, 3> wheres;
    const std::array<const char*, 3> keys{c.time, c.input, c.output};
    bool ok = true;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const JMember* m = node->find(keys[k]);
      if (!m || !m->value.is_number()) {
        d.error(m ? SourceLocation{path, line, m->value.where.column} : here,
                std::string("expected a number \"") + keys[k] + "\", found " +
                    (m ? describe(m->value) : std::string("none")));
        ok = false;
        break;
      }
      texts[k] = m->value.text;
      wheres[k] = {path, line, m->value.where.column};
    }
    if (ok) rows.add({texts[0], wheres[0]}, {texts[1], wheres[1]}, {texts[2], wheres[2]}, nullptr);
  }
}

}  // namespace

TraceRead read_trace(const std::string& path, TraceFormat format, const SourceLocation& where, Diags& d) {
  std::string text;
  try {
    text = read_input_file(path, "trace");
  } catch (const InputError& e) {
    d.error(where, std::string("serving.requests.trace: ") + e.what());
    return {};
  }
  Rows rows(format, d);
  const std::size_t before = d.size();
  try {
    if (format == TraceFormat::mooncake)
      read_jsonl(text, path, rows, d);
    else
      read_csv(text, path, rows, d);
  } catch (const InputErrors& e) {
    for (const Diagnostic& x : e.diagnostics()) d.error(x.where, x.message);
  } catch (const InputError& e) {
    d.error({path, 0, 0}, e.what());
  }
  if (d.size() > before) return {};
  TraceRead t = rows.take();
  if (t.rows->empty())
    d.error(where,
            "serving.requests.trace: " + path + " holds no request (format " + format_name(format) +
                (t.skipped ? ", " + std::to_string(t.skipped) + " rows with 0 output tokens left out" : "") +
                ")");
  return t;
}

}  // namespace tessera::loader
