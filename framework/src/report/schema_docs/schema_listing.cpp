#include "report/schema_docs/schema_listing.hpp"

#include <algorithm>
#include <vector>

#include "report/text/text_table.hpp"
#include "studies/json/field_text.hpp"

namespace tessera::schema {

namespace {

constexpr std::size_t kMinHelpWidth = 30;  // narrower than this, help goes on a line of its own
constexpr std::size_t kHelpIndent = 4;

const char* heading(FieldFile f) {
  switch (f) {
    case FieldFile::model:
      return "Model keys: a model file, or a scenario's `model:` mapping (paths in a scenario: "
             "model.KEY).";
    case FieldFile::machine:
      return "Machine keys: a machine file, or a scenario's `machine:` mapping (paths in a scenario: "
             "machine.KEY; levels[] are addressed by name: machine.levels.<level>.KEY).";
    case FieldFile::scenario:
      return "Scenario keys (the model and machine keys: tessera schema model|machine).";
  }
  return "";
}

// Words of `text` in lines of at most `width` columns (a longer word stands alone).
std::vector<std::string> wrap(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    start = end + 1;
    if (word.empty()) continue;
    if (!line.empty() && display_width(line) + 1 + display_width(word) > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) lines.push_back(line);
  if (lines.empty()) lines.emplace_back();
  return lines;
}

std::string pad(const std::string& s, std::size_t w) {
  const std::size_t n = display_width(s);
  return n >= w ? s : s + std::string(w - n, ' ');
}

}  // namespace

std::string schema_listing(FieldFile file, std::size_t width) {
  const std::vector<const FieldRow*> rows = rows_of(file);
  std::vector<std::vector<std::string>> cells{{"KEY", "TYPE", "RANGE / CHOICES", "DEFAULT", "HELP"}};
  std::vector<bool> is_enum{false};
  for (const FieldRow* r : rows) is_enum.push_back(r->spec.type == ParamType::enumeration);
  for (const FieldRow* r : rows)
    cells.push_back(
        {display_key(*r), type_text(*r), range_text(*r), default_text(*r), r->spec.help ? r->spec.help : ""});
  std::vector<std::size_t> w(4, 0);
  for (const auto& c : cells)
    for (std::size_t i = 0; i < 4; ++i) w[i] = std::max(w[i], display_width(c[i]));
  std::size_t fixed = 0;
  for (std::size_t x : w) fixed += x + 2;

  std::string out;
  for (const std::string& line : wrap(heading(file), width)) out += line + '\n';
  out += '\n';
  if (fixed + kMinHelpWidth <= width) {
    // One table; the help column wraps under itself.
    for (const auto& c : cells) {
      std::string head;
      for (std::size_t i = 0; i < 4; ++i) head += pad(c[i], w[i] + 2);
      const std::vector<std::string> help = wrap(c[4], width - fixed);
      for (std::size_t l = 0; l < help.size(); ++l) {
        std::string line = (l == 0 ? head : std::string(fixed, ' ')) + help[l];
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + '\n';
      }
    }
  } else if (w[0] + w[1] + w[3] + 4 <= width) {
    // Key, type and default in columns; the range and the help indented under each key.
    for (std::size_t k = 0; k < cells.size(); ++k) {
      const auto& c = cells[k];
      std::string head = pad(c[0], w[0] + 2) + pad(c[1], w[1] + 2) + c[3];
      while (!head.empty() && head.back() == ' ') head.pop_back();
      out += head + '\n';
      if (k == 0) continue;
      std::string help = c[4];
      if (!c[2].empty())
        help += (help.empty() ? "" : "; ") + std::string(is_enum[k] ? "one of " : "range ") + c[2];
      for (const std::string& l : wrap(help, width - kHelpIndent))
        if (!l.empty()) out += std::string(kHelpIndent, ' ') + l + '\n';
    }
  } else {
    // Too narrow even for that: each key a block.
    for (std::size_t k = 1; k < cells.size(); ++k) {
      const auto& c = cells[k];
      std::string head = c[0] + " — " + c[1];
      if (!c[2].empty()) head += ", " + c[2];
      head += c[3] == "required" ? ", required" : ", default " + c[3];
      const std::vector<std::string> first = wrap(head, width - kHelpIndent);
      for (std::size_t l = 0; l < first.size(); ++l)
        out += (l == 0 ? "" : std::string(kHelpIndent, ' ')) + first[l] + '\n';
      for (const std::string& l : wrap(c[4], width - kHelpIndent))
        if (!l.empty()) out += std::string(kHelpIndent, ' ') + l + '\n';
    }
  }
  if (rows.empty()) out += "(no keys)\n";
  return out;
}

}  // namespace tessera::schema
