#pragma once
// Reading one YAML document within the limits (docs/limits.md, "## YAML"), before anything is
// expanded: yaml-cpp's event parser feeds a compact graph in which an alias is a second
// reference to the anchored node, so that the size and depth the document will have once every
// alias is expanded are known, and refused, before a single node is copied. Checked here, each
// at the location where it is first exceeded:
//   - nodes once aliases are expanded <= yaml.nodes (a "billion laughs" bomb is refused at the
//     alias that crosses the limit, in microseconds);
//   - nesting depth, aliases expanded, <= yaml.depth;
//   - every scalar (keys too) <= scalar.bytes;
//   - an alias inside the node it names ("&a [*a]") is refused (it would expand forever);
//   - exactly one document (a second `---` document is refused where it starts);
//   - quoted scalars: the closing quote must exist, and every continuation line must be
//     indented more than the block collection the scalar sits in (the YAML 1.2 rule yaml-cpp does
//     not enforce: `name: "x` followed by `overrides: ...` would swallow the next lines).
#include <cstdint>
#include <string>
#include <vector>

#include "scenario/readers/yaml_tree.hpp"
#include "tessera/export.hpp"

namespace tessera::loader {

// yaml-cpp's marks: 0-based, -1 when unknown.
struct YamlMark {
  int line = -1;
  int column = -1;
};

struct RawNode {
  YNode::Kind kind = YNode::Kind::null;
  bool plain = true;  // not quoted (nor a block scalar)
  std::string value;  // scalar text
  YamlMark mark;
  // A sequence's items, or a mapping's keys and values alternating (key, value, key, value).
  // An alias is the index of the anchored node, which may thus appear more than once.
  std::vector<std::uint32_t> children;
  std::uint64_t size = 1;    // nodes once every alias below is expanded (this one included)
  std::uint64_t height = 1;  // nesting depth once expanded (1 for a scalar)
};

struct RawDocument {
  std::vector<RawNode> nodes;
  std::uint32_t root = 0;
};

// Why a document was refused: where, the dotted path there (from the document's root, "" at the
// top) and what is wrong (a limit's standard tail included).
struct YamlProblem {
  YamlMark mark;
  std::string path;
  std::string what;
  bool syntax = false;  // yaml-cpp's own syntax error (`what` is its message)
};

// Parses `text` as exactly one YAML document within the limits in force. Throws YamlProblem.
// An empty text is one null document.
TESSERA_API RawDocument parse_yaml_document(const std::string& text);

}  // namespace tessera::loader
