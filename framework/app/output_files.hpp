#pragma once
// The one output layer of the `tessera` executable: every output option (--json, --csv, the
// scenario's report.json / report.csv, and any added later) goes through it.
//
// Rules (docs/limits.md "Outputs"):
// - every output is checked when it is added, before any work: its folder exists and can be
//   written (folders are never created), it is not a folder, at most one output goes to
//   stdout ('-', /dev/stdout), and no two outputs name the same file (compared by device and
//   inode, so different spellings and symlinks are caught); a problem is an InputError;
// - a regular file (or a new one) is written to a unique `PATH.tmp.XXXXXX` in its folder and
//   renamed over PATH when the command commits, so a reader never sees half a file and a
//   failed or interrupted run leaves PATH as it was; a symlink is resolved and its target
//   treated by its type (the link stays a link);
// - stdout, FIFOs and character devices are written through, never replaced;
// - an output never replaces a file the command read as input (core/text/inputs_read.hpp): checked
//   when it is added and again before the renames;
// - in a folder the command writes (--vega DIR, --png DIR, --deploy DIR: add_in_folder) a
//   symbolic link at a file's name is replaced, never followed out of the folder.
// Temporary files not committed are removed by the destructors, and by
// remove_temporary_outputs_now() from a signal handler.
#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "studies/scenario_options.hpp"  // loader::kCommandLine

namespace tessera::cli {

class OutputFile {
 public:
  enum class Kind { standard_output, through, atomic };
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Where the content goes (opened on first use for written-through files).
  std::ostream& stream();
  Kind kind() const { return kind_; }
  const std::string& path() const { return path_; }      // as the user wrote it
  const std::string& option() const { return option_; }  // "--csv", "report.json", ...

 private:
  friend class Outputs;
  OutputFile(std::string option, std::string path) : option_(std::move(option)), path_(std::move(path)) {}
  void commit();
  void discard() noexcept;

  std::string option_, path_;
  Kind kind_ = Kind::atomic;
  std::string final_;  // the file renamed over (atomic: the symlink's target) or opened (through)
  std::string tmp_;    // atomic only
  int slot_ = -1;      // in the signal-safe table of temporary files
  // Identity for the "same file" check: the file's (device, inode), or its folder's and its
  // name when it does not exist yet.
  unsigned long long dev_ = 0, ino_ = 0;
  std::string name_;
  std::ofstream file_;
  bool opened_ = false, committed_ = false;
};

class Outputs {
 public:
  Outputs() = default;
  Outputs(const Outputs&) = delete;
  Outputs& operator=(const Outputs&) = delete;
  ~Outputs();  // discards every output not committed

  // Checks `path` for `option` against the rules above and the outputs added before; creates
  // its temporary file. `where` names the source in diagnostics ("<command line>" or the
  // scenario file). An empty path adds nothing and returns nullptr.
  OutputFile* add(const std::string& option, const std::string& path,
                  const std::string& where = loader::kCommandLine);
  // A file of a folder output (--vega DIR/ID.vl.json): as add(), but a symbolic link at `path`
  // is replaced by the file instead of having its target written.
  OutputFile* add_in_folder(const std::string& option, const std::string& path);
  // Refuses (InputError) any output added so far that is `folder` or lies in it: `folder` is
  // written by `option` alone (--deploy DIR with --json DIR/best.sh).
  void refuse_within(const std::string& option, const std::string& folder) const;
  // The option of an output added so far that writes `path` (whatever its spelling: compared
  // as canonical paths), or "" when none does.
  std::string written_as(const std::string& path) const;
  // Whether an output goes to stdout (the command then prints no text tables).
  bool stdout_taken() const;
  // Flushes every output and renames every temporary file over its path. Throws Cancelled
  // when cancellation was requested (nothing renamed), tessera::Error when a write failed.
  void commit_all();
  // Refuses (InputError) any output that is now a file this process has read as input
  // (core/text/inputs_read.hpp), for inputs read after the outputs were added; commit_all() calls it.
  void refuse_inputs_read() const;

 private:
  OutputFile* add_output(const std::string& option, const std::string& path, const std::string& where,
                         bool follow_links);
  std::vector<std::unique_ptr<OutputFile>> files_;
};

// Whether a written-through output (stdout, FIFO, device) has received content in this process.
bool partial_output_possible() noexcept;

// Removes every temporary output file not yet committed. Async-signal-safe (unlink only).
void remove_temporary_outputs_now() noexcept;

}  // namespace tessera::cli
