#include "scenario/readers/yaml_document.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include "core/text/safe_text.hpp"
#include "scenario/readers/yaml_quoted_scalar.hpp"
#include "tessera/limits.hpp"

namespace tessera::loader {
namespace {

YamlMark mark_of(const YAML::Mark& m) { return YamlMark{m.line, m.column}; }

// Builds the RawDocument from parser events, checking every limit as each node arrives.
class Builder final : public YAML::EventHandler {
 public:
  Builder(const std::string& text, const Limits& limits)
      : text_(text), limits_(limits), bom_(text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0) {}

  RawDocument take() {
    RawDocument doc;
    doc.nodes = std::move(nodes_);
    doc.root = 0;
    return doc;
  }
  bool empty() const { return nodes_.empty(); }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnAnchor(const YAML::Mark&, const std::string& name) override { pending_anchor_name_ = name; }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    RawNode n;
    n.kind = YNode::Kind::null;
    n.mark = mark_of(mark);
    n.value = null_word_at(mark);
    add(std::move(n), anchor);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    RawNode n;
    n.kind = YNode::Kind::scalar;
    n.mark = mark_of(mark);
    n.plain = tag != "!";
    n.value = value;
    add(std::move(n), anchor);
    if (value.size() > limits_.scalar_bytes)
      fail(mark, "this scalar is " + std::to_string(value.size()) + " bytes, which " +
                     limit_exceeded("scalar.bytes"));
    // yaml-cpp's positions do not count a byte-order mark.
    if (tag == "!" && mark.pos >= 0) {
      const std::string why =
          quoted_scalar_problem(text_, static_cast<std::size_t>(mark.pos) + bom_, mark.line, block_column());
      if (!why.empty()) fail(mark, why);
    }
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value style) override {
    open(YNode::Kind::sequence, mark, anchor, style);
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value style) override {
    open(YNode::Kind::mapping, mark, anchor, style);
  }
  void OnMapEnd() override { close(); }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    const auto it = anchors_.find(anchor);
    if (it == anchors_.end()) fail(mark, "an alias names an anchor that is not defined before it");
    const std::uint32_t target = it->second;
    const std::string name = "*" + excerpt(anchor_names_[anchor], 40);
    attach(target);
    for (const auto& f : frames_) {
      if (f.node != target) continue;
      const RawNode& t = nodes_[target];
      fail(mark, "an alias refers to a node that contains it (" + name + " is used inside &" +
                     name.substr(1) + ", defined at line " + std::to_string(t.mark.line + 1) + ", column " +
                     std::to_string(t.mark.column + 1) + "); it would expand without end");
    }
    const RawNode& t = nodes_[target];
    total_ += t.size;
    if (total_ > limits_.yaml_nodes)
      fail(mark, "expanding the alias " + name + " (" + std::to_string(t.size) +
                     " nodes) makes the document " + std::to_string(total_) + " nodes, which " +
                     limit_exceeded("yaml.nodes"));
    const std::uint64_t depth = frames_.size() + t.height;
    if (depth > limits_.yaml_depth)
      fail(mark, "through the alias " + name + " the nesting depth becomes " + std::to_string(depth) +
                     ", which " + limit_exceeded("yaml.depth"));
  }

 private:
  struct Frame {
    std::uint32_t node = 0;
    bool mapping = false;
    int block_column = -1;  // the collection's column when written in block style, else -1
    std::size_t items = 0;  // children attached so far
    std::string key;        // the current entry's key (mappings), for paths
  };

  // Adds a node (not yet a collection frame) to the graph and its parent; checks node count and
  // depth. Returns its index.
  std::uint32_t add(RawNode n, YAML::anchor_t anchor) {
    const YamlMark mark = n.mark;
    const auto index = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back(std::move(n));
    if (anchor != YAML::NullAnchor) {
      anchors_[anchor] = index;
      anchor_names_[anchor] = pending_anchor_name_;
    }
    pending_anchor_name_.clear();
    attach(index);
    ++total_;
    const std::uint64_t depth = frames_.size() + 1;
    if (depth > limits_.yaml_depth)
      fail(mark, "the nesting depth reaches " + std::to_string(depth) + " here, which " +
                     limit_exceeded("yaml.depth"));
    if (total_ > limits_.yaml_nodes)
      fail(mark, "the document reaches " + std::to_string(total_) + " nodes here, which " +
                     limit_exceeded("yaml.nodes"));
    return index;
  }

  void attach(std::uint32_t index) {
    if (frames_.empty()) return;
    Frame& f = frames_.back();
    nodes_[f.node].children.push_back(index);
    if (f.mapping && f.items % 2 == 0) {
      const RawNode& k = nodes_[index];
      f.key = k.kind == YNode::Kind::scalar ? excerpt(k.value, 60) : std::string("?");
    }
    ++f.items;
  }

