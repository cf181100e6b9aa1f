// JSON -> JNode with locations, through nlohmann::json::sax_parse. nlohmann 3.11's SAX events
// carry no position, so the parser reads the text through an iterator that publishes how far
// it has read; at each event the handler turns that into the token's start:
//  - a key event comes right after the key's closing quote: the opening quote is the nearest
//    earlier quote not escaped by an odd run of backslashes;
//  - a value starts at the first byte after the previous event that is not blank, ',' or ':'
//    (after a number the lexer has read one byte ahead, always a blank, ',', ']', '}' or the
//    end, so this still holds);
//  - a parse error's byte offset comes with the event.
// nlohmann's parser keeps its own stack (no recursion), so a deep document cannot overflow the
// C++ stack before the depth limit stops it.
#include "scenario/readers/json_tree.hpp"

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

#include "core/text/input_file.hpp"
#include "core/text/safe_text.hpp"
#include "tessera/limits.hpp"

namespace tessera::loader {

namespace {

// A byte iterator that records in `*sink` the offset just past the last byte read.
class TrackingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackingIterator(const char* base, const char* p, std::size_t* sink) : base_(base), p_(p), sink_(sink) {}
  reference operator*() const { return *p_; }
  TrackingIterator& operator++() {
    ++p_;
    if (sink_) *sink_ = static_cast<std::size_t>(p_ - base_);
    return *this;
  }
  TrackingIterator operator++(int) {
    TrackingIterator t = *this;
    ++*this;
    return t;
  }
  bool operator==(const TrackingIterator& o) const { return p_ == o.p_; }
  bool operator!=(const TrackingIterator& o) const { return p_ != o.p_; }

 private:
  const char* base_;
  const char* p_;
  std::size_t* sink_;
};

// Byte offset -> 1-based line and column.
class LineMap {
 public:
  explicit LineMap(const std::string& text) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') starts_.push_back(i + 1);
  }
  SourceLocation at(const std::string& file, std::size_t offset) const {
    const auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
    const std::size_t line = static_cast<std::size_t>(it - starts_.begin());  // >= 1
    const std::size_t col = offset - starts_[line - 1] + 1;
    return SourceLocation{file, static_cast<int>(std::min<std::size_t>(line, 1u << 30)),
                          static_cast<int>(std::min<std::size_t>(col, 1u << 30))};
  }

 private:
  std::vector<std::size_t> starts_;
};

// A short, single-line excerpt of nlohmann's parse error: the part after "line L, column C: ".
std::string syntax_detail(const std::string& what) {
  std::string s = what;
  const std::size_t col = s.find("column ");
  if (col != std::string::npos) {
    const std::size_t colon = s.find(": ", col);
    if (colon != std::string::npos) s = s.substr(colon + 2);
  } else if (const std::size_t close = s.find("] "); close != std::string::npos) {
    s = s.substr(close + 2);
  }
  constexpr std::size_t kMax = 160;
  if (s.size() > kMax) s = s.substr(0, kMax) + "...";
  return s;
}

struct Handler {
  using number_integer_t = nlohmann::json::number_integer_t;
  using number_unsigned_t = nlohmann::json::number_unsigned_t;
  using number_float_t = nlohmann::json::number_float_t;
  using string_t = nlohmann::json::string_t;
  using binary_t = nlohmann::json::binary_t;

  Handler(const std::string& t, const std::string& f, const LineMap& l, Diags& diags,
          const std::string& context)
      : text(t), file(f), lines(l), d(diags), lead(context.empty() ? context : context + ": ") {}

  const std::string& text;
  const std::string& file;
  const LineMap& lines;
  Diags& d;
  const std::string lead;  // "hf_config: " before each limit message, or ""
  std::size_t cursor = 0;  // written by TrackingIterator: bytes read so far
  std::size_t last = 0;    // cursor at the previous event
  std::uint64_t nodes = 0;
  JNode root;
  bool have_root = false;
  std::vector<JNode*> open;                      // open arrays and objects, outermost first
  std::vector<std::set<std::string>> keys_seen;  // per open container (objects only use it)
  std::string pending_key;
  SourceLocation pending_key_where;
  bool failed = false;

