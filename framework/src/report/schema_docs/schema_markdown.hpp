#pragma once
// docs/scenario-format.md's key tables, generated from the field table. The document marks each
// generated table with a pair of comments, the prose around them written by hand:
//
//   <!-- BEGIN GENERATED: SELECTOR [except PREFIX...] -->
//   ...the table, rewritten by `make schema-docs`...
//   <!-- END GENERATED -->
//
// SELECTOR is a file kind (`model`, `machine`, `scenario`: every key of that kind) or a dotted
// path prefix (`machine.levels.*.collectives`: the keys under it, shown relative to it); each
// `except PREFIX` leaves out the keys under PREFIX (documented by a table of their own), PREFIX
// itself kept.
#include <string>
#include <string_view>

#include "tessera/export.hpp"

namespace tessera::schema {

// One markdown table: | key | type | range / choices | default | meaning |. Throws
// std::invalid_argument naming the selector when it is malformed or selects no key.
TESSERA_API std::string markdown_key_table(std::string_view selector);

// `doc` with the content of every generated section replaced by its table. Throws
// std::invalid_argument (with the 1-based line) on an unterminated or nested section.
TESSERA_API std::string regenerate_markdown(std::string_view doc);

}  // namespace tessera::schema
