#include "report/text/text_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/text/safe_text.hpp"

namespace tessera {

std::size_t display_width(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char ch : s)
    if ((ch & 0xC0) != 0x80) ++n;  // count code points, not continuation bytes
  return n;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string tokens_rate(double v) {
  if (!std::isfinite(v)) return "—";
  if (v >= 1e6) return fixed(v / 1e6, 2) + " M";
  if (v >= 1e4) return fixed(v / 1e3, 1) + " k";
  if (v >= 100) return fixed(v, 0);
  if (v >= 10) return fixed(v, 1);
  return fixed(v, 2);
}

std::string wrap_words(const std::string& text, std::size_t width, const std::string& indent) {
  if (width == 0) return text;
  std::istringstream in(text);
  std::string word, out, line;
  while (in >> word) {
    if (!line.empty() && display_width(indent + line + " " + word) > width) {
      out += (out.empty() ? "" : indent) + line + "\n";
      line = word;
    } else {
      line += (line.empty() ? "" : " ") + word;
    }
  }
  if (!line.empty()) out += (out.empty() ? "" : indent) + line;
  return out;
}

// `label` then the comma-separated `list`, broken after a comma so that no line is wider than
// `width` (0: one line), continued under the list.
std::string wrap_list(const std::string& label, const std::string& list, std::size_t width) {
  if (width == 0 || display_width(label + list) <= width) return label + list;
  const std::string pad(label.size(), ' ');
  std::string out = label;
  std::size_t used = label.size();
  std::size_t start = 0;
  while (start < list.size()) {
    std::size_t comma = list.find(',', start);
    const std::string item =
        list.substr(start, comma == std::string::npos ? std::string::npos : comma + 1 - start);
    start = comma == std::string::npos ? list.size() : comma + 1;
    if (used > pad.size() && used + display_width(item) > width) {
      out += "\n" + pad;
      used = pad.size();
    }
    out += item;
    used += display_width(item);
  }
  return out;
}

std::string fit_lines(const std::string& text, std::size_t width) {
  if (width == 0) return text;
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    const std::size_t lead = line.find_first_not_of(' ');
    std::size_t body = lead;  // where the text after the label starts
    if (lead != std::string::npos) {
      const std::size_t gap = line.find("  ", lead);
      if (gap != std::string::npos) body = line.find_first_not_of(' ', gap);
    }
    const bool prose = body != std::string::npos && line.find("  ", body) == std::string::npos;
    if (display_width(line) <= width || !prose || body + 20 > width) {
      out += line + '\n';
      continue;
    }
    const std::string head = line.substr(0, body);
    const std::string pad(body == lead ? lead + 2 : body, ' ');
    out += head + wrap_words(line.substr(body), width, pad) + '\n';
  }
  return out;
}

namespace {

// The columns shown, their headers and cells.
struct TableLayout {
  std::vector<std::size_t> columns;
  std::vector<std::string> headers;            // per shown column
  std::vector<std::vector<std::string>> rows;  // every column of the table; empty = a rule
};

std::vector<std::string> tokens(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  std::string t;
  while (in >> t) out.push_back(t);
  return out;
}

// "ep" + "1" -> "ep=1"; "tp@" + "pe" -> "tp@pe".
std::string named_value(const std::string& header, const std::string& cell) {
  return header + (!header.empty() && header.back() == '@' ? "" : "=") + cell;
}

}  // namespace

TextTable::TextTable(std::vector<std::string> headers, std::vector<Align> align, Header header)
    : headers_(std::move(headers)), align_(std::move(align)), header_(header) {
  for (std::string& h : headers_) h = printable_text(h);
  align_.resize(headers_.size(), Align::right);
  if (!align_.empty() && align.empty()) align_[0] = Align::left;
  fit_.resize(headers_.size());
}

void TextTable::set_fit(std::size_t column, Fit fit) {
  if (column < fit_.size()) fit_[column] = std::move(fit);
}

void TextTable::add_row(std::vector<std::string> cells) { add_row(std::move(cells), {}); }

void TextTable::add_row(std::vector<std::string> cells, std::vector<std::string> abbreviated) {
  cells.resize(headers_.size());
  abbreviated.resize(headers_.size());
  // A cell is one line of printable text whatever its input held (a source name with ESC or a
  // newline from a CSV): escaped as diagnostics are (core/text/safe_text.hpp).
  for (std::string& c : cells) c = printable_text(c);
  for (std::string& c : abbreviated) c = printable_text(c);
  rows_.push_back(std::move(cells));
  short_.push_back(std::move(abbreviated));
}

void TextTable::add_separator() {
  rows_.emplace_back();
  short_.emplace_back();
}

