#include "output_files.hpp"

#include "studies/plugin_isolation.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "core/cancellation.hpp"
#include "core/text/inputs_read.hpp"
#include "result_stream.hpp"
#include "tessera/error.hpp"

namespace fs = std::filesystem;

namespace tessera::cli {

namespace {

// The temporary files not yet committed, readable from a signal handler: fixed storage, a
// path is published by setting `used` after it is written.
struct TmpSlot {
  std::atomic<bool> used{false};
  char path[PATH_MAX] = {};
};
std::array<TmpSlot, 256> g_tmp_slots;  // --vega and --deploy write a file per chart or script
bool g_through_written = false;

int register_tmp(const std::string& path) {
  if (path.size() >= PATH_MAX) return -1;
  for (std::size_t i = 0; i < g_tmp_slots.size(); ++i) {
    TmpSlot& s = g_tmp_slots[i];
    if (s.used.load()) continue;
    std::memcpy(s.path, path.c_str(), path.size() + 1);
    s.used.store(true);
    studies::worker_temp_output(s.path, true);  // a worker's parent removes it if the worker dies
    return static_cast<int>(i);
  }
  return -1;
}

void unregister_tmp(int slot) {
  if (slot < 0) return;
  TmpSlot& s = g_tmp_slots[static_cast<std::size_t>(slot)];
  studies::worker_temp_output(s.path, false);
  s.used.store(false);
}

[[noreturn]] void refuse(const std::string& where, const std::string& option, const std::string& path,
                         const std::string& what) {
  throw InputErrors({Diagnostic{SourceLocation{where, 0, 0}, option + " " + path + ": " + what}});
}

bool names_stdout(const std::string& p) {
  return p == "-" || p == "/dev/stdout" || p == "/dev/fd/1" || p == "/proc/self/fd/1";
}

// The path with every symlink followed (a dangling link gives its missing target).
struct Resolved {
  std::string path;
  bool exists = false;
  struct stat st {};
};

Resolved resolve(const std::string& where, const std::string& option, const std::string& path) {
  Resolved r;
  r.path = path;
  for (int hop = 0; hop < 40; ++hop) {
    if (::lstat(r.path.c_str(), &r.st) != 0) {
      if (errno == ENOENT) return r;
      if (errno == ENOTDIR)
        refuse(where, option, path, "'" + fs::path(r.path).parent_path().string() + "' is not a folder");
      refuse(where, option, path, std::strerror(errno));
    }
    if (!S_ISLNK(r.st.st_mode)) {
      r.exists = true;
      return r;
    }
    std::error_code ec;
    fs::path target = fs::read_symlink(r.path, ec);
    if (ec) refuse(where, option, path, "cannot read the symbolic link: " + ec.message());
    if (target.is_relative()) target = fs::path(r.path).parent_path() / target;
    r.path = target.string();
  }
  refuse(where, option, path, "too many levels of symbolic links");
}

mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

// An output whose file is one of the command's inputs: refused, whatever the spelling.
void refuse_if_input(const std::string& where, const std::string& option, const std::string& path,
                     const struct stat& st) {
  if (const auto in = input_read_as(st.st_dev, st.st_ino))
    refuse(where, option, path,
           "is the command's input " + in->path + " (" + in->what +
               "): an output cannot be one of the command's inputs");
}

}  // namespace

bool partial_output_possible() noexcept { return g_through_written; }

void remove_temporary_outputs_now() noexcept {
  for (TmpSlot& s : g_tmp_slots)
    if (s.used.load()) ::unlink(s.path);
}

OutputFile::~OutputFile() { discard(); }

std::ostream& OutputFile::stream() {
  opened_ = true;
  if (kind_ != Kind::atomic) g_through_written = true;
  if (kind_ == Kind::standard_output) return std::cout;
  if (kind_ == Kind::through && !file_.is_open()) {
    file_.open(final_, std::ios::binary | std::ios::out);
    if (!file_) throw Error("cannot open '" + path_ + "' for writing (" + option_ + ")");
  }
  return file_;
}

void OutputFile::commit() {
  if (committed_) return;
  if (kind_ == Kind::standard_output) {
    std::cout.flush();
    if (!std::cout) throw Error("cannot write to stdout (" + option_ + ")");
  } else if (kind_ == Kind::through) {
    if (file_.is_open()) {
      file_.flush();
      if (!file_) throw Error("cannot write '" + path_ + "' (" + option_ + "): write failed");
      file_.close();
    }
  } else {
    file_.flush();
    if (!file_) throw Error("cannot write '" + tmp_ + "' (for " + path_ + "): write failed");
    file_.close();
    if (!file_) throw Error("cannot write '" + tmp_ + "' (for " + path_ + "): close failed");
  }
}

void OutputFile::discard() noexcept {
  if (tmp_.empty() || committed_) return;
  if (file_.is_open()) file_.close();
  unregister_tmp(slot_);
  slot_ = -1;
  ::unlink(tmp_.c_str());
  tmp_.clear();
}

Outputs::~Outputs() {
  for (auto& f : files_) f->discard();
}

OutputFile* Outputs::add(const std::string& option, const std::string& path, const std::string& where) {
  return add_output(option, path, where, true);
}

OutputFile* Outputs::add_in_folder(const std::string& option, const std::string& path) {
  return add_output(option, path, loader::kCommandLine, false);
}

void Outputs::refuse_within(const std::string& option, const std::string& folder) const {
  std::error_code ec;
  const fs::path dir = fs::weakly_canonical(fs::absolute(folder, ec), ec);
  if (ec) return;
  for (const auto& f : files_) {
    if (f->kind_ == OutputFile::Kind::standard_output) continue;
    const fs::path p = fs::weakly_canonical(fs::absolute(f->final_, ec), ec);
    if (ec) continue;
    const auto rel = p.lexically_relative(dir);
    if (!rel.empty() && *rel.begin() != "..")
      refuse(loader::kCommandLine, f->option_, f->path_,
             (p == dir ? "is the " : "lies in the ") + option + " folder " + folder + " (" + option +
                 " writes that folder alone; give the two different places)");
  }
}

std::string Outputs::written_as(const std::string& path) const {
  std::error_code ec;
  const fs::path want = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) return {};
  for (const auto& f : files_) {
    if (f->kind_ == OutputFile::Kind::standard_output) continue;
    const fs::path p = fs::weakly_canonical(fs::absolute(f->final_.empty() ? f->path_ : f->final_, ec), ec);
    if (!ec && p == want) return f->option_ + " " + f->path_;
  }
  return {};
}

