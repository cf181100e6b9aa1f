// rank 0's side of a study across MPI ranks (core/workers/mpi_job.hpp).
#include <algorithm>
#include <stdexcept>

#include "core/cancellation.hpp"
#include "core/checkpoint/byte_record.hpp"
#include "core/workers/mpi_messages.hpp"
#include "core/workers/mpi_units.hpp"
#include "core/workers/remote_plan.hpp"
#include "tessera/error.hpp"

namespace tessera::workers {

namespace {

// One computing rank in a plan.
struct RankState {
  unsigned slots = 0;              // units it computes at once
  std::vector<std::size_t> units;  // the plan's units it holds
};

// A plan in progress, and each unit's bytes until merged when they are sent on (codec.everywhere).
struct Plan : RemotePlan {
  using RemotePlan::RemotePlan;
  std::vector<std::string> outcome;
};

std::string gone_words(int rank, const std::string& payload) {
  const int status = payload.empty() ? 0 : static_cast<unsigned char>(payload[0]);
  std::string s = "MPI rank " + std::to_string(rank) + " ended its command (exit status " +
                  std::to_string(status) + ") before this plan, which rank 0 reached";
  if (payload.size() > 1) {
    std::string text = payload.substr(1);
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return s + "; it said: " + text;
  }
  return s + ": the study is not the same on every rank (a plugin that behaves differently from run to run?)";
}

// Every computing rank's `ready`: their plan's unit count (the same on each), each rank's slots.
std::uint64_t await_ready(std::vector<RankState>& states, std::vector<std::uint8_t>& gone) {
  std::uint64_t planned = 0;
  for (int r = 1; r < static_cast<int>(states.size()); ++r) {
    if (gone[r]) throw PluginError("MPI rank " + std::to_string(r) + " ended its command before this plan");
    RankMessage m;
    rank_wait(m, r);
    if (m.type == kRankGone) {
      gone[r] = 1;
      throw PluginError(gone_words(r, m.payload));
    }
    if (m.type != MessageType::ready)
      throw Error("the unit protocol: MPI rank " + std::to_string(r) + " is not at a plan");
    if (r > 1 && m.unit != planned)
      throw std::logic_error("the MPI ranks planned other studies (" + std::to_string(m.unit) + " and " +
                             std::to_string(planned) + " work units)");
    planned = m.unit;
    states[r].slots = static_cast<unsigned>(std::max(1L, std::atol(m.payload.c_str())));
  }
  return planned;
}

// What the computing ranks said since the last look: outcomes loaded through the codec, failures
// kept. Returns whether anything came.
bool receive_answers(Plan& plan, std::vector<RankState>& states, std::vector<std::uint8_t>& gone) {
  bool moved = false;
  for (RankMessage m; rank_poll(m); moved = true) {
    const int r = m.source;
    if (m.type == kRankGone) {
      gone[r] = 1;
      states[r].units.clear();
      plan.fail(0, std::make_exception_ptr(PluginError(gone_words(r, m.payload))));
      continue;
    }
    std::vector<std::size_t>& held = states[r].units;
    const std::size_t u = static_cast<std::size_t>(m.unit - plan.offset);
    const auto it = std::find(held.begin(), held.end(), u);
    if (m.unit < plan.offset || it == held.end() ||
        (m.type != MessageType::done && m.type != MessageType::failed))
      throw Error("the unit protocol: MPI rank " + std::to_string(r) + " answered a unit it was not given");
    held.erase(it);
    if (m.type == MessageType::failed) {
      plan.fail(u, failed_error(m.payload));
      continue;
    }
    try {
      ByteReader in(m.payload, "the outcome of work unit " + std::to_string(m.unit + 1));
      plan.codec.load(u, in);
      plan.done[u] = 1;
      if (plan.codec.everywhere) plan.outcome[u] = std::move(m.payload);
    } catch (...) {
      plan.fail(u, std::current_exception());
    }
  }
  return moved;
}

// Merges what is computed, in order (a plan merged everywhere: each unit's bytes sent on to every
// rank first).
void merge_in_order(Plan& plan, const Executor::MergeFn& merge, const std::vector<std::uint8_t>& gone) {
  while (!plan.error && plan.merged < plan.count && plan.done[plan.merged]) {
    try {
      if (plan.codec.everywhere) {
        for (int r = 1; r < static_cast<int>(gone.size()); ++r)
          if (!gone[r]) rank_send(r, kMergeUnit, plan.merged, plan.outcome[plan.merged]);
        std::string().swap(plan.outcome[plan.merged]);
      }
      merge(plan.merged);
    } catch (...) {
      plan.fail(plan.count, std::current_exception());
      return;
    }
    ++plan.merged;
  }
}

// The units this rank's threads finished (a plan merged everywhere: loaded from their bytes,
// which are kept to send on). Returns whether any did.
bool take_own(Plan& plan, UnitPool& own) {
  bool moved = false;
  for (FinishedUnit f; own.take(f); moved = true) {
    if (f.error) {
      plan.fail(f.unit, f.error);
      continue;
    }
    if (plan.codec.everywhere) {
      try {
        ByteReader in(f.outcome, "the outcome of work unit " + std::to_string(f.unit + 1));
        plan.codec.load(f.unit, in);
      } catch (...) {
        plan.fail(f.unit, std::current_exception());
        continue;
      }
      plan.outcome[f.unit] = std::move(f.outcome);
    }
    plan.done[f.unit] = 1;
  }
  return moved;
}

}  // namespace

void MpiExecutor::execute(std::size_t count, const ComputeFn& compute, const MergeFn& merge,
                          const UnitCodec& study_codec) {
  UnitCodec codec = study_codec;
  codec.everywhere = codec.everywhere || everywhere_;
  if (!codec) {  // a plan the other ranks do not take part in: computed here alone
    ThreadExecutor(threads_).execute(count, compute, merge);
    return;
  }
  const int ranks = mpi_ranks();
  gone_.resize(static_cast<std::size_t>(ranks), 0);
  // Every computing rank's plan: the same study's (this rank's plan may be the end of theirs:
  // a resumed checkpoint skips a prefix).
  std::vector<RankState> states(static_cast<std::size_t>(ranks));
  const std::uint64_t planned = await_ready(states, gone_);
  if (planned < count)
    throw std::logic_error("the MPI ranks planned another study (" + std::to_string(planned) +
                           " work units, rank 0 " + std::to_string(count) + ")");
  Plan plan(count, planned - count, planned, codec);
  if (codec.everywhere) {
    if (plan.offset != 0)
      throw std::logic_error("a plan merged on every rank cannot resume from a checkpoint's prefix");
    plan.outcome.resize(count);
  }
  std::size_t slots = 0;
  for (const RankState& s : states) slots += s.slots;
  // A plan merged everywhere: this rank's units saved too, their bytes sent on as they merge.
  UnitPool own(rank_slots(count, ranks, threads_), compute, codec.everywhere ? &codec : nullptr);
  // A computing rank holds twice the units it computes at once (the next one queued behind each:
  // it never waits a round trip for work); the units ahead of the merge cover that twice over.
  const std::size_t window = 4 * (slots + own.slots());
  auto pause = 20e-6;
  for (;;) {
    merge_in_order(plan, merge, gone_);
    // Units to the computing ranks first (their answers take longer), then to this rank's threads.
    // A unit queued behind each a rank computes while more than twice the job's slots are left;
    // at the plan's end none (a queued unit there would wait while another rank idles).
    const std::size_t depth = count - plan.next > 2 * (slots + own.slots()) ? 2 : 1;
    for (int r = 1; r < ranks; ++r)
      while (!plan.error && states[r].units.size() < depth * states[r].slots && plan.next < count &&
             plan.next < plan.merged + window) {
        rank_send(r, MessageType::unit, plan.offset + plan.next);
        states[r].units.push_back(plan.next++);
      }
    while (!plan.error && own.held() < own.slots() && plan.next < count && plan.next < plan.merged + window)
      own.push(plan.next++);
    const bool busy = own.held() > 0 || std::any_of(states.begin(), states.end(),
                                                    [](const RankState& s) { return !s.units.empty(); });
    if (plan.merged == count || (plan.error && !busy)) break;
    if (!plan.error) {
      try {
        throw_if_cancelled();
      } catch (...) {
        plan.fail(0, std::current_exception());
      }
    }
    bool moved = false;
    if (take_own(plan, own)) moved = true;
    if (receive_answers(plan, states, gone_)) moved = true;
    if (moved) {
      pause = 20e-6;
    } else {
      own.wait(pause);
      pause = std::min(pause * 2, kLongestPause);
    }
  }
  // `end` says whether the plan failed, and how: a rank that merges it too (codec.everywhere)
  // fails as this one does, rather than go on from a partial merge.
  const std::string failure = plan.error ? failed_payload(plan.error) : std::string();
  for (int r = 1; r < ranks; ++r)
    if (!gone_[r]) rank_send(r, MessageType::end, plan.error ? 1 : 0, failure);
  if (plan.error) std::rethrow_exception(plan.error);
}

}  // namespace tessera::workers
