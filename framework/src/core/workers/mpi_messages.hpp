#pragma once
// The unit protocol's messages between MPI ranks (core/workers/mpi_job.hpp): the message type is
// the MPI tag, the body the unit number (8 bytes) and the payload. Only the thread that joined
// the job calls these (MPI_THREAD_FUNNELED). Internal to the MPI sources.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "core/workers/unit_protocol.hpp"

namespace tessera::workers {

// Besides the unit protocol's types: a computing rank's command ended (payload: its exit status
// byte, then its message, at most kGoneTextBytes), and rank 0's end (unit: its exit status).
inline constexpr MessageType kRankGone = static_cast<MessageType>(11);
inline constexpr MessageType kJobStop = static_cast<MessageType>(12);
// rank 0, in a plan whose codec says `everywhere`: unit `unit`'s outcome, to be merged there too
// (sent in plan order, as rank 0 merges it).
inline constexpr MessageType kMergeUnit = static_cast<MessageType>(13);
inline constexpr std::size_t kGoneTextBytes = 1024;

// The longest a rank sleeps between two polls while a plan runs (from 20 us, doubling while
// nothing moves): a message waits at most this long to be read; an idle rank polls 4,000 times
// a second, about a microsecond each.
inline constexpr double kLongestPause = 250e-6;

struct RankMessage {
  int source = -1;
  MessageType type = MessageType::unit;
  std::uint64_t unit = 0;
  std::string payload;
};

// Sends one message without waiting for it to be received (its bytes kept until delivered;
// rank_poll moves them on). Throws Error on a payload MPI cannot carry in one message (2 GiB).
void rank_send(int to, MessageType type, std::uint64_t unit, std::string_view payload = {});
// Receives the next message from `from` (MPI_ANY_SOURCE: any rank) when one has arrived; false
// when none has (never blocks).
bool rank_poll(RankMessage& into, int from = MPI_ANY_SOURCE);
// Waits for the next message from `from`, sleeping between polls (an idle rank leaves its core
// to the ranks computing beside it).
void rank_wait(RankMessage& into, int from = MPI_ANY_SOURCE);

}  // namespace tessera::workers
