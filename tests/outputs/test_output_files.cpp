// The output layer's rules (docs/limits.md "Outputs"), one test each.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <thread>

#include "core/cancellation.hpp"
#include "output_files.hpp"
#include "output_test_util.hpp"
#include "tessera/error.hpp"

using tessera::cli::OutputFile;
using tessera::cli::Outputs;
using namespace tessera::test;

namespace {

std::string first_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const tessera::InputError& e) {
    return e.what();
  }
  return "";
}

bool has_tmp(const TempDir& d) {
  const auto n = d.names();
  return std::any_of(n.begin(), n.end(),
                     [](const std::string& s) { return s.find(".tmp") != std::string::npos; });
}

}  // namespace

TEST_CASE("a new regular file appears only when committed") {
  TempDir d;
  Outputs o;
  OutputFile* f = o.add("--json", d / "out.json");
  REQUIRE(f->kind() == OutputFile::Kind::atomic);
  f->stream() << "{}\n";
  CHECK_FALSE(fs::exists(d / "out.json"));
  CHECK(has_tmp(d));
  o.commit_all();
  CHECK(slurp(d / "out.json") == "{}\n");
  CHECK(d.names() == std::vector<std::string>{"out.json"});
}

TEST_CASE("an output not committed leaves the old file and no temporary file") {
  TempDir d;
  spit(d / "out.csv", "previous\n");
  {
    Outputs o;
    o.add("--csv", d / "out.csv")->stream() << "half a row";
  }
  CHECK(slurp(d / "out.csv") == "previous\n");
  CHECK(d.names() == std::vector<std::string>{"out.csv"});
}

TEST_CASE("commit after a cancellation request renames nothing") {
  TempDir d;
  tessera::clear_cancellation();
  {
    Outputs o;
    o.add("--csv", d / "out.csv")->stream() << "a,b\n";
    tessera::request_cancellation();
    CHECK_THROWS_AS(o.commit_all(), tessera::Cancelled);
  }
  tessera::clear_cancellation();
  CHECK(d.names().empty());
}

TEST_CASE("a missing folder is refused and not created") {
  TempDir d;
  Outputs o;
  const std::string msg = first_error([&] { o.add("--csv", d / "new/dir/x.csv"); });
  CHECK(msg.find("<command line>: error: --csv ") == 0);
  CHECK(msg.find("does not exist (outputs do not create folders)") != std::string::npos);
  CHECK(d.names().empty());
}

TEST_CASE("a folder as output is refused") {
  TempDir d;
  Outputs o;
  CHECK(first_error([&] { o.add("--json", d.path().string()); }).find("is a folder") != std::string::npos);
}

TEST_CASE("two outputs naming one file are refused whatever the spelling") {
  TempDir d;
  fs::create_directory(d / "sub");
  fs::create_directory_symlink("sub", d / "alias");
  SECTION("same spelling") {
    Outputs o;
    o.add("--csv", d / "x");
    CHECK(first_error([&] { o.add("--json", d / "x"); }).find("names the same file as --csv") !=
          std::string::npos);
  }
  SECTION("a new file through a symlinked folder and a ./ spelling") {
    Outputs o;
    o.add("--csv", d / "sub/x");
    CHECK(first_error([&] { o.add("--json", d / "alias/./x"); }).find("names the same file") !=
          std::string::npos);
  }
  SECTION("an existing file and a symlink to it") {
    spit(d / "sub/y", "old");
    fs::create_symlink("sub/y", d / "link");
    Outputs o;
    o.add("--csv", d / "link");
    CHECK(first_error([&] { o.add("--json", d / "sub/y"); }).find("names the same file") !=
          std::string::npos);
  }
  // Nothing was left behind by the refused outputs (the first one's temporary file goes with o).
  CHECK_FALSE(has_tmp(d));
  CHECK_FALSE(fs::exists(d / "sub/x"));
}

