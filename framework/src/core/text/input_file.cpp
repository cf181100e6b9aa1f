#include "core/text/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/text/inputs_read.hpp"
#include "tessera/error.hpp"
#include "tessera/limits.hpp"

namespace tessera {
namespace {

std::string kind_of(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO (named pipe)";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

std::string problem_of(const struct stat& st) {
  if (!S_ISREG(st.st_mode)) return "is " + kind_of(st.st_mode) + "; inputs must be regular files";
  const auto max = current_limits().file_bytes;
  if (static_cast<unsigned long long>(st.st_size) > max)
    return "is " + std::to_string(st.st_size) + " bytes, which " + limit_exceeded("file.bytes");
  return "";
}

}  // namespace

std::string input_file_problem(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return "no such file";
    return std::string("cannot read the file: ") + std::strerror(errno);
  }
  return problem_of(st);
}

std::string read_input_file(const std::string& path, const std::string& what) {
  // stat first: opening a FIFO for reading would block until a writer appears.
  const std::string before = input_file_problem(path);
  if (before == "no such file") throw InputError(path + ": " + what + " does not exist");
  if (before.rfind("cannot", 0) == 0) throw InputError(path + ": " + what + ": " + before);
  if (!before.empty()) throw InputError(path + ": " + what + " " + before);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw InputError(path + ": cannot read the " + what + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !problem_of(st).empty()) {  // replaced between stat and open
    const std::string why = problem_of(st);
    ::close(fd);
    throw InputError(path + ": " + what + " " + (why.empty() ? std::string("cannot be examined") : why));
  }
  note_input_read(st.st_dev, st.st_ino, path, what);  // no output may replace it (core/text/inputs_read.hpp)
  const auto max = current_limits().file_bytes;
  std::string text;
  text.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  for (;;) {
    if (got == text.size()) {
      if (text.size() >= max) {  // grew while being read
        char probe;
        const ssize_t more = ::read(fd, &probe, 1);
        if (more > 0) {
          ::close(fd);
          throw InputError(path + ": " + what + " grew while being read and " + limit_exceeded("file.bytes"));
        }
        break;
      }
      text.resize(std::min<std::size_t>(max, text.size() + 65536));
    }
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string err = std::strerror(errno);
      ::close(fd);
      throw Error(path + ": cannot read the " + what + ": " + err);
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  text.resize(got);
  return text;
}

}  // namespace tessera