  std::size_t value_start() const {
    std::size_t i = last;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r' ||
                               text[i] == ',' || text[i] == ':'))
      ++i;
    return std::min(i, text.size());
  }

  bool fail(const SourceLocation& where, std::string message) {
    d.error(where, std::move(message));
    failed = true;
    return false;
  }

  // Adds a value at the current position; returns it, or nullptr after recording a limit error.
  JNode* add(JNode::Kind kind) {
    const SourceLocation where = lines.at(file, value_start());
    last = cursor;
    if (++nodes > current_limits().yaml_nodes) {
      fail(where, lead + "the JSON document has more values than allowed: " + limit_exceeded("yaml.nodes"));
      return nullptr;
    }
    JNode n;
    n.kind = kind;
    n.where = where;
    if (open.empty()) {
      root = std::move(n);
      have_root = true;
      return &root;
    }
    JNode* parent = open.back();
    if (parent->is_array()) {
      parent->items.push_back(std::move(n));
      return &parent->items.back();
    }
    parent->members.push_back(JMember{std::move(pending_key), pending_key_where, std::move(n)});
    pending_key.clear();
    return &parent->members.back().value;
  }

  bool null() { return add(JNode::Kind::null) != nullptr; }
  bool boolean(bool v) {
    JNode* n = add(JNode::Kind::boolean);
    if (n) n->boolean = v;
    return n != nullptr;
  }
  bool number_integer(number_integer_t v) {
    JNode* n = add(JNode::Kind::integer);
    if (n) {
      n->integer = v;
      n->text = std::to_string(v);
    }
    return n != nullptr;
  }
  bool number_unsigned(number_unsigned_t v) {
    const bool fits = v <= static_cast<number_unsigned_t>(INT64_MAX);
    JNode* n = add(fits ? JNode::Kind::integer : JNode::Kind::unsigned_integer);
    if (n) {
      if (fits)
        n->integer = static_cast<std::int64_t>(v);
      else
        n->unsigned_ = v;
      n->text = std::to_string(v);
    }
    return n != nullptr;
  }
  bool number_float(number_float_t v, const string_t& raw) {
    JNode* n = add(JNode::Kind::real);
    if (n) {
      n->real = v;
      n->text = excerpt(raw, 64);
    }
    return n != nullptr;
  }
  bool check_string(const string_t& s, std::size_t start) {
    if (s.size() <= current_limits().scalar_bytes) return true;
    return fail(lines.at(file, start), lead + "a JSON string of " + std::to_string(s.size()) + " bytes " +
                                           limit_exceeded("scalar.bytes"));
  }
  bool string(string_t& s) {
    if (!check_string(s, value_start())) return false;
    JNode* n = add(JNode::Kind::string);
    if (n) n->text = std::move(s);
    return n != nullptr;
  }
  bool binary(binary_t&) { return fail(lines.at(file, value_start()), lead + "binary values are not JSON"); }
  bool open_container(JNode::Kind kind) {
    if (open.size() + 1 > current_limits().yaml_depth)
      return fail(lines.at(file, value_start()), lead + "JSON nested " + std::to_string(open.size() + 1) +
                                                     " levels deep " + limit_exceeded("yaml.depth"));
    JNode* n = add(kind);
    if (!n) return false;
    open.push_back(n);
    keys_seen.emplace_back();
    return true;
  }
  bool close_container() {
    last = cursor;
    open.pop_back();
    keys_seen.pop_back();
    return true;
  }
  bool start_object(std::size_t) { return open_container(JNode::Kind::object); }
  bool end_object() { return close_container(); }
  bool start_array(std::size_t) { return open_container(JNode::Kind::array); }
  bool end_array() { return close_container(); }
  bool key(string_t& k) {
    // The cursor is just past the key's closing quote; find its opening quote.
    std::size_t q = cursor >= 2 ? cursor - 2 : 0;
    while (q > 0) {
      if (text[q] == '"') {
        std::size_t bs = 0;
        while (q >= bs + 1 && text[q - bs - 1] == '\\') ++bs;
        if (bs % 2 == 0) break;
      }
      --q;
    }
    const SourceLocation where = lines.at(file, q);
    last = cursor;
    if (!check_string(k, q)) return false;
    auto& seen = keys_seen.back();
    if (!seen.insert(k).second) {
      const JNode* obj = open.back();
      SourceLocation first;
      for (const JMember& m : obj->members)
        if (m.key == k) first = m.key_where;
      const std::string shown = excerpt(k, 80);
      d.error(where, lead + "duplicate key \"" + shown + "\" (first at line " + std::to_string(first.line) +
                         ", column " + std::to_string(first.column) +
                         "); JSON readers disagree on which one counts, so Tessera refuses both");
      failed = true;
    }
    pending_key = std::move(k);
    pending_key_where = where;
    return true;
  }
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& ex) {
    std::size_t at = position > 0 ? position - 1 : 0;
    std::string message;
    if (ex.id == 406) {  // out_of_range: number overflow (1e400)
      at = position >= last_token.size() ? position - last_token.size() : 0;
      const std::string shown = excerpt(last_token, 64);
      message = lead + "the number " + shown + " is out of range (beyond a double, about 1.8e308)";
    } else {
      message = "malformed JSON: " + syntax_detail(ex.what());
    }
    return fail(lines.at(file, std::min(at, text.size())), std::move(message));
  }
};

}  // namespace

