// TextTable::print with a width: as it is when it fits (or width 0); else short headers, a
// folded column and the knobs common to every row named once, then columns dropped highest
// rank first with the note naming them. fit_lines / wrap_words break prose, not tables.
#include <catch2/catch.hpp>
#include <sstream>

#include "report/text/text_table.hpp"

using tessera::TextTable;

namespace {

TextTable knob_table() {
  using A = TextTable::Align;
  TextTable t({"#", "config", "ep", "latency", "memory"}, {A::left, A::left, A::right, A::right, A::right});
  t.set_fit(1, {0, "", false, true});
  t.set_fit(2, {0, "", true, false});
  t.set_fit(3, {0, "lat", false, false});
  t.set_fit(4, {1, "", false, false});
  t.add_row({"1", "tp=4 pp=1 kv=split", "1", "6.131 ms", "3.49 GB"});
  t.add_row({"2", "tp=8 pp=1 kv=split", "1", "7.197 ms", "5.04 GB"});
  return t;
}

std::string printed(const TextTable& t, std::size_t width) {
  std::ostringstream os;
  t.print(os, "  ", width);
  return os.str();
}

}  // namespace

TEST_CASE("a table that fits its width is printed as it is") {
  const TextTable t = knob_table();
  const std::string full =
      "  #  config              ep   latency   memory\n"
      "  --------------------------------------------\n"
      "  1  tp=4 pp=1 kv=split   1  6.131 ms  3.49 GB\n"
      "  2  tp=8 pp=1 kv=split   1  7.197 ms  5.04 GB\n";
  CHECK(printed(t, 0) == full);
  CHECK(printed(t, 46) == full);  // exactly its width
}

TEST_CASE("abbreviating names the folded column and the common knobs once") {
  // 45 columns: the full table (46) does not fit; abbreviated it does, memory kept.
  CHECK(printed(knob_table(), 45) ==
        "  #  config       lat   memory\n"
        "  ----------------------------\n"
        "  1  tp=4    6.131 ms  3.49 GB\n"
        "  2  tp=8    7.197 ms  5.04 GB\n"
        "  every row: pp=1 kv=split ep=1\n");
}

TEST_CASE("columns are dropped by rank and the note names them and --width 0") {
  CHECK(printed(knob_table(), 24) ==
        "  #  config       lat\n"
        "  -------------------\n"
        "  1  tp=4    6.131 ms\n"
        "  2  tp=8    7.197 ms\n"
        "  every row: pp=1\n"
        "    kv=split ep=1\n"
        "  left out to fit 24\n"
        "    columns: memory\n"
        "    (--width 0 shows\n"
        "    every column)\n");
}

TEST_CASE("an abbreviated cell replaces its cell only when abbreviating") {
  TextTable t({"model", "optimum"}, {TextTable::Align::left, TextTable::Align::left});
  t.set_fit(1, {0, "", false, true});
  t.add_row({"a", "cp=2,tp=8,pp=1"}, {"", "cp=2 tp=8 pp=1"});
  t.add_row({"b", "cp=1,tp=8,pp=1"}, {"", "cp=1 tp=8 pp=1"});
  std::ostringstream full, fitted;
  t.print(full, "", 0);
  t.print(fitted, "", 12);
  CHECK(full.str() ==
        "model  optimum\n---------------------\na      cp=2,tp=8,pp=1\nb      cp=1,tp=8,pp=1\n");
  CHECK(fitted.str() ==
        "model  optimum\n--------------\na      cp=2\nb      cp=1\nevery row:\n  tp=8 pp=1\n");
}

TEST_CASE("fit_lines breaks prose under its label and leaves table lines alone") {
  const std::string text =
      "best       cp=8 tp=16 pp=1 dp=1 ep=1 kv=replicate\n"
      "  1    8  16   1   1   1  replicate  TP+CP     pe   cube  qoml\n";
  CHECK(tessera::fit_lines(text, 40) ==
        "best       cp=8 tp=16 pp=1 dp=1 ep=1\n"
        "           kv=replicate\n"
        "  1    8  16   1   1   1  replicate  TP+CP     pe   cube  qoml\n");
  CHECK(tessera::fit_lines(text, 0) == text);
}

TEST_CASE("wrap_list breaks a comma-separated list after a comma under the list") {
  CHECK(tessera::wrap_list("Config  ", "a=1,b=2", 0) == "Config  a=1,b=2");
  CHECK(tessera::wrap_list("Config  ", "a=1,b=2", 80) == "Config  a=1,b=2");
  CHECK(tessera::wrap_list("L ", "aa=1,bb=2,cc=3", 10) == "L aa=1,\n  bb=2,\n  cc=3");
  CHECK(tessera::wrap_list("L ", "aa=1,bb=2,cc=3", 12) == "L aa=1,bb=2,\n  cc=3");
  CHECK(tessera::wrap_list("L ", "averyveryverylongitem,b", 10) ==
        "L averyveryverylongitem,\n  b");  // kept whole
}
