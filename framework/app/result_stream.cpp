#include "result_stream.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <streambuf>
#include <string>
#include <thread>

#include "core/fd_write.hpp"

namespace tessera::cli {
namespace {

int g_result_fd = 1;
// On the heap, never destroyed: a process forked from this one (the plugin load probe) that
// calls exit() runs static destructors, and a joinable std::thread's would terminate it.
std::thread* g_forwarder = nullptr;

// std::cout's buffer onto a raw descriptor; a failed write sets the stream's badbit (the
// command then reports that the results could not be written, exit 1).
class FdBuffer final : public std::streambuf {
 public:
  explicit FdBuffer(int fd) : fd_(fd) { setp(buf_, buf_ + sizeof buf_); }
  ~FdBuffer() override { flush(); }

 protected:
  int_type overflow(int_type c) override {
    if (!flush()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return flush() ? 0 : -1; }

 private:
  bool flush() {
    const bool ok = write_fully(fd_, std::string_view(pbase(), static_cast<std::size_t>(pptr() - pbase())));
    setp(buf_, buf_ + sizeof buf_);
    return ok;
  }
  int fd_;
  char buf_[1 << 14];
};

FdBuffer* g_buffer = nullptr;
std::streambuf* g_original = nullptr;  // std::cout's own buffer, put back at the end

// Lines from the pipe to stderr, each marked; a last line without its newline ends one.
void forward(int from) {
  std::string line;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(from, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      line += buf[i];
      if (buf[i] == '\n') {
        write_fully(2, "tessera: plugin stdout: " + line);
        line.clear();
      }
    }
  }
  if (!line.empty()) write_fully(2, "tessera: plugin stdout: " + line + "\n");
  ::close(from);
}

}  // namespace

void separate_result_stream() {
  const int kept = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
  if (kept < 0) return;  // standard output closed: nothing to keep apart
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    ::close(kept);
    return;
  }
  if (::dup2(fds[1], 1) < 0) {
    ::close(kept);
    ::close(fds[0]);
    ::close(fds[1]);
    return;
  }
  ::close(fds[1]);
  g_result_fd = kept;
  g_buffer = new FdBuffer(kept);
  g_original = std::cout.rdbuf(g_buffer);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a plugin's printf lines pass promptly
  g_forwarder = new std::thread(forward, fds[0]);
}

int result_fd() { return g_result_fd; }

void discard_results() {
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null < 0) return;
  ::dup2(null, g_result_fd);
  ::close(null);
}

void finish_result_stream() {
  std::cout.flush();
  if (g_forwarder == nullptr) return;
  std::fflush(stdout);
  // Descriptor 1 onto /dev/null: the pipe's last writer gone, the forwarder sees its end.
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null >= 0) {
    ::dup2(null, 1);
    ::close(null);
  } else {
    ::close(1);
  }
  g_forwarder->join();
  delete g_forwarder;
  g_forwarder = nullptr;
  // std::cout back on its own buffer (onto /dev/null now), so that nothing after this writes
  // through a deleted one.
  std::cout.rdbuf(g_original);
  delete g_buffer;
  g_buffer = nullptr;
}

}  // namespace tessera::cli
