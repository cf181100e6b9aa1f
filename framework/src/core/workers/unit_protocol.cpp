#include "core/workers/unit_protocol.hpp"

#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <stdexcept>

#include "tessera/error.hpp"

namespace tessera::workers {

namespace {

std::atomic_flag g_sending = ATOMIC_FLAG_INIT;  // send_message_exclusive's lock

// Exactly `n` bytes into `out`; false at the stream's end or on an error.
bool read_exactly(int fd, char* out, std::size_t n) {
  while (n > 0) {
    const ssize_t got = ::read(fd, out, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    out += got;
    n -= static_cast<std::size_t>(got);
  }
  return true;
}

// Every byte sent, retried across EINTR and short sends; MSG_NOSIGNAL: a closed other side is a
// false return, never a SIGPIPE that would end this process.
bool send_fully(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace

bool send_message(int fd, MessageType type, std::uint64_t unit, std::string_view payload) {
  const MessageHead head{kUnitMagic, type, unit, payload.size()};
  return send_fully(fd, std::string_view(reinterpret_cast<const char*>(&head), sizeof head)) &&
         send_fully(fd, payload);
}

bool send_message_exclusive(int fd, MessageType type, std::uint64_t unit, std::string_view payload,
                            double wait_s) {
  const timespec pause{0, 1'000'000};  // 1 ms
  for (double waited = 0; g_sending.test_and_set(std::memory_order_acquire); waited += 1e-3) {
    if (wait_s >= 0 && waited >= wait_s) return false;
    ::nanosleep(&pause, nullptr);
  }
  const bool sent = send_message(fd, type, unit, payload);
  g_sending.clear(std::memory_order_release);
  return sent;
}

bool receive_message(int fd, Message& into) {
  MessageHead head;
  if (!read_exactly(fd, reinterpret_cast<char*>(&head), sizeof head)) return false;
  if (head.magic != kUnitMagic || head.length > kMaxPayloadBytes || head.type < MessageType::ready ||
      head.type > MessageType::finished)
    throw std::runtime_error(
        "the unit protocol: a message head that is not one (a worker of another build?)");
  into.type = head.type;
  into.unit = head.unit;
  into.payload.resize(static_cast<std::size_t>(head.length));
  return read_exactly(fd, into.payload.data(), into.payload.size());
}

std::optional<Message> receive_message(int fd) {
  Message m;
  if (!receive_message(fd, m)) return std::nullopt;
  return m;
}

std::string failed_payload(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const InputError& x) {
    return std::string("\2") + x.what();
  } catch (const std::exception& x) {
    return std::string("\1") + x.what();
  } catch (...) {
    return std::string("\1") + "an exception that is not a std::exception";
  }
}

std::string failed_text(const std::string& payload) {
  std::string text = payload.size() > 1 ? payload.substr(1, payload.find('\0') - 1) : std::string();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::exception_ptr failed_error(const std::string& payload) {
  std::string text = failed_text(payload);
  if (text.empty()) text = "a unit failed";
  if (!payload.empty() && payload[0] == '\2') return std::make_exception_ptr(InputError(text));
  return std::make_exception_ptr(PluginError(text));
}

}  // namespace tessera::workers
