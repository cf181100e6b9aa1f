#pragma once
// The loader's own YAML tree: yaml-cpp nodes converted once, keeping every node's source
// location (1-based) and every mapping's keys in order, so that duplicate keys can be reported
// (yaml-cpp 0.7 keeps one silently on lookup) and overrides can replace a subtree with a value
// that points at the override itself.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/error.hpp"
#include "tessera/export.hpp"

namespace tessera::loader {

// Every problem found, in the order found.
// At most the limit `diagnostics` are kept; the rest are only counted (`unshown`), so that a file
// of 100000 unknown keys costs neither the time to word 100000 messages nor 23 MB of output.
struct Diags {
  std::vector<Diagnostic> list;  // the first ones, at most limit `diagnostics`
  std::size_t unshown = 0;       // those found after the list was full
  std::string unshown_file;      // the file of the first of them
  TESSERA_API void error(const SourceLocation& where, std::string message);
  bool empty() const { return list.empty(); }
  std::size_t size() const { return list.size() + unshown; }
  // Whether the next error would only be counted (its message need not be worded).
  TESSERA_API bool full() const;
  // The list to throw (InputErrors), with one more line counting the unshown ones.
  TESSERA_API std::vector<Diagnostic> take();
};

inline const char* kCommandLine = "<command line>";

struct YEntry;

struct YNode {
  enum class Kind { null, scalar, sequence, mapping };
  Kind kind = Kind::null;
  std::string value;  // scalar text as written (without quotes); a null's `null`/`~`, or ""
  bool plain = true;  // an unquoted scalar (so `42` is a number, `"42"` a string)
  SourceLocation where;
  std::vector<YNode> items;     // sequence
  std::vector<YEntry> entries;  // mapping, in file order, duplicates removed

  bool is_null() const { return kind == Kind::null; }
  bool is_scalar() const { return kind == Kind::scalar; }
  bool is_sequence() const { return kind == Kind::sequence; }
  bool is_mapping() const { return kind == Kind::mapping; }

  TESSERA_API const YNode* find(std::string_view key) const;
  TESSERA_API YNode* find(std::string_view key);
  TESSERA_API const YEntry* find_entry(std::string_view key) const;
  // Sets (replacing or appending) a mapping entry; the node must be a mapping.
  TESSERA_API YNode& set(std::string key, SourceLocation key_where, YNode value);
  TESSERA_API void erase(std::string_view key);
};

struct YEntry {
  std::string key;
  SourceLocation key_where;
  YNode value;
};

// "a mapping", "a list", "nothing", or the scalar in quotes, cut to 60 characters and "…": for
// "found ..." in messages (never a whole file echoed back).
TESSERA_API std::string describe(const YNode& n);

// "a.b" + "c" -> "a.b.c"; "" + "c" -> "c".
TESSERA_API std::string join_path(std::string_view prefix, std::string_view key);

// Reads and converts a YAML file. On a read or syntax error, records it and returns nullopt.
// Duplicate keys are reported (path names start at `path_prefix`) and the later one dropped.
TESSERA_API std::optional<YNode> read_yaml_file(const std::string& path, const std::string& path_prefix,
                                                Diags& d);
// The same for the text of the file `path` read earlier (its errors located in that file).
TESSERA_API std::optional<YNode> parse_yaml_file_text(const std::string& text, const std::string& path,
                                                      const std::string& path_prefix, Diags& d);

// Parses a YAML value given as text (`--set key=VALUE`); every node is located at `where`.
// Returns nullopt and records an error when the text is not valid YAML.
TESSERA_API std::optional<YNode> parse_yaml_text(const std::string& text, const SourceLocation& where,
                                                 const std::string& context, Diags& d);

}  // namespace tessera::loader
