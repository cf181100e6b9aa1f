#include "report/schema_docs/schema_markdown.hpp"

#include <sstream>
#include <stdexcept>
#include <vector>

#include "scenario/fields/field_table.hpp"
#include "studies/json/field_text.hpp"

namespace tessera::schema {

namespace {

constexpr std::string_view kBegin = "<!-- BEGIN GENERATED:";
constexpr std::string_view kEnd = "<!-- END GENERATED -->";
constexpr std::string_view kNotice =
    "<!-- Generated from the field table (framework/src/scenario/fields/field_table.cpp) by "
    "`make schema-docs`; edit the table, not these lines. -->";

struct Selector {
  bool by_file = false;
  FieldFile file = FieldFile::scenario;
  std::string prefix;  // with a trailing '.', when !by_file
  std::vector<std::string> except;
};

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

Selector parse_selector(std::string_view text) {
  const std::vector<std::string> w = words(text);
  if (w.empty()) throw std::invalid_argument("a generated section names no selector");
  Selector s;
  s.by_file = field_file_from_name(w[0], &s.file);
  if (!s.by_file) s.prefix = w[0] + ".";
  for (std::size_t i = 1; i < w.size(); i += 2) {
    if (w[i] != "except" || i + 1 >= w.size())
      throw std::invalid_argument("generated section '" + std::string(text) +
                                  "': expected `SELECTOR [except PREFIX]...`");
    s.except.push_back(w[i + 1] + ".");
  }
  return s;
}

bool under(std::string_view path, std::string_view prefix_dot) { return path.starts_with(prefix_dot); }

std::string cell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string code(const std::string& s) { return s.empty() || s == "—" ? s : "`" + s + "`"; }

}  // namespace

std::string markdown_key_table(std::string_view selector) {
  const Selector sel = parse_selector(selector);
  std::string out = "| key | type | range / choices | default | meaning |\n|---|---|---|---|---|\n";
  int n = 0;
  for (const FieldRow& r : field_rows()) {
    if (sel.by_file ? r.file != sel.file : !r.path.starts_with(sel.prefix)) continue;
    bool excluded = false;
    for (const std::string& e : sel.except) excluded = excluded || under(r.path, e);
    if (excluded) continue;
    std::string key = display_key(r);
    if (!sel.by_file) {
      // Relative to the prefix: the prefix's own display form is dropped.
      const std::string shown_prefix = display_key(FieldRow{
          std::string_view(sel.prefix).substr(0, sel.prefix.size() - 1), r.file, r.use, r.spec, false});
      if (key.starts_with(shown_prefix)) key = key.substr(shown_prefix.size());
      if (key.starts_with(".")) key = key.substr(1);
    }
    const std::string def = default_text(r);
    out += "| " + cell(code(key)) + " | " + cell(type_text(r)) + " | " + cell(range_text(r)) + " | " +
           cell(def == "required" ? "**required**" : code(def)) + " | " +
           cell(r.spec.help ? r.spec.help : "") + " |\n";
    ++n;
  }
  if (n == 0) throw std::invalid_argument("generated section '" + std::string(selector) + "' selects no key");
  return out;
}

std::string regenerate_markdown(std::string_view doc) {
  std::string out;
  std::size_t pos = 0;
  int line = 1;
  bool inside = false;
  int begin_line = 0;
  while (pos < doc.size()) {
    std::size_t eol = doc.find('\n', pos);
    const bool last = eol == std::string_view::npos;
    if (last) eol = doc.size();
    const std::string_view text = doc.substr(pos, eol - pos);
    if (text.starts_with(kBegin)) {
      if (inside)
        throw std::invalid_argument("line " + std::to_string(line) + ": a generated section begins inside " +
                                    "the one begun at line " + std::to_string(begin_line));
      const std::size_t close = text.rfind("-->");
      if (close == std::string_view::npos || close < kBegin.size())
        throw std::invalid_argument("line " + std::to_string(line) + ": expected `-->` closing the marker");
      std::string_view selector = text.substr(kBegin.size(), close - kBegin.size());
      while (!selector.empty() && selector.front() == ' ') selector.remove_prefix(1);
      while (!selector.empty() && selector.back() == ' ') selector.remove_suffix(1);
      out += text;
      out += '\n';
      out += kNotice;
      out += '\n';
      try {
        out += markdown_key_table(selector);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("line " + std::to_string(line) + ": " + e.what());
      }
      inside = true;
      begin_line = line;
    } else if (text.starts_with(kEnd)) {
      if (!inside)
        throw std::invalid_argument("line " + std::to_string(line) + ": `" + std::string(kEnd) +
                                    "` without a section begun before it");
      inside = false;
      out += text;
      if (!last) out += '\n';
    } else if (!inside) {
      out += text;
      if (!last) out += '\n';
    }
    pos = eol + 1;
    ++line;
  }
  if (inside)
    throw std::invalid_argument("line " + std::to_string(begin_line) + ": generated section never ends (`" +
                                std::string(kEnd) + "`)");
  return out;
}

}  // namespace tessera::schema
