// A computing rank's side of a study across MPI ranks (core/workers/mpi_job.hpp).
#include <algorithm>
#include <stdexcept>

#include "core/checkpoint/byte_record.hpp"
#include "core/workers/mpi_messages.hpp"
#include "core/workers/mpi_units.hpp"
#include "tessera/error.hpp"

namespace tessera::workers {

void MpiServer::execute(std::size_t count, const ComputeFn& compute, const MergeFn& merge,
                        const UnitCodec& study_codec) {
  // A plan without a codec rank 0 computes alone; where every rank ends with the results, each.
  if (!study_codec) {
    if (everywhere_) ThreadExecutor(threads_).execute(count, compute, merge);
    return;
  }
  UnitCodec codec = study_codec;
  codec.everywhere = codec.everywhere || everywhere_;
  const RankSlots slots = rank_slots(count, mpi_ranks(), threads_);
  rank_send(0, MessageType::ready, count, std::to_string(slots.units));
  UnitPool pool(slots, compute, &codec);
  bool ended = false;
  std::string failure;     // rank 0's `end` of a failed plan: its error
  std::size_t merged = 0;  // codec.everywhere: the units rank 0 sent on, merged here in order
  auto pause = 20e-6;
  for (;;) {
    bool moved = false;
    for (FinishedUnit f; pool.take(f); moved = true) {
      if (f.error)
        rank_send(0, MessageType::failed, f.unit, failed_payload(f.error));
      else
        rank_send(0, MessageType::done, f.unit, f.outcome);
    }
    if (ended && pool.held() == 0) {
      if (!failure.empty()) std::rethrow_exception(failed_error(failure));
      return;
    }
    RankMessage m;
    if (rank_poll(m, 0)) {
      moved = true;
      if (m.type == kJobStop) stop_rank(static_cast<int>(m.unit));
      if (m.type == MessageType::end) {
        ended = true;
        if (m.unit != 0)
          failure = m.payload.empty() ? std::string("\1the plan failed on MPI rank 0") : m.payload;
      } else if (m.type == kMergeUnit && codec.everywhere && m.unit == merged && m.unit < count) {
        ByteReader in(m.payload, "the outcome of work unit " + std::to_string(m.unit + 1));
        codec.load(merged, in);
        merge(merged++);
      } else if (m.type == MessageType::unit && m.unit < count) {
        pool.push(static_cast<std::size_t>(m.unit));
      } else {
        throw std::runtime_error("the unit protocol: an unexpected message from MPI rank 0");
      }
    }
    if (moved) {
      pause = 20e-6;
    } else {
      pool.wait(pause);
      pause = std::min(pause * 2, kLongestPause);
    }
  }
}

}  // namespace tessera::workers