OutputFile* Outputs::add_output(const std::string& option, const std::string& path, const std::string& where,
                                bool follow_links) {
  if (path.empty()) return nullptr;
  auto file = std::unique_ptr<OutputFile>(new OutputFile(option, path));
  OutputFile& f = *file;
  if (studies::is_unit_worker()) {
    // A worker process's outputs are its parent's to write (studies/plugin_isolation.hpp): its
    // own go nowhere and leave no file.
    f.kind_ = OutputFile::Kind::through;
    f.final_ = "/dev/null";
    files_.push_back(std::move(file));
    return &f;
  }
  // Identity for the "same file" check: (device, inode) of the file, or of its folder plus
  // its name when it does not exist yet.
  unsigned long long dev = 0;
  unsigned long long ino = 0;
  std::string name;
  struct stat out_st {};
  const bool stdout_known = ::fstat(result_fd(), &out_st) == 0;
  struct stat path_st {};
  if (names_stdout(path) || (stdout_known && ::stat(path.c_str(), &path_st) == 0 &&
                             path_st.st_dev == out_st.st_dev && path_st.st_ino == out_st.st_ino)) {
    f.kind_ = OutputFile::Kind::standard_output;
  } else {
    // In a folder an output writes (--vega DIR, --png DIR, --deploy DIR), a name is replaced
    // itself: a symbolic link planted there is replaced, never followed out of the folder.
    Resolved r;
    if (follow_links) {
      r = resolve(where, option, path);
    } else {
      r.path = path;
      if (::lstat(path.c_str(), &r.st) == 0) {
        r.exists = true;
        if (S_ISLNK(r.st.st_mode)) {
          r.exists = false;  // replaced by a new regular file (the link's target untouched)
          r.st = {};
        }
      } else if (errno != ENOENT) {
        refuse(where, option, path, std::strerror(errno));
      }
    }
    f.final_ = r.path;
    if (r.exists && S_ISREG(r.st.st_mode)) refuse_if_input(where, option, path, r.st);
    if (r.exists && S_ISDIR(r.st.st_mode)) refuse(where, option, path, "is a folder");
    if (r.exists && !S_ISREG(r.st.st_mode)) {
      // FIFO, character device, socket...: written through, never replaced.
      if (!S_ISFIFO(r.st.st_mode) && !S_ISCHR(r.st.st_mode))
        refuse(where, option, path, "is neither a regular file, a FIFO nor a character device");
      if (::access(r.path.c_str(), W_OK) != 0) refuse(where, option, path, std::strerror(errno));
      f.kind_ = OutputFile::Kind::through;
      dev = r.st.st_dev;
      ino = r.st.st_ino;
    } else {
      fs::path folder = fs::path(r.path).parent_path();
      if (folder.empty()) folder = ".";
      struct stat dir_st {};
      if (::stat(folder.c_str(), &dir_st) != 0)
        refuse(where, option, path,
               "the folder '" + folder.string() + "' does not exist (outputs do not create folders)");
      if (!S_ISDIR(dir_st.st_mode)) refuse(where, option, path, "'" + folder.string() + "' is not a folder");
      if (r.exists) {
        dev = r.st.st_dev;
        ino = r.st.st_ino;
      } else {
        dev = dir_st.st_dev;
        ino = dir_st.st_ino;
        name = fs::path(r.path).filename().string();
      }
      f.kind_ = OutputFile::Kind::atomic;
      std::string tmpl = r.path + ".tmp.XXXXXX";
      const int fd = ::mkstemp(tmpl.data());
      if (fd < 0)
        refuse(where, option, path,
               "cannot create a file in the folder '" + folder.string() + "': " + std::strerror(errno));
      ::fchmod(fd, r.exists ? (r.st.st_mode & 07777) : new_file_mode());
      ::close(fd);
      f.tmp_ = tmpl;
      f.slot_ = register_tmp(tmpl);
      f.file_.open(tmpl, std::ios::binary | std::ios::out | std::ios::trunc);
      if (!f.file_) {
        f.discard();
        refuse(where, option, path, "cannot write '" + tmpl + "'");
      }
    }
  }
  for (const auto& other : files_) {
    const bool both_stdout =
        f.kind_ == OutputFile::Kind::standard_output && other->kind_ == OutputFile::Kind::standard_output;
    if (both_stdout)
      refuse(where, option, path,
             "only one output can go to stdout, and " + other->option_ + " already does");
    if (f.kind_ == OutputFile::Kind::standard_output || other->kind_ == OutputFile::Kind::standard_output)
      continue;
    if (other->dev_ == dev && other->ino_ == ino && other->name_ == name)
      refuse(where, option, path, "names the same file as " + other->option_ + " " + other->path_);
  }
  f.dev_ = dev;
  f.ino_ = ino;
  f.name_ = name;
  files_.push_back(std::move(file));
  return &f;
}

void Outputs::refuse_inputs_read() const {
  for (const auto& f : files_) {
    struct stat st {};
    if (f->kind_ == OutputFile::Kind::atomic && ::stat(f->final_.c_str(), &st) == 0 && S_ISREG(st.st_mode))
      refuse_if_input(loader::kCommandLine, f->option_, f->path_, st);
  }
}

bool Outputs::stdout_taken() const {
  for (const auto& f : files_)
    if (f->kind_ == OutputFile::Kind::standard_output) return true;
  return false;
}

void Outputs::commit_all() {
  throw_if_cancelled();
  refuse_inputs_read();  // an input the study itself read after its output was added
  // Every write checked first, so that a failure leaves every final path as it was.
  for (auto& f : files_) f->commit();
  for (auto& f : files_) {
    if (f->kind_ != OutputFile::Kind::atomic || f->committed_) continue;
    std::error_code ec;
    fs::rename(f->tmp_, f->final_, ec);
    if (ec) throw Error("cannot rename '" + f->tmp_ + "' to '" + f->final_ + "': " + ec.message());
    unregister_tmp(f->slot_);
    f->slot_ = -1;
    f->committed_ = true;
  }
}

}  // namespace tessera::cli
