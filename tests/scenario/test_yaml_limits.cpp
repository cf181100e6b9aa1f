// The YAML reader's limits (docs/limits.md, "## YAML"): nodes with aliases expanded, depth,
// scalar length, self-referential aliases, one document, unterminated quoted scalars; and the
// escaping of everything a diagnostic prints.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/text/safe_text.hpp"
#include "core/text/text_file.hpp"
#include "scenario/readers/yaml_document.hpp"
#include "scenario/readers/yaml_tree.hpp"
#include "tessera/error.hpp"
#include "tessera/limits.hpp"

using namespace tessera;
using namespace tessera::loader;
namespace fs = std::filesystem;

namespace {

// Sets limits for one test and restores the previous ones.
struct LimitsGuard {
  Limits saved = current_limits();
  explicit LimitsGuard(const Limits& l) { set_limits(l); }
  ~LimitsGuard() { set_limits(saved); }
};

// The problem parse_yaml_document reports for `text`, or an empty one (what == "") when none.
YamlProblem problem_of(const std::string& text) {
  try {
    parse_yaml_document(text);
  } catch (const YamlProblem& p) {
    return p;
  }
  return YamlProblem{};
}

bool accepted(const std::string& text) { return problem_of(text).what.empty(); }

std::string nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

}  // namespace

TEST_CASE("yaml: nodes are counted with aliases expanded and refused at the crossing alias",
          "[yaml-limits]") {
  Limits l;
  l.yaml_nodes = 100;
  LimitsGuard guard(l);
  // root map (1) + key a (1) + list (1) + 9 items = 12; each *a adds 10 (list + 9).
  const std::string base = "a: &a [x, x, x, x, x, x, x, x, x]\nb: [";
  std::string text = base;
  for (int i = 0; i < 8; ++i) text += std::string(i ? ", " : "") + "*a";
  // 12 + key b + list + 8 * 10 = 94 nodes: accepted.
  CHECK(accepted(text + "]"));
  // A ninth alias makes 104: refused at it, naming the limit.
  const YamlProblem p = problem_of(text + ", *a]");
  CHECK(p.mark.line == 1);
  CHECK(p.mark.column == 4 + 8 * 4);
  CHECK(p.path == "b[8]");
  CHECK(p.what.find("expanding the alias *a (10 nodes) makes the document 104 nodes") != std::string::npos);
  CHECK(p.what.find("raise it with --limit yaml.nodes=N") != std::string::npos);
}

TEST_CASE("yaml: a billion-laughs bomb is refused before anything is expanded", "[yaml-limits]") {
  std::string text = "a0: &a0 [l, l, l, l, l, l, l, l, l, l]\n";
  for (int i = 1; i < 12; ++i) {
    const std::string prev = "*a" + std::to_string(i - 1);
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) text += (k ? ", " : "") + prev;
    text += "]\n";
  }
  const YamlProblem p = problem_of(text);  // 10^12 nodes expanded
  CHECK(p.what.find("yaml.nodes") != std::string::npos);
  CHECK(p.mark.line == 5);  // a5 expands to 1111111 nodes: it crosses 10^6
}

TEST_CASE("yaml: nesting depth is bounded also through an alias", "[yaml-limits]") {
  Limits l;
  l.yaml_depth = 10;
  LimitsGuard guard(l);
  CHECK(accepted(nested(10)));
  const YamlProblem p = problem_of(nested(11));
  CHECK(p.mark.column == 10);
  CHECK(p.what.find("the nesting depth reaches 11 here") != std::string::npos);
  CHECK(p.what.find("yaml.depth") != std::string::npos);
  // a: depth 2 + 5 lists = 7 deep; b: [[[*a]]] puts that list at depth 5 -> 5 + 6 - 1 = 10: ok.
  CHECK(accepted("a: &a [[[[[x]]]]]\nb: [[[*a]]]"));
  const YamlProblem q = problem_of("a: &a [[[[[x]]]]]\nb: [[[[*a]]]]");
  CHECK(q.mark.line == 1);
  CHECK(q.what.find("through the alias *a the nesting depth becomes 11") != std::string::npos);
  // A deep path of long keys is shortened in the middle, so the limit's tail is never cut.
  std::string keys;
  for (int i = 0; i < 11; ++i) keys += "{" + std::string(60, static_cast<char>('a' + i)) + ": ";
  const YamlProblem r = problem_of(keys + "x" + std::string(11, '}'));
  CHECK(r.path.size() < 130);
  CHECK(r.path.rfind(std::string(40, 'a') + "\u2026", 0) == 0);
  // Map j is at depth 10, its key at 11 (a scalar is a level too): the path ends at key i.
  CHECK(r.path.size() >= 60);
  CHECK(r.path.substr(r.path.size() - 60) == std::string(60, 'i'));
  // Far deeper than yaml-cpp's own guard: refused at the limit, quickly, without a crash.
  CHECK(problem_of("a: " + std::string(100000, '[')).what.find("yaml.depth") != std::string::npos);
}

