#pragma once
// Every byte of `bytes` written to descriptor `fd`, retried across EINTR and short writes;
// false when a write fails (errno says why). No allocation: safe in a signal handler.
#include <unistd.h>

#include <cerrno>
#include <string_view>

namespace tessera {

inline bool write_fully(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace tessera
