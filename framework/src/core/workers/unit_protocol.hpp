#pragma once
// The unit protocol (docs/architecture.md "Isolated workers"): what a study's parent and a worker
// process running the same study say to each other over one stream socket. Every message is a
// head - kUnitMagic, its type, a unit number, the payload's length - and the payload. The worker
// says `prepared` once its study has made the plugin calls of its setup (creating them; the
// parent makes them only then), `ready` (unit = the plan's unit count) when its study reaches
// its plan, then answers each `unit` with `done` (the unit's outcome, as the study's UnitCodec
// wrote it) or `failed` (an error, as text); `end` ends a plan; `call` (sent from a worker's
// fatal-signal or exit handler) names the plugin call the worker was in when it died. A worker
// that runs a whole study (a study without unit codecs) says `progress` as its work units finish,
// `temp` for each temporary output it creates or commits, and `finished` with its exit status.
// The MPI executor speaks the same messages, as MPI tags (mpi_messages.hpp).
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "tessera/export.hpp"

namespace tessera::workers {

inline constexpr std::uint32_t kUnitMagic = 0x57555354;  // "TSUW"

enum class MessageType : std::uint32_t {
  ready = 1,     // worker: my plan has `unit` units
  unit = 2,      // parent: compute unit `unit`
  done = 3,      // worker: unit `unit` computed; payload: its outcome
  failed = 4,    // worker: unit `unit` failed; payload: the status byte (1 run error, 2 input error), text
                 // (a whole study's: then NUL and its exception as bytes, studies/worker_error.hpp)
  end = 5,       // parent: the plan is over (the worker's study goes on to its next plan)
  call = 6,      // worker, from its crash handler: payload: the plugin call it was in
  prepared = 7,  // worker: the plugin calls of the study's setup are made (`ready` implies it)
  // A worker running a whole study (ProcessExecutor::run_whole):
  // worker: its plugin calls move - none in progress, or one entered since the last (a heartbeat,
  // four times a second; no payload) - or its study's progress ("DONE TOTAL PHASE", at most ten
  // times a second and at each phase's end)
  progress = 8,
  temp = 9,       // worker: payload '+' or '-' then a path: a temporary output created, or gone
  finished = 10,  // worker: its command finished; unit = its exit status (its results are written)
};

struct MessageHead {
  std::uint32_t magic = kUnitMagic;
  MessageType type = MessageType::unit;
  std::uint64_t unit = 0;
  std::uint64_t length = 0;
};

struct Message {
  MessageType type = MessageType::unit;
  std::uint64_t unit = 0;
  std::string payload;
};

// The unit of a `failed` message that is about no unit (the command failed before or after its plans).
inline constexpr std::uint64_t kNoUnit = ~std::uint64_t{0};

// The largest payload a message may carry (a unit's outcome): 4 GiB.
inline constexpr std::uint64_t kMaxPayloadBytes = std::uint64_t{1} << 32;

// Writes one message; false when the socket is closed or the write fails. Without allocation
// (a head and the payload written in turn): usable from a signal handler.
TESSERA_API bool send_message(int fd, MessageType type, std::uint64_t unit, std::string_view payload = {});

// The same under a process-wide lock, for a socket several threads write (a whole study's
// worker: its progress and temporary outputs, its crash handler's `call`). `wait_s` < 0 waits
// for the lock; a signal handler waits that long at most, then gives up (false) rather than
// interleave its message with another thread's. Usable from a signal handler.
TESSERA_API bool send_message_exclusive(int fd, MessageType type, std::uint64_t unit,
                                        std::string_view payload = {}, double wait_s = -1);

// A unit's `failed` payload: its status byte (2: an InputError, 1: anything else), its message.
TESSERA_API std::string failed_payload(const std::exception_ptr& e);
// A `failed` payload's text (after its status byte, up to a NUL), without trailing newlines.
TESSERA_API std::string failed_text(const std::string& payload);
// The error a unit's `failed` payload describes, as the same kind (InputError or PluginError).
TESSERA_API std::exception_ptr failed_error(const std::string& payload);

// Reads one message: nullopt at the stream's end (the other side closed or died, also in the
// middle of a message). A head that is not a message's throws std::runtime_error.
TESSERA_API std::optional<Message> receive_message(int fd);
// The same into `into` (its payload's buffer reused): false at the stream's end.
TESSERA_API bool receive_message(int fd, Message& into);

}  // namespace tessera::workers