TEST_CASE("yaml: scalar length", "[yaml-limits]") {
  Limits l;
  l.scalar_bytes = 8;
  LimitsGuard guard(l);
  CHECK(accepted("k: 12345678"));
  const YamlProblem p = problem_of("k: 123456789");
  CHECK(p.path == "k");
  CHECK(p.what ==
        "this scalar is 9 bytes, which exceeds the limit scalar.bytes (8); raise it with --limit "
        "scalar.bytes=N");
  CHECK_FALSE(accepted("123456789: v"));  // keys too
}

TEST_CASE("yaml: an alias inside the node it names is refused at the alias", "[yaml-limits]") {
  const YamlProblem seq = problem_of("description: &a [*a]");
  CHECK(seq.mark.line == 0);
  CHECK(seq.mark.column == 17);
  CHECK(seq.what.find("an alias refers to a node that contains it") != std::string::npos);
  const YamlProblem map = problem_of("description: &m {k: *m}");
  CHECK(map.path == "description.k");
  CHECK(map.what.find("an alias refers to a node that contains it") != std::string::npos);
  CHECK_FALSE(problem_of("x: &o {a: [1, {b: *o}]}").what.empty());
  // An alias of a closed sibling is fine.
  CHECK(accepted("a: &a {k: 1}\nb: *a\nc: [*a, *a]"));
  // Through --set the same, without a crash.
  Diags d;
  CHECK_FALSE(parse_yaml_text("&a [*a]", SourceLocation{kCommandLine, 0, 0}, "--set x=&a [*a]", d));
  REQUIRE(d.size() == 1);
  CHECK(d.list[0].message.find("an alias refers to a node that contains it") != std::string::npos);
}

TEST_CASE("yaml: exactly one document", "[yaml-limits]") {
  const YamlProblem p = problem_of("a: 1\n---\nb: 2\n");
  CHECK(p.mark.line == 1);
  CHECK(p.what.find("a second YAML document") != std::string::npos);
  CHECK_FALSE(accepted("a: 1\n---\n"));
  CHECK(accepted("---\na: 1\n"));
  CHECK(accepted("---\na: 1\n...\n"));
  CHECK(accepted(""));
  CHECK(accepted("# only a comment\n"));
}

TEST_CASE("yaml: an unterminated quoted scalar is refused where it starts", "[yaml-limits]") {
  // The typo that swallowed `overrides:` (runs to the end of the file).
  const YamlProblem eof = problem_of("name: \"x\noverrides:\n  a.b: 2\n");
  CHECK(eof.mark.line == 0);
  CHECK(eof.mark.column == 6);
  CHECK(eof.path == "name");
  CHECK(eof.what.find("has no closing \"") != std::string::npos);
  CHECK_FALSE(accepted("name: 'x"));
  // Closed by a later quote: the continuation line is not indented under the key.
  const YamlProblem indent = problem_of("name: \"x\noverrides:\n  a.b: \"2 TB/s\"\n");
  CHECK(indent.mark.column == 6);
  CHECK(indent.what.find("runs on to line 2, which is not indented under its key") != std::string::npos);
  // In a nested mapping the continuation must be indented more than that mapping's keys.
  CHECK_FALSE(accepted("a:\n  name: \"x\n  b: \"y\"\n"));
  CHECK_FALSE(accepted("- \"x\n- \"y\"\n"));
  // Legitimate multi-line quoted scalars (valid YAML 1.2) are accepted.
  CHECK(accepted("name: \"a long\n  description\"\nb: 1\n"));
  CHECK(accepted("a:\n  name: 'it''s\n     fine'\n"));
  CHECK(accepted("name: \"one\n\n  paragraph two\"\n"));  // a blank line is a line break
  CHECK(accepted("name: \"with \\\" an escaped quote\"\n"));
  CHECK(accepted("{name: \"flow\n  ok\"}"));
  CHECK(accepted("\xEF\xBB\xBFname: \"after a byte-order mark\"\nb: 'x'\n"));
  CHECK_FALSE(accepted("\xEF\xBB\xBFname: \"x\nb: 1\n"));
}

