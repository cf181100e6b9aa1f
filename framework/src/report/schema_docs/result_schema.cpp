// The result schema as data: per kind, "path: types" rows (report/schema_docs/result_rows.hpp) read
// from the chart builders (vega_specs.cpp, picked_breakdown.cpp, *_charts.cpp, vega_marks.cpp) and
// the page header (html_report.cpp). A path's `[]` is each item of a list, `*` each member of an
// object. The rows become a tree that the document is walked along once, so the check is linear
// in the document.
#include "report/schema_docs/result_schema.hpp"

#include <array>
#include <map>
#include <memory>
#include <string_view>
#include <vector>

#include "core/text/safe_text.hpp"
#include "report/charts/vega_specs.hpp"
#include "report/schema_docs/result_rows.hpp"

namespace tessera {
// Named, not anonymous: the unity build puts other files' helpers beside these.
namespace result_schema_rows {

using loader::JNode;

struct SchemaNode {
  unsigned types = 0;  // 0: only implied by its children
  bool required = false;
  std::map<std::string, SchemaNode, std::less<>> members;
  std::unique_ptr<SchemaNode> each_member;  // `*`
  std::unique_ptr<SchemaNode> each_item;    // `[]`

  SchemaNode& member(std::string_view key) {
    if (types == 0) types = O;
    if (key == "*") {
      if (!each_member) each_member = std::make_unique<SchemaNode>();
      return *each_member;
    }
    return members.try_emplace(std::string(key)).first->second;
  }
  SchemaNode& item() {
    if (types == 0) types = L;
    if (!each_item) each_item = std::make_unique<SchemaNode>();
    return *each_item;
  }
};

void add_rule(SchemaNode& root, const Rule& r) {
  SchemaNode* n = &root;
  std::string_view rest = r.path;
  while (!rest.empty()) {
    std::string_view seg = rest.substr(0, rest.find('.'));
    rest = seg.size() < rest.size() ? rest.substr(seg.size() + 1) : std::string_view();
    std::size_t lists = 0;
    while (seg.size() >= 2 && seg.substr(seg.size() - 2) == "[]") {
      seg.remove_suffix(2);
      ++lists;
    }
    if (!seg.empty()) n = &n->member(seg);
    for (; lists > 0; --lists) n = &n->item();
  }
  n->types = r.types;
  n->required = r.required;
}

constexpr std::size_t kKinds = 8;

SchemaNode build_schema(ResultKind kind) {
  std::vector<Rule> rules = result_rules(kind);
  SchemaNode root;
  root.types = O;
  for (const Rule& r : rules) add_rule(root, r);
  return root;
}

const SchemaNode& schema_of_kind(ResultKind kind) {
  static const std::array<SchemaNode, kKinds> kSchemas = [] {
    std::array<SchemaNode, kKinds> a;
    for (std::size_t k = 0; k < kKinds; ++k) a[k] = build_schema(static_cast<ResultKind>(k));
    return a;
  }();
  return kSchemas[static_cast<std::size_t>(kind)];
}

// ---- the walk ------------------------------------------------------------------------------

unsigned type_of(const JNode& n) {
  switch (n.kind) {
    case JNode::Kind::boolean:
      return kBoolean;
    case JNode::Kind::integer:
    case JNode::Kind::unsigned_integer:
    case JNode::Kind::real:
      return kNumber;
    case JNode::Kind::string:
      return kString;
    case JNode::Kind::array:
      return kList;
    case JNode::Kind::object:
      return kObject;
    case JNode::Kind::null:
      break;
  }
  return 0;
}

std::string expected(unsigned types) {
  std::string s;
  const std::pair<unsigned, const char*> names[] = {{kNumber, "a number"},
                                                    {kString, "a string"},
                                                    {kBoolean, "true or false"},
                                                    {kObject, "an object"},
                                                    {kList, "a list"}};
  for (const auto& [t, name] : names)
    if (types & t) s += (s.empty() ? "" : " or ") + std::string(name);
  return s;
}

// One step of the path to a value: a member's key or an item's index.
struct Step {
  std::string_view key;
  std::size_t index = 0;
  bool is_index = false;
};

class Walk {
 public:
  explicit Walk(loader::Diags& d) : d_(d) {}