JNode::~JNode() {
  if (items.empty() && members.empty()) return;
  std::vector<JNode> work;
  const auto take = [&work](JNode& n) {
    for (JNode& c : n.items) work.push_back(std::move(c));
    for (JMember& m : n.members) work.push_back(std::move(m.value));
    n.items.clear();
    n.members.clear();
  };
  take(*this);
  while (!work.empty()) {
    JNode n = std::move(work.back());
    work.pop_back();
    take(n);  // n now has no children: its destructor returns at once
  }
}

const JMember* JNode::find(std::string_view key) const {
  for (const JMember& m : members)
    if (m.key == key) return &m;
  return nullptr;
}

std::string describe(const JNode& n) {
  switch (n.kind) {
    case JNode::Kind::null:
      return "null";
    case JNode::Kind::boolean:
      return n.boolean ? "true" : "false";
    case JNode::Kind::integer:
    case JNode::Kind::unsigned_integer:
    case JNode::Kind::real:
      return n.text;
    case JNode::Kind::string:
      return "\"" + excerpt(n.text, 64) + "\"";
    case JNode::Kind::array:
      return "a list";
    case JNode::Kind::object:
      return "an object";
  }
  return "?";
}

std::optional<JNode> parse_json_text(const std::string& text, const std::string& file, Diags& d,
                                     const std::string& context) {
  const LineMap lines(text);
  const std::size_t before = d.size();
  Handler h(text, file, lines, d, context);
  const char* base = text.data();
  TrackingIterator first(base, base, &h.cursor), end(base, base + text.size(), nullptr);
  bool ok = false;
  try {
    ok = nlohmann::json::sax_parse(first, end, &h);
  } catch (const nlohmann::json::exception& e) {  // not expected from sax_parse; never escape raw
    d.error(SourceLocation{file, 0, 0}, std::string("malformed JSON: ") + syntax_detail(e.what()));
    return std::nullopt;
  }
  if (!ok && d.size() == before) d.error(SourceLocation{file, 0, 0}, "malformed JSON");
  if (!ok || h.failed || d.size() != before || !h.have_root) return std::nullopt;
  return std::move(h.root);
}

std::optional<JNode> read_json_file(const std::string& path, const std::string& what, Diags& d) {
  std::string text;
  try {
    text = read_input_file(path, what);
  } catch (const InputError& e) {
    std::string m = e.what();
    if (m.rfind(path + ": ", 0) == 0) m = m.substr(path.size() + 2);
    d.error(SourceLocation{path, 0, 0}, m);
    return std::nullopt;
  }
  return parse_json_text(text, path, d);
}

}  // namespace tessera::loader