TEST_CASE("yaml: the tree keeps keys in order and quoting and reports duplicates", "[yaml-limits]") {
  Diags d;
  auto t =
      parse_yaml_text("{b: \"42\", a: [1, {name: n, v: ~}], c: *x}", SourceLocation{"f", 1, 1}, "ctx", d);
  CHECK_FALSE(t);  // undefined alias: yaml-cpp's own error
  Diags d2;
  auto u =
      parse_yaml_text("{b: \"42\", a: [1, {name: n, v: ~}], b: 3}", SourceLocation{"f", 1, 1}, "ctx", d2);
  REQUIRE(u);
  REQUIRE(u->entries.size() == 2);
  CHECK(u->entries[0].key == "b");
  CHECK_FALSE(u->entries[0].value.plain);
  CHECK(u->entries[1].value.items[1].find("v")->is_null());
  REQUIRE(d2.size() == 1);
  CHECK(d2.list[0].message.find("ctx.b: duplicate key") != std::string::npos);
}

TEST_CASE("yaml: a duplicate in a large mapping names its first line", "[yaml-limits]") {
  const fs::path file = fs::temp_directory_path() / ("tessera-dup-" + std::to_string(::getpid()) + ".yaml");
  {
    std::ofstream out(file);
    for (int i = 0; i < 5000; ++i) out << "k" << i << ": " << i << "\n";
    out << "k17: again\n";
  }
  Diags d;
  const auto tree = read_yaml_file(file.string(), "", d);
  fs::remove(file);
  REQUIRE(tree);
  CHECK(tree->entries.size() == 5000);
  REQUIRE(d.size() == 1);
  CHECK(d.list[0].format() == file.string() + ":5001:1: error: k17: duplicate key (first given at line 18, " +
                                  "column 1); give each key once");
}

TEST_CASE("diagnostics: the first `diagnostics` are kept and the rest counted in one line", "[yaml-limits]") {
  Limits l;
  l.diagnostics = 3;
  LimitsGuard guard(l);
  Diags d;
  for (int i = 0; i < 5; ++i) {
    CHECK(d.full() == (i >= 3));
    d.error(SourceLocation{"f.yaml", i + 1, 1}, "problem " + std::to_string(i));
  }
  CHECK(d.size() == 5);  // every problem counts: a caller comparing sizes sees each one
  CHECK(d.list.size() == 3);
  const std::vector<Diagnostic> all = d.take();
  REQUIRE(all.size() == 4);
  CHECK(all[2].format() == "f.yaml:3:1: error: problem 2");
  CHECK(all[3].format() ==
        "f.yaml: error: 2 more errors not shown: the number of errors exceeds the limit diagnostics (3); "
        "raise it "
        "with --limit diagnostics=N");
}

TEST_CASE("safe text: invalid UTF-8 and control characters escaped and valid UTF-8 kept", "[safe-text]") {
  CHECK(printable_text("plain 1 µs × 2") == "plain 1 µs × 2");
  CHECK(printable_text("a\tb\nc\rd\x1b[31me\x07") == "a\\tb\\nc\\rd\\e[31me\\x07");
  CHECK(printable_text(std::string("nul\0x", 5)) == "nul\\0x");
  CHECK(printable_text("\x7f") == "\\x7F");
  CHECK(printable_text("sc\xC3(pe") == "sc\\xC3(pe");                   // truncated sequence
  CHECK(printable_text("\xC0\xAF") == "\\xC0\\xAF");                    // overlong '/'
  CHECK(printable_text("\xED\xA0\x80") == "\\xED\\xA0\\x80");           // a surrogate
  CHECK(printable_text("\xF4\x90\x80\x80") == "\\xF4\\x90\\x80\\x80");  // above U+10FFFF
  CHECK(printable_text("\xC2\x9B") == "\\u009B");                       // C1 control (CSI)
  CHECK(printable_text("a\xE2\x80\xAE"
                       "b") == "a\\u202Eb");  // right-to-left override
  CHECK(printable_text("end\xE2\x80") == "end\\xE2\\x80");
}

