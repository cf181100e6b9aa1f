#pragma once
// A study's plan run through its checkpoint (core/checkpoint/study_checkpoint.hpp): the units
// the checkpoint records as merged are skipped (their merged state restored, the rows they
// streamed streamed again), the others computed by the executor and merged in plan order, and a
// record appended when one is due, when the streamed rows pass kCheckpointRowBytes, after the
// last unit, and when the study is cancelled (Ctrl-C, SIGTERM) between two merges.
#include <cstddef>
#include <functional>

#include "core/checkpoint/byte_record.hpp"
#include "core/checkpoint/study_checkpoint.hpp"
#include "core/executor.hpp"
#include "tessera/export.hpp"

namespace tessera {

// Rows streamed since the last record past which a record is written (the memory they hold).
inline constexpr std::size_t kCheckpointRowBytes = std::size_t{16} << 20;

// What a study gives its checkpoint.
struct CheckpointHooks {
  std::function<void(ByteWriter&)> save;    // the merged state of the units merged so far
  std::function<void(ByteReader&)> load;    // that state restored (before any unit is computed)
  std::function<void(ByteReader&)> replay;  // a record's rows streamed again (null: no rows)
  ByteWriter* rows = nullptr;               // where the study appends the rows it streams (or null)
};

// executor.execute over [0, count) when `checkpoint` is null; otherwise the units after those
// it records, with the records written as above. `codec` goes to the executor (its units'
// numbers those of the whole plan).
TESSERA_API void execute_checkpointed(Executor& executor, StudyCheckpoint* checkpoint, std::size_t count,
                                      const Executor::ComputeFn& compute, const Executor::MergeFn& merge,
                                      const CheckpointHooks& hooks, const UnitCodec& codec = {});

}  // namespace tessera
