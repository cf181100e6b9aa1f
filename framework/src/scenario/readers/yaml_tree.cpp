#include "scenario/readers/yaml_tree.hpp"

#include <unordered_map>

#include "core/text/diagnostic_limit.hpp"
#include "core/text/input_file.hpp"
#include "core/text/safe_text.hpp"
#include "scenario/readers/yaml_document.hpp"

namespace tessera::loader {

bool Diags::full() const { return diagnostics_full(list.size()); }

std::vector<Diagnostic> Diags::take() {
  std::vector<Diagnostic> out = std::move(list);
  list.clear();
  if (unshown > 0) out.push_back(unshown_errors(unshown, unshown_file));
  unshown = 0;
  return out;
}

void Diags::error(const SourceLocation& where, std::string message) {
  if (full()) {
    if (unshown++ == 0) unshown_file = where.file;
    return;
  }
  if (where.file == kCommandLine && message.find("--set") == std::string::npos) {
    // An over-limit message keeps its standard tail ("...; raise it with ..."): the note goes
    // before the limit it exceeds.
    const auto tail = message.find(" exceeds the limit ");
    if (tail != std::string::npos)
      message.insert(tail, " (given with --set)");
    else
      message += " (given with --set)";
  }
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
      return "\"" + excerpt(n.value) + "\"";
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

SourceLocation location_of(const YamlMark& m, const std::string& file) {
  SourceLocation w;
  w.file = file;
  if (m.line >= 0) {
    w.line = m.line + 1;
    w.column = m.column + 1;
  }
  return w;
}

// The raw graph expanded into the tree. parse_yaml_document has already bounded its size and
// depth (aliases expanded) and refused cycles, so this recursion is at most yaml.depth deep.
class Converter {
 public:
  Converter(const RawDocument& doc, const std::string& file, Diags& d) : doc_(doc), file_(file), d_(d) {}

  YNode convert(std::uint32_t index, const std::string& path, const SourceLocation* fallback) const {
    const RawNode& n = doc_.nodes[index];
    YNode out;
    out.where = location_of(n.mark, file_);
    out.kind = n.kind;
    switch (n.kind) {
      case YNode::Kind::null:
        out.value = n.value;  // `null` or `~` as written; "" for nothing
        // `key:` with nothing after it: yaml-cpp marks the next token; point at the key instead
        // (an explicit `null` or `~` is located at itself).
        if (fallback && n.value.empty()) out.where = *fallback;
        break;
      case YNode::Kind::scalar:
        out.value = n.value;
        out.plain = n.plain;
        break;
      case YNode::Kind::sequence:
        out.items.reserve(n.children.size());
        for (std::size_t i = 0; i < n.children.size(); ++i) {
          std::string item_path = path + "[" + std::to_string(i) + "]";
          if (const RawNode* name = name_of(n.children[i])) item_path = join_path(path, name->value);
          out.items.push_back(convert(n.children[i], item_path, nullptr));
        }
        break;
      case YNode::Kind::mapping: {
        // Each key's position in out.entries: the duplicate check is a hash lookup, not a scan
        // of the keys before it (a mapping of 100000 keys took 5e9 comparisons).
        std::unordered_map<std::string_view, std::size_t> seen;
        seen.reserve(n.children.size() / 2);
        for (std::size_t i = 0; i + 1 < n.children.size(); i += 2) {
          const RawNode& k = doc_.nodes[n.children[i]];
          const SourceLocation key_where = location_of(k.mark, file_);
          if (k.kind != YNode::Kind::scalar) {
            d_.error(key_where, (path.empty() ? std::string("top level") : path) +
                                    ": a key must be a plain name, found a " +
                                    (k.kind == YNode::Kind::mapping    ? "mapping"
                                     : k.kind == YNode::Kind::sequence ? "list"
                                                                       : "null"));
            continue;
          }
          const std::string key_path = join_path(path, k.value);
          const auto [at, added] = seen.emplace(k.value, out.entries.size());
          if (!added) {
            const YEntry& first = out.entries[at->second];
            d_.error(key_where, key_path + ": duplicate key (first given at line " +
                                    std::to_string(first.key_where.line) + ", column " +
                                    std::to_string(first.key_where.column) + "); give each key once");
            continue;
          }
          out.entries.push_back(YEntry{k.value, key_where, convert(n.children[i + 1], key_path, &key_where)});
        }
        break;
      }
    }
    return out;
  }

 private:
  // A mapping's scalar `name:` value (which names a list item in paths), or nullptr.
  const RawNode* name_of(std::uint32_t index) const {
    const RawNode& n = doc_.nodes[index];
    if (n.kind != YNode::Kind::mapping) return nullptr;
    for (std::size_t i = 0; i + 1 < n.children.size(); i += 2) {
      const RawNode& k = doc_.nodes[n.children[i]];
      if (k.kind == YNode::Kind::scalar && k.value == "name") {
        const RawNode& v = doc_.nodes[n.children[i + 1]];
        return v.kind == YNode::Kind::scalar ? &v : nullptr;
      }
    }
    return nullptr;
  }

  const RawDocument& doc_;
  const std::string& file_;
  Diags& d_;
};

void relocate(YNode& n, const SourceLocation& where) {
  n.where = where;
  for (auto& i : n.items) relocate(i, where);
  for (auto& e : n.entries) {
    e.key_where = where;
    relocate(e.value, where);
  }
}

std::string problem_text(const YamlProblem& p, const std::string& path_prefix) {
  if (p.syntax) return "malformed YAML: " + p.what;
  const std::string path = p.path.empty()        ? path_prefix
                           : path_prefix.empty() ? p.path
                           : p.path[0] == '['    ? path_prefix + p.path
                                                 : join_path(path_prefix, p.path);
  return path.empty() ? p.what : path + ": " + p.what;
}

}  // namespace

std::optional<YNode> read_yaml_file(const std::string& path, const std::string& path_prefix, Diags& d) {
  const SourceLocation file_loc{path, 0, 0};
  const std::string what = path_prefix.empty() ? std::string("file") : path_prefix + " file";
  const std::string problem = input_file_problem(path);
  if (problem == "no such file") {
    d.error(file_loc, "cannot read the " + what + " (does it exist?)");
    return std::nullopt;
  }
  if (!problem.empty()) {
    d.error(file_loc, "the " + what + " " + problem);
    return std::nullopt;
  }
  std::string text;
  try {
    text = read_input_file(path, what);
  } catch (const Error& e) {
    // Changed between the check and the read: read_input_file's message starts with the path.
    std::string m = e.what();
    if (m.rfind(path + ": ", 0) == 0) m.erase(0, path.size() + 2);
    d.error(file_loc, m);
    return std::nullopt;
  }
  return parse_yaml_file_text(text, path, path_prefix, d);
}

std::optional<YNode> parse_yaml_file_text(const std::string& text, const std::string& path,
                                          const std::string& path_prefix, Diags& d) {
  RawDocument doc;
  try {
    doc = parse_yaml_document(text);
  } catch (const YamlProblem& p) {
    d.error(location_of(p.mark, path), problem_text(p, path_prefix));
    return std::nullopt;
  }
  YNode tree = Converter(doc, path, d).convert(doc.root, path_prefix, nullptr);
  if (tree.is_null()) tree.where = SourceLocation{path, 1, 1};
  return tree;
}

std::optional<YNode> parse_yaml_text(const std::string& text, const SourceLocation& where,
                                     const std::string& context, Diags& d) {
  RawDocument doc;
  try {
    doc = parse_yaml_document(text);
  } catch (const YamlProblem& p) {
    if (p.syntax)
      d.error(where, context + ": the value is not valid YAML (" + p.what + ")");
    else
      d.error(where, context + ": " + p.what);  // the value is short: no path inside it
    return std::nullopt;
  }
  Diags local;
  YNode tree = Converter(doc, where.file, local).convert(doc.root, context, nullptr);
  for (auto& diag : local.list) d.error(where, context + ": " + diag.message);
  if (local.unshown > 0 && d.unshown == 0) d.unshown_file = where.file;
  d.unshown += local.unshown;
  relocate(tree, where);
  return tree;
}

}  // namespace tessera::loader