TEST_CASE("safe text: excerpts and capped messages", "[safe-text]") {
  CHECK(excerpt("short") == "short");
  CHECK(excerpt(std::string(60, 'x')) == std::string(60, 'x'));
  CHECK(excerpt(std::string(61, 'x')) == std::string(60, 'x') + "\u2026");
  std::string micro;
  for (int i = 0; i < 61; ++i) micro += "µ";
  CHECK(excerpt(micro).size() == 60 * 2 + 3);  // cut at a character, never inside one
  const std::string big(10 * kMaxMessageBytes, 'y');
  CHECK(printable_message(big).size() == kMaxMessageBytes + 3);
  YNode n;
  n.kind = YNode::Kind::scalar;
  n.value = std::string(5000, 'z');
  CHECK(describe(n) == "\"" + std::string(60, 'z') + "\u2026\"");
}

TEST_CASE("safe text: the first byte that makes a text binary", "[safe-text]") {
  CHECK(first_binary_byte("plain 1 µs × 2\n\ttab") == std::string_view::npos);
  CHECK(first_binary_byte("") == std::string_view::npos);
  CHECK(first_binary_byte(std::string("ab\0c", 4)) == 2);
  CHECK(first_binary_byte("Caf\xE9") == 3);      // Latin-1 é
  CHECK(first_binary_byte("ok\xC0\xAF") == 2);   // overlong '/'
  CHECK(first_binary_byte("end\xE2\x80") == 3);  // cut sequence
}

TEST_CASE("text files: a binary file is refused at its first binary byte", "[yaml-limits]") {
  const fs::path dir = fs::temp_directory_path() / ("tessera-text-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto first_error = [](const std::string& path) {
    try {
      read_text_file(path, "the document");
    } catch (const InputErrors& e) {
      return e.diagnostics().at(0).format();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string text = (dir / "t.md").string(), bin = (dir / "b.md").string();
  std::ofstream(text) << "# µs\n";
  std::ofstream(bin, std::ios::binary) << std::string("# x\nab\0", 7);
  CHECK(read_text_file(text, "the document") == "# µs\n");
  CHECK(first_error(bin) == bin + ":2:3: error: the document is not text: a NUL byte (a binary file?)");
  CHECK(first_error(dir.string()) ==
        dir.string() + ": the document is a directory; inputs must be regular files");
  fs::remove_all(dir);
}

TEST_CASE("diagnostics are escaped where they are formatted", "[safe-text]") {
  const Diagnostic d{SourceLocation{"bad\x1b]0;t\x07.yaml", 3, 4}, "unknown key '\x1b[2Jx\xFF'"};
  CHECK(d.format() == "bad\\e]0;t\\x07.yaml:3:4: error: unknown key '\\e[2Jx\\xFF'");
}

TEST_CASE("yaml files: only regular files within file.bytes are read", "[yaml-limits]") {
  const fs::path dir = fs::temp_directory_path() / ("tessera-yaml-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string fifo = (dir / "f.yaml").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto first_error = [](const std::string& path) {
    Diags d;
    const auto tree = read_yaml_file(path, "model", d);
    CHECK_FALSE(tree);
    return d.empty() ? std::string() : d.list[0].format();
  };
  CHECK(first_error(fifo) ==
        fifo + ": error: the model file is a FIFO (named pipe); inputs must be regular files");
  CHECK(first_error(dir.string()) ==
        dir.string() + ": error: the model file is a directory; inputs must be regular files");
  CHECK(first_error("/dev/zero") ==
        "/dev/zero: error: the model file is a character device; inputs must be regular files");
  CHECK(first_error((dir / "none.yaml").string()) ==
        (dir / "none.yaml").string() + ": error: cannot read the model file (does it exist?)");
  const std::string big = (dir / "big.yaml").string();
  std::ofstream(big) << "name: " << std::string(200, 'x') << "\n";
  Limits l;
  l.file_bytes = 100;
  {
    LimitsGuard guard(l);
    CHECK(first_error(big).find("exceeds the limit file.bytes (100)") != std::string::npos);
  }
  fs::remove_all(dir);
}
