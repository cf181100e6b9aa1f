#include "report/text_table.hpp"

#include <algorithm>
#include <cstdio>

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

TextTable::TextTable(std::vector<std::string> headers, std::vector<Align> align, Header header)
    : headers_(std::move(headers)), align_(std::move(align)), header_(header) {
  align_.resize(headers_.size(), Align::right);
  if (!align_.empty() && align.empty()) align_[0] = Align::left;
}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(headers_.size());
  rows_.push_back(std::move(cells));
}

void TextTable::add_separator() { rows_.emplace_back(); }

void TextTable::print(std::ostream& os, const std::string& indent) const {
  std::vector<std::size_t> width(headers_.size());
  if (header_ != Header::none)
    for (std::size_t c = 0; c < headers_.size(); ++c) width[c] = display_width(headers_[c]);
  for (const auto& r : rows_)
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], display_width(r[c]));
  const auto line = [&](const std::vector<std::string>& cells) {
    std::string out = indent;
    for (std::size_t c = 0; c < headers_.size(); ++c) {
      const std::string& s = cells[c];
      const std::string pad(width[c] - display_width(s), ' ');
      out += align_[c] == Align::left ? s + pad : pad + s;
      if (c + 1 < headers_.size()) out += "  ";
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    os << out << '\n';
  };
  if (header_ != Header::none) line(headers_);
  std::size_t total = 0;
  for (std::size_t w : width) total += w + 2;
  const std::string rule = indent + std::string(total > 2 ? total - 2 : 0, '-');
  if (header_ == Header::ruled) os << rule << '\n';
  for (const auto& r : rows_) {
    if (r.empty())
      os << rule << '\n';
    else
      line(r);
  }
}

}  // namespace tessera
