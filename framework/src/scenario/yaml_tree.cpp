#include "scenario/yaml_tree.hpp"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>

namespace tessera::loader {

void Diags::error(const SourceLocation& where, std::string message) {
  if (where.file == kCommandLine && message.find("--set") == std::string::npos)
    message += " (given with --set)";
  list.push_back(Diagnostic{where, std::move(message)});
}

const YEntry* YNode::find_entry(std::string_view key) const {
  for (const auto& e : entries)
    if (e.key == key) return &e;
  return nullptr;
}

const YNode* YNode::find(std::string_view key) const {
  const YEntry* e = find_entry(key);
  return e ? &e->value : nullptr;
}

YNode* YNode::find(std::string_view key) {
  for (auto& e : entries)
    if (e.key == key) return &e.value;
  return nullptr;
}

YNode& YNode::set(std::string key, SourceLocation key_where, YNode value) {
  for (auto& e : entries) {
    if (e.key == key) {
      e.value = std::move(value);
      return e.value;
    }
  }
  entries.push_back(YEntry{std::move(key), std::move(key_where), std::move(value)});
  return entries.back().value;
}

void YNode::erase(std::string_view key) {
  for (auto it = entries.begin(); it != entries.end(); ++it) {
    if (it->key == key) {
      entries.erase(it);
      return;
    }
  }
}

std::string describe(const YNode& n) {
  switch (n.kind) {
    case YNode::Kind::null:
      return "nothing";
    case YNode::Kind::sequence:
      return "a list";
    case YNode::Kind::mapping:
      return "a mapping";
    case YNode::Kind::scalar:
      return "\"" + n.value + "\"";
  }
  return "?";
}

std::string join_path(std::string_view prefix, std::string_view key) {
  if (prefix.empty()) return std::string(key);
  std::string s(prefix);
  s += '.';
  s += key;
  return s;
}

namespace {

SourceLocation location_of(const YAML::Mark& m, const std::string& file) {
  SourceLocation w;
  w.file = file;
  if (m.line >= 0) {
    w.line = m.line + 1;
    w.column = m.column + 1;
  }
  return w;
}

YNode convert(const YAML::Node& n, const std::string& file, const std::string& path, Diags& d,
              const SourceLocation* fallback) {
  YNode out;
  out.where = location_of(n.Mark(), file);
  switch (n.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      out.kind = YNode::Kind::null;
      // `key:` with nothing after it: yaml-cpp marks the next token; point at the key instead.
      if (fallback) out.where = *fallback;
      break;
    case YAML::NodeType::Scalar:
      out.kind = YNode::Kind::scalar;
      out.value = n.Scalar();
      out.plain = n.Tag() != "!";
      break;
    case YAML::NodeType::Sequence: {
      out.kind = YNode::Kind::sequence;
      std::size_t i = 0;
      for (const auto& item : n) {
        std::string item_path = path + "[" + std::to_string(i) + "]";
        if (item.IsMap() && item["name"] && item["name"].IsScalar())
          item_path = join_path(path, item["name"].Scalar());
        out.items.push_back(convert(item, file, item_path, d, nullptr));
        ++i;
      }
      break;
    }
    case YAML::NodeType::Map:
      out.kind = YNode::Kind::mapping;
      for (auto it = n.begin(); it != n.end(); ++it) {
        const SourceLocation key_where = location_of(it->first.Mark(), file);
        if (!it->first.IsScalar()) {
          d.error(key_where, (path.empty() ? std::string("top level") : path) +
                                 ": a key must be a plain name, found a " +
                                 (it->first.IsMap()        ? "mapping"
                                  : it->first.IsSequence() ? "list"
                                                           : "null"));
          continue;
        }
        const std::string key = it->first.Scalar();
        const std::string key_path = join_path(path, key);
        if (const YEntry* first = out.find_entry(key)) {
          d.error(key_where, key_path + ": duplicate key (first given at line " +
                                 std::to_string(first->key_where.line) + ", column " +
                                 std::to_string(first->key_where.column) + "); give each key once");
          continue;
        }
        out.entries.push_back(YEntry{key, key_where, convert(it->second, file, key_path, d, &key_where)});
      }
      break;
  }
  return out;
}

void relocate(YNode& n, const SourceLocation& where) {
  n.where = where;
  for (auto& i : n.items) relocate(i, where);
  for (auto& e : n.entries) {
    e.key_where = where;
    relocate(e.value, where);
  }
}

}  // namespace

std::optional<YNode> read_yaml_file(const std::string& path, const std::string& path_prefix, Diags& d) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    d.error(SourceLocation{path, 0, 0}, "cannot read the file (does it exist?)");
    return std::nullopt;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    d.error(location_of(e.mark, path), "malformed YAML: " + e.msg);
    return std::nullopt;
  } catch (const YAML::Exception& e) {
    d.error(location_of(e.mark, path), "malformed YAML: " + e.msg);
    return std::nullopt;
  }
  YNode tree = convert(root, path, path_prefix, d, nullptr);
  if (tree.is_null()) tree.where = SourceLocation{path, 1, 1};
  return tree;
}

std::optional<YNode> parse_yaml_text(const std::string& text, const SourceLocation& where,
                                     const std::string& context, Diags& d) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    d.error(where, context + ": the value is not valid YAML (" + e.msg + ")");
    return std::nullopt;
  }
  Diags local;
  YNode tree = convert(root, where.file, context, local, nullptr);
  for (auto& diag : local.list) d.error(where, context + ": " + diag.message);
  relocate(tree, where);
  return tree;
}

}  // namespace tessera::loader
