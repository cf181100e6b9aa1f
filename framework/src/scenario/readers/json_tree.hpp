#pragma once
// A JSON document as a tree that keeps every value's and key's source location (1-based line
// and byte column), read with nlohmann's SAX interface so that the loader can hold JSON to the
// YAML standard (docs/limits.md, "JSON and CSV"): duplicate keys refused at the later key,
// nesting bounded by `yaml.depth`, strings by `scalar.bytes`, values by `yaml.nodes`, the file
// by `file.bytes` (regular files only), numbers out of a double's range refused where written,
// and every syntax error reported at its line and column.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/readers/yaml_tree.hpp"
#include "tessera/export.hpp"

namespace tessera::loader {

struct JMember;

struct TESSERA_API JNode {
  enum class Kind : std::uint8_t { null, boolean, integer, unsigned_integer, real, string, array, object };
  Kind kind = Kind::null;
  bool boolean = false;
  std::int64_t integer = 0;      // Kind::integer (negative values and those up to INT64_MAX)
  std::uint64_t unsigned_ = 0;   // Kind::unsigned_integer (above INT64_MAX)
  double real = 0;               // Kind::real
  std::string text;              // string value, or a number as written
  SourceLocation where;          // the value's first character
  std::vector<JNode> items;      // array
  std::vector<JMember> members;  // object, in file order

  JNode() = default;
  JNode(const JNode&) = default;
  JNode(JNode&&) noexcept = default;
  JNode& operator=(const JNode&) = default;
  JNode& operator=(JNode&&) noexcept = default;
  // Iterative: a tree as deep as a raised yaml.depth allows is freed without recursion.
  ~JNode();

  bool is_null() const { return kind == Kind::null; }
  bool is_object() const { return kind == Kind::object; }
  bool is_array() const { return kind == Kind::array; }
  bool is_string() const { return kind == Kind::string; }
  bool is_number() const {
    return kind == Kind::integer || kind == Kind::unsigned_integer || kind == Kind::real;
  }
  const JMember* find(std::string_view key) const;
};

struct JMember {
  std::string key;
  SourceLocation key_where;  // the key's opening quote
  JNode value;
};

// The value as written, shortened for a message ("null", "true", "-3", "\"abc\"", "a list",
// "an object").
std::string describe(const JNode& n);

// Parses `text` (named `file` in diagnostics). Records every problem in `d` (each located) and
// returns nullopt when there was one. `context` leads each limit message ("hf_config: ..."; ""
// for none).
TESSERA_API std::optional<JNode> parse_json_text(const std::string& text, const std::string& file, Diags& d,
                                                 const std::string& context = "hf_config");

// Reads `path` with read_input_file (regular files only, bounded by file.bytes), then parses it.
std::optional<JNode> read_json_file(const std::string& path, const std::string& what, Diags& d);

}  // namespace tessera::loader
