#include "core/checkpoint/checkpointed_plan.hpp"

#include "core/cancellation.hpp"

namespace tessera {

void execute_checkpointed(Executor& executor, StudyCheckpoint* checkpoint, std::size_t count,
                          const Executor::ComputeFn& compute, const Executor::MergeFn& merge,
                          const CheckpointHooks& hooks, const UnitCodec& codec) {
  if (!checkpoint) {
    executor.execute(count, compute, merge, codec);
    return;
  }
  const std::size_t first = static_cast<std::size_t>(checkpoint->restore(count, hooks.replay));
  if (first > 0) {
    ByteReader state = checkpoint->state();
    hooks.load(state);
  }
  std::size_t merged = first, recorded = first;
  const auto write = [&] {
    ByteWriter state;
    hooks.save(state);
    checkpoint->record(merged, count, hooks.rows ? std::string_view(hooks.rows->bytes()) : std::string_view(),
                       state.bytes());
    if (hooks.rows) hooks.rows->clear();
    recorded = merged;
  };
  UnitCodec shifted;  // the executor's unit u is the plan's first + u
  if (codec)
    shifted = {.save = [&](std::size_t u, ByteWriter& w) { codec.save(first + u, w); },
               .load = [&](std::size_t u, ByteReader& r) { codec.load(first + u, r); },
               .describe = codec.describe ? std::function<std::string(std::size_t)>(
                                                [&](std::size_t u) { return codec.describe(first + u); })
                                          : nullptr};
  bool in_merge = false;
  try {
    executor.execute(
        count - first, [&](std::size_t unit, const UnitSlot& slot) { compute(first + unit, slot); },
        [&](std::size_t unit) {
          in_merge = true;
          merge(first + unit);
          in_merge = false;
          merged = first + unit + 1;
          if (merged == count || checkpoint->due() ||
              (hooks.rows && hooks.rows->bytes().size() > kCheckpointRowBytes))
            write();
        },
        shifted);
  } catch (const Cancelled&) {
    // Stopped between two merges: what is merged is recorded, so that resuming loses nothing.
    if (!in_merge && merged > recorded) write();
    throw;
  }
  if (count == 0) write();  // an empty plan: recorded as done
}

}  // namespace tessera