void TextTable::print(std::ostream& os, const std::string& indent, std::size_t width) const {
  const auto render = [&](const TableLayout& l) {
    std::vector<std::size_t> w(l.columns.size());
    if (header_ != Header::none)
      for (std::size_t i = 0; i < l.columns.size(); ++i) w[i] = display_width(l.headers[i]);
    for (const auto& r : l.rows)
      if (!r.empty())
        for (std::size_t i = 0; i < l.columns.size(); ++i)
          w[i] = std::max(w[i], display_width(r[l.columns[i]]));
    std::string text;
    const auto line = [&](const auto& cell) {
      std::string out = indent;
      for (std::size_t i = 0; i < l.columns.size(); ++i) {
        const std::string& s = cell(i);
        const std::string pad(w[i] - display_width(s), ' ');
        out += align_[l.columns[i]] == Align::left ? s + pad : pad + s;
        if (i + 1 < l.columns.size()) out += "  ";
      }
      while (!out.empty() && out.back() == ' ') out.pop_back();
      text += out + '\n';
    };
    if (header_ != Header::none) line([&](std::size_t i) -> const std::string& { return l.headers[i]; });
    std::size_t total = 0;
    for (std::size_t x : w) total += x + 2;
    const std::string rule = indent + std::string(total > 2 ? total - 2 : 0, '-') + '\n';
    if (header_ == Header::ruled) text += rule;
    for (const auto& r : l.rows) {
      if (r.empty())
        text += rule;
      else
        line([&](std::size_t i) -> const std::string& { return r[l.columns[i]]; });
    }
    return text;
  };
  const auto widest = [](const std::string& text) {
    std::size_t most = 0, start = 0;
    while (start < text.size()) {
      const std::size_t end = text.find('\n', start);
      most = std::max(most, display_width(text.substr(start, end - start)));
      start = end + 1;
    }
    return most;
  };

  TableLayout l;
  for (std::size_t c = 0; c < headers_.size(); ++c) l.columns.push_back(c);
  l.headers = headers_;
  l.rows = rows_;
  std::string text = render(l);
  if (width == 0 || widest(text) <= width) {
    os << text;
    return;
  }

  // Abbreviate: short headers, folded columns and common knobs named once.
  std::vector<std::string> every_row;
  TableLayout a;
  a.rows = rows_;
  for (std::size_t i = 0; i < a.rows.size(); ++i)
    for (std::size_t c = 0; c < a.rows[i].size(); ++c)
      if (!short_[i][c].empty()) a.rows[i][c] = short_[i][c];
  for (std::size_t c = 0; c < headers_.size(); ++c) {
    const std::string& head = fit_[c].short_header.empty() ? headers_[c] : fit_[c].short_header;
    const std::string* first = nullptr;
    bool same = true;
    for (const auto& r : a.rows) {
      if (r.empty()) continue;
      if (!first) first = &r[c];
      same = same && r[c] == *first;
    }
    if (fit_[c].fold && first && same) {
      every_row.push_back(named_value(headers_[c], *first));
      continue;
    }
    if (fit_[c].knobs && first) {
      std::vector<std::string> common = tokens(*first);
      for (const auto& r : a.rows) {
        if (r.empty()) continue;
        const std::vector<std::string> mine = tokens(r[c]);
        std::erase_if(common, [&](const std::string& t) {
          return std::find(mine.begin(), mine.end(), t) == mine.end();
        });
      }
      for (const std::string& t : common) every_row.push_back(t);
      for (auto& r : a.rows) {
        if (r.empty()) continue;
        std::string kept;
        for (const std::string& t : tokens(r[c]))
          if (std::find(common.begin(), common.end(), t) == common.end())
            kept += (kept.empty() ? "" : " ") + t;
        r[c] = kept;
      }
    }
    a.columns.push_back(c);
    a.headers.push_back(head);
  }
  text = render(a);

  // Drop columns, the highest rank first (ties: the rightmost), until the table fits.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < a.columns.size(); ++i)
    if (fit_[a.columns[i]].drop > 0) order.push_back(a.columns[i]);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    if (fit_[x].drop != fit_[y].drop) return fit_[x].drop > fit_[y].drop;
    return x > y;
  });
  std::vector<std::string> dropped;
  for (std::size_t c : order) {
    if (widest(text) <= width) break;
    const auto at = std::find(a.columns.begin(), a.columns.end(), c) - a.columns.begin();
    dropped.push_back(headers_[c]);
    a.columns.erase(a.columns.begin() + at);
    a.headers.erase(a.headers.begin() + at);
    text = render(a);
  }
  os << text;
  const std::string more(indent.size() + 2, ' ');
  if (!every_row.empty()) {
    std::string note = "every row:";
    for (const std::string& t : every_row) note += " " + t;
    os << indent << wrap_words(note, width, more) << '\n';
  }
  if (!dropped.empty()) {
    std::string note = "left out to fit " + std::to_string(width) + " columns:";
    for (std::size_t i = 0; i < dropped.size(); ++i) note += (i ? ", " : " ") + dropped[i];
    note += " (--width 0 shows every column)";
    os << indent << wrap_words(note, width, more) << '\n';
  }
}

}  // namespace tessera