TEST_CASE("at most one output goes to stdout") {
  Outputs o;
  CHECK(o.add("--json", "-")->kind() == OutputFile::Kind::standard_output);
  CHECK(o.stdout_taken());
  CHECK(first_error([&] { o.add("--csv", "/dev/stdout"); }).find("only one output can go to stdout") !=
        std::string::npos);
}

TEST_CASE("a symlink is written through to its target and stays a link") {
  TempDir d;
  spit(d / "target.csv", "old\n");
  fs::create_symlink("target.csv", d / "link.csv");
  Outputs o;
  o.add("--csv", d / "link.csv")->stream() << "new\n";
  o.commit_all();
  CHECK(fs::is_symlink(d / "link.csv"));
  CHECK(slurp(d / "target.csv") == "new\n");
  CHECK(d.names() == std::vector<std::string>{"link.csv", "target.csv"});
}

TEST_CASE("a dangling symlink creates its target and keeps the link") {
  TempDir d;
  fs::create_symlink("made.csv", d / "link.csv");
  Outputs o;
  o.add("--csv", d / "link.csv")->stream() << "x\n";
  o.commit_all();
  CHECK(fs::is_symlink(d / "link.csv"));
  CHECK(slurp(d / "made.csv") == "x\n");
}

TEST_CASE("a FIFO is written through and never replaced") {
  TempDir d;
  const std::string fifo = d / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] { got = slurp(fifo); });
  {
    Outputs o;
    OutputFile* f = o.add("--csv", fifo);
    CHECK(f->kind() == OutputFile::Kind::through);
    f->stream() << "a,b\n1,2\n";
    o.commit_all();
  }
  reader.join();
  CHECK(got == "a,b\n1,2\n");
  struct stat st {};
  REQUIRE(::lstat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  CHECK(d.names() == std::vector<std::string>{"pipe"});
}

TEST_CASE("a character device is written through") {
  Outputs o;
  // /dev/zero, not /dev/null: stdout may be /dev/null, and stdout is its own kind.
  OutputFile* f = o.add("--json", "/dev/zero");
  CHECK(f->kind() == OutputFile::Kind::through);
  f->stream() << "{}";
  o.commit_all();
  struct stat st {};
  REQUIRE(::stat("/dev/zero", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
}

TEST_CASE("an unwritable folder is refused before any work") {
  // As root a mode bit does not stop a write: /proc refuses new files for everyone.
  Outputs o;
  CHECK(first_error([&] {
          o.add("--csv", "/proc/tessera-test.csv");
        }).find("cannot create a file in the folder") != std::string::npos);
  if (::geteuid() != 0) {
    TempDir d;
    fs::create_directory(d / "ro");
    fs::permissions(d / "ro", fs::perms::owner_read | fs::perms::owner_exec);
    CHECK(first_error([&] { o.add("--csv", d / "ro/x.csv"); }).find("cannot create a file") !=
          std::string::npos);
    fs::permissions(d / "ro", fs::perms::owner_all);
  }
}

TEST_CASE("a new file gets the umask mode and a replaced one keeps its mode") {
  TempDir d;
  spit(d / "kept", "old");
  fs::permissions(d / "kept", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  Outputs o;
  o.add("--csv", d / "kept")->stream() << "new";
  o.add("--json", d / "new")->stream() << "new";
  o.commit_all();
  CHECK(fs::status(d / "kept").permissions() ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  const mode_t mask = ::umask(0);
  ::umask(mask);
  CHECK(static_cast<mode_t>(fs::status(d / "new").permissions()) == (0666 & ~mask));
}

TEST_CASE("remove_temporary_outputs_now removes every pending temporary file") {
  TempDir d;
  Outputs o;
  o.add("--csv", d / "a.csv")->stream() << "x";
  o.add("--json", d / "b.json")->stream() << "y";
  CHECK(has_tmp(d));
  tessera::cli::remove_temporary_outputs_now();
  CHECK(d.names().empty());
}
