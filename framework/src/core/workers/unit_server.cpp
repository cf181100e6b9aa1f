#include "core/workers/unit_server.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>

#include "core/workers/unit_protocol.hpp"
#include "tessera/error.hpp"

namespace tessera::workers {

namespace {

// The parent is gone (its socket closed): nothing is left to do.
[[noreturn]] void parent_gone() {
  std::fflush(nullptr);
  std::_Exit(0);
}

void send_or_leave(int fd, MessageType type, std::uint64_t unit, std::string_view payload = {}) {
  if (!send_message(fd, type, unit, payload)) parent_gone();
}

}  // namespace

void UnitServer::prepared() {
  if (prepared_) return;
  prepared_ = true;
  send_or_leave(fd_, MessageType::prepared, 0);
}

void UnitServer::report_failure(int status, const std::string& text) {
  send_message(fd_, MessageType::failed, kNoUnit, std::string(1, static_cast<char>(status)) + text);
}

void UnitServer::execute(std::size_t count, const ComputeFn& compute, const MergeFn&,
                         const UnitCodec& codec) {
  if (!codec) throw std::logic_error("a study without a unit codec cannot run in a worker process");
  prepared_ = true;
  send_or_leave(fd_, MessageType::ready, count);
  for (;;) {
    const std::optional<Message> m = receive_message(fd_);
    if (!m) parent_gone();
    if (m->type == MessageType::end) return;
    if (m->type != MessageType::unit || m->unit >= count)
      throw std::runtime_error("the unit protocol: an unexpected message from the parent");
    const std::size_t u = static_cast<std::size_t>(m->unit);
    std::exception_ptr failed;
    outcome_.clear();
    try {
      compute(u, UnitSlot{0, 1});
      codec.save(u, outcome_);
    } catch (...) {
      failed = std::current_exception();
    }
    if (failed)
      send_or_leave(fd_, MessageType::failed, u, failed_payload(failed));
    else
      send_or_leave(fd_, MessageType::done, u, outcome_.bytes());
  }
}

}  // namespace tessera::workers