  void check(const JNode& n, const SchemaNode& s) {
    if (n.is_null()) {
      if (s.required) report(n.where, "expected " + expected(s.types) + ", found null");
      return;
    }
    if (s.types != 0 && (s.types & type_of(n)) == 0) {
      report(n.where, "expected " + expected(s.types) + ", found " + loader::describe(n));
      return;
    }
    if (n.is_object()) {
      for (const auto& [key, child] : s.members)
        if (child.required && !n.find(key)) {
          path_.push_back(Step{key});
          report(n.where, "missing; expected " + expected(child.types));
          path_.pop_back();
        }
      for (const loader::JMember& m : n.members) {
        const auto it = s.members.find(m.key);
        if (it == s.members.end() && !s.each_member) continue;
        path_.push_back(Step{m.key});
        if (it != s.members.end()) check(m.value, it->second);
        if (s.each_member) check(m.value, *s.each_member);
        path_.pop_back();
      }
    } else if (n.is_array() && s.each_item) {
      for (std::size_t i = 0; i < n.items.size(); ++i) {
        path_.push_back(Step{{}, i, true});
        check(n.items[i], *s.each_item);
        path_.pop_back();
      }
    }
  }

  std::vector<Step>& path() { return path_; }

 private:
  void report(const SourceLocation& where, const std::string& what) {
    if (d_.full()) {  // only counted
      d_.error(where, {});
      return;
    }
    std::string p;
    for (const Step& s : path_) {
      if (s.is_index)
        p += "[" + std::to_string(s.index) + "]";
      else
        p += (p.empty() ? "" : ".") + excerpt(s.key, 60);
    }
    d_.error(where, (p.empty() ? std::string("the result") : p) + ": " + what);
  }

  loader::Diags& d_;
  std::vector<Step> path_;
};

// What result_kind (vega_specs.cpp) reads to tell the kinds apart, copied from the tree: the
// marker fields with their types (lists and objects empty but for workload.mode), so that the
// kind has one definition and the document need not be held twice.
nlohmann::json kind_markers(const JNode& doc) {
  nlohmann::json j = nlohmann::json::object();
  for (const loader::JMember& m : doc.members) {
    const JNode& v = m.value;
    if (m.key == "workload" && v.is_object()) {
      j["workload"] = nlohmann::json::object();
      if (const loader::JMember* mode = v.find("mode"); mode && mode->value.is_string())
        j["workload"]["mode"] = mode->value.text;
      continue;
    }
    if (v.is_string())
      j[m.key] = v.text;
    else if (v.is_array())
      j[m.key] = nlohmann::json::array();
    else if (v.is_object())
      j[m.key] = nlohmann::json::object();
    else if (v.is_number() || v.kind == JNode::Kind::boolean)
      j[m.key] = 0;
  }
  return j;
}

ResultKind kind_of(const JNode& doc) { return result_kind(kind_markers(doc)); }

}  // namespace result_schema_rows

void check_result_fields(const loader::JNode& doc, loader::Diags& d) {
  using namespace result_schema_rows;
  Walk walk(d);
  walk.check(doc, schema_of_kind(kind_of(doc)));
  // Each other scope's document is drawn as a result of its own kind (vega_specs.cpp report_charts).
  const loader::JMember* scopes = doc.find("by_scope");
  if (!scopes || !scopes->value.is_object()) return;
  for (const loader::JMember& m : scopes->value.members) {
    if (!m.value.is_object()) continue;
    walk.path() = {Step{"by_scope"}, Step{m.key}};
    walk.check(m.value, schema_of_kind(kind_of(m.value)));
  }
}

}  // namespace tessera