  void open(YNode::Kind kind, const YAML::Mark& mark, YAML::anchor_t anchor,
            YAML::EmitterStyle::value style) {
    RawNode n;
    n.kind = kind;
    n.mark = mark_of(mark);
    const std::uint32_t index = add(std::move(n), anchor);
    Frame f;
    f.node = index;
    f.mapping = kind == YNode::Kind::mapping;
    f.block_column = style == YAML::EmitterStyle::Block ? mark.column : -1;
    frames_.push_back(std::move(f));
  }

  void close() {
    if (frames_.empty()) return;
    RawNode& n = nodes_[frames_.back().node];
    std::uint64_t size = 1;
    std::uint64_t height = 0;
    for (const std::uint32_t c : n.children) {
      size += nodes_[c].size;
      height = std::max(height, nodes_[c].height);
    }
    n.size = size;
    n.height = height + 1;
    frames_.pop_back();
  }

  // The column of the innermost block collection, or -1.
  int block_column() const {
    for (auto it = frames_.rbegin(); it != frames_.rend(); ++it)
      if (it->block_column >= 0) return it->block_column;
    return -1;
  }

  // The dotted path of the node attached last, its middle elided when long (a path 64 levels
  // deep must not push a limit's tail past the message cap).
  std::string path() const {
    const std::string p = full_path();
    if (p.size() <= 120) return p;
    std::size_t tail = p.size() - 70;
    while (tail < p.size() && (static_cast<unsigned char>(p[tail]) & 0xC0u) == 0x80u) ++tail;
    return excerpt(p, 40) + p.substr(tail);
  }

  std::string full_path() const {
    std::string p;
    for (const auto& f : frames_) {
      if (f.items == 0) break;
      if (f.mapping) {
        if (f.items % 2 == 0) p = join_path(p, f.key);  // inside a value
      } else {
        p += "[" + std::to_string(f.items - 1) + "]";
      }
    }
    return p;
  }

  [[noreturn]] void fail(const YamlMark& mark, std::string what) const {
    throw YamlProblem{mark, path(), std::move(what), false};
  }
  [[noreturn]] void fail(const YAML::Mark& mark, std::string what) const {
    fail(mark_of(mark), std::move(what));
  }

  // The word an explicit null was written as (`null`, `Null`, `NULL`, `~`), kept so that a
  // plugin's enum choice named `null` can be chosen; "" for an empty value (`key:`), whose
  // mark is the next token's.
  std::string null_word_at(const YAML::Mark& mark) const {
    if (mark.pos < 0) return {};
    const std::size_t at = static_cast<std::size_t>(mark.pos) + bom_;
    // yaml-cpp's mark may lie past the text (it counts some malformed bytes its own way): no word
    // there (found by fuzz_model_yaml; tests/fuzz/regressions).
    if (at >= text_.size()) return {};
    for (std::string_view w : {"null", "Null", "NULL", "~"}) {
      if (text_.compare(at, w.size(), w) != 0) continue;
      std::size_t end = at + w.size();
      if (end < text_.size() && std::string_view(" \t\r\n,]}#").find(text_[end]) == std::string_view::npos)
        return {};  // a longer word
      while (end < text_.size() && (text_[end] == ' ' || text_[end] == '\t')) ++end;
      if (end < text_.size() && text_[end] == ':') return {};  // the next key, named `null`
      return std::string(w);
    }
    return {};
  }

  const std::string& text_;
  const Limits& limits_;
  const std::size_t bom_;
  std::vector<RawNode> nodes_;
  std::vector<Frame> frames_;
  std::unordered_map<YAML::anchor_t, std::uint32_t> anchors_;
  std::unordered_map<YAML::anchor_t, std::string> anchor_names_;
  std::string pending_anchor_name_;
  std::uint64_t total_ = 0;
};

// Refuses any document after the first, where it starts.
class SecondDocument final : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override {
    throw YamlProblem{mark_of(mark), "",
                      "a second YAML document starts here; a Tessera file holds exactly one (remove the "
                      "`---` line and what follows, or split the file)",
                      false};
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
  }
  void OnMapEnd() override {}
};

}  // namespace

RawDocument parse_yaml_document(const std::string& text) {
  std::istringstream in(text);
  Builder builder(text, current_limits());
  try {
    YAML::Parser parser(in);
    parser.HandleNextDocument(builder);
    SecondDocument second;
    parser.HandleNextDocument(second);
  } catch (const YAML::DeepRecursion& e) {
    throw YamlProblem{
        mark_of(e.mark), "",
        "the YAML nests deeper than yaml-cpp reads (about 2000 levels), whatever the limit yaml.depth",
        false};
  } catch (const YAML::Exception& e) {
    throw YamlProblem{mark_of(e.mark), "", e.msg, true};
  }
  if (builder.empty()) {
    RawDocument doc;
    doc.nodes.push_back(RawNode{});
    return doc;
  }
  return builder.take();
}

}  // namespace tessera::loader
