#pragma once
// The exception types the framework and plugins throw. Defined out of line in libtessera so
// their typeinfo is unique across the host and every plugin (catching by type works).
#include <stdexcept>
#include <string>
#include <vector>

#include "tessera/export.hpp"

namespace tessera {

// Base of every Tessera error.
class TESSERA_API Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message);
  ~Error() override;
};

// Bad user input (a scenario, a flag, a value): the CLI exits with status 2.
class TESSERA_API InputError : public Error {
 public:
  explicit InputError(const std::string& message);
  ~InputError() override;
};

// A plugin failed to load, to be created or to run: the CLI exits with status 1.
class TESSERA_API PluginError : public Error {
 public:
  explicit PluginError(const std::string& message);
  ~PluginError() override;
};

// Where a diagnostic points. Line and column are 1-based; 0 means unknown.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
};

// One input problem: printed as `FILE:LINE:COL: error: MESSAGE` (the compiler convention).
struct Diagnostic {
  SourceLocation where;
  std::string message;
  TESSERA_API std::string format() const;
};

// Several input problems found in one validation pass: all are reported, not just the first.
class TESSERA_API InputErrors : public InputError {
 public:
  explicit InputErrors(std::vector<Diagnostic> diagnostics);
  ~InputErrors() override;
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace tessera
