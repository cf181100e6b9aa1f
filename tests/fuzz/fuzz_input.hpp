#pragma once
// Shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.cpp): the fuzzer's bytes as a file the
// loader can read, and the one rule every harness follows — a tessera::Error (InputError,
// InputErrors, PluginError) is the expected answer to bad input; anything else escapes and
// libFuzzer reports it as a crash (an uncaught exception aborts the process).
//
// The loader's public entry points take paths, so each input is written to a file under a
// per-process temporary folder (removed at exit). That folder links `models` and `machines`
// to the source tree's, so scenario inputs may name shipped files by relative path
// (`model: ../models/llama3.1-70b.yaml`) as the shipped scenarios do.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include "tessera/error.hpp"
#include "tessera/limits.hpp"
#include "tessera_build_paths.hpp"

namespace tessera::fuzz {

class TempTree {
 public:
  TempTree() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/tessera-fuzz-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
      std::perror("tessera fuzz: mkdtemp");
      std::abort();
    }
    root_ = pattern;
    namespace fs = std::filesystem;
    fs::create_directory(root_ / "scenarios");
    fs::create_directory_symlink(fs::path(TESSERA_SOURCE_DIR) / "models", root_ / "models");
    fs::create_directory_symlink(fs::path(TESSERA_SOURCE_DIR) / "machines", root_ / "machines");
  }
  ~TempTree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  // Writes `bytes` to `name` (relative to the temporary root) and returns its path.
  std::string write(const std::string& name, const std::uint8_t* data, std::size_t size) const {
    const std::string path = (root_ / name).string();
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr || (size > 0 && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0) {
      std::perror("tessera fuzz: writing the input file");
      std::abort();
    }
    return path;
  }

 private:
  std::filesystem::path root_;
};

// Every harness runs with yaml.nodes at 10^5, a tenth of the default: an alias bomb mutated to
// expand to just under the limit builds (and frees) that many nodes before it is refused, which
// under ASan takes about 3 s at 10^6 and would pass libFuzzer's 2 s timeout; the refusal's code
// path is the same at any limit (docs/fuzzing.md).
inline void fuzz_limits() {
  static const bool set = [] {
    Limits limits = current_limits();
    limits.yaml_nodes = 100'000;
    set_limits(limits);
    return true;
  }();
  (void)set;
}

// The process's temporary tree, made on first use.
inline const TempTree& temp_tree() {
  static const TempTree tree;
  return tree;
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs `f`, treating a Tessera error as the expected outcome of bad input.
template <class F>
void expect_input_errors_only(F&& f) {
  fuzz_limits();
  try {
    f();
  } catch (const tessera::Error&) {
  }
}

}  // namespace tessera::fuzz
