#include "scenario/readers/yaml_quoted_scalar.hpp"

namespace tessera::loader {
namespace {

// Offset of the closing quote of the scalar opened at `quote`, or npos.
std::size_t closing_quote(std::string_view text, std::size_t quote) {
  const char q = text[quote];
  for (std::size_t i = quote + 1; i < text.size(); ++i) {
    const char c = text[i];
    if (q == '"' && c == '\\') {
      ++i;  // an escape: the next character is part of the scalar
      continue;
    }
    if (c != q) continue;
    if (q == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
      ++i;  // '' is a quote inside a single-quoted scalar
      continue;
    }
    return i;
  }
  return std::string_view::npos;
}

}  // namespace

std::string quoted_scalar_problem(std::string_view text, std::size_t quote, int quote_line,
                                  int block_column) {
  if (quote >= text.size() || (text[quote] != '"' && text[quote] != '\'')) return "";
  const std::string q(1, text[quote]);
  const std::size_t end = closing_quote(text, quote);
  if (end == std::string_view::npos) {
    return "this quoted string has no closing " + q + " (it runs to the end of the input)";
  }
  if (block_column < 0) return "";
  int line = quote_line;
  for (std::size_t i = quote; i < end; ++i) {
    if (text[i] != '\n') continue;
    ++line;
    std::size_t j = i + 1;
    while (j < end && text[j] == ' ') ++j;
    const std::size_t indent = j - (i + 1);
    while (j < end && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r')) ++j;
    if (j < end && text[j] == '\n') continue;  // a blank line: a line break inside the scalar
    if (static_cast<long>(indent) <= block_column) {
      return "this quoted string runs on to line " + std::to_string(line + 1) +
             ", which is not indented under its key: is the closing " + q +
             " missing? (a quoted string continued on another line must be indented more than its key)";
    }
  }
  return "";
}

}  // namespace tessera::loader
