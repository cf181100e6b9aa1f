#include "core/workers/mpi_job.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <list>
#include <thread>

#include "core/workers/mpi_messages.hpp"
#include "core/workers/mpi_units.hpp"
#include "tessera/error.hpp"

namespace tessera::workers {

namespace {

int g_rank = 0;
int g_ranks = 1;
bool g_joined = false;
bool g_owned = false;   // this code initialised MPI (and finalises it)
std::string g_failure;  // a computing rank's command failed: its status byte and message

// Messages sent and not yet delivered: sends never block (two ranks sending each other a large
// outcome at once would each wait for the other to receive), their bytes kept until MPI is done.
struct Outgoing {
  MPI_Request request = MPI_REQUEST_NULL;
  std::string body;
};
std::list<Outgoing> g_outbox;

void progress_sends() {
  for (auto it = g_outbox.begin(); it != g_outbox.end();) {
    int done = 0;
    MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
    it = done ? g_outbox.erase(it) : std::next(it);
  }
}

// Until every message sent is delivered (the receivers are polling), or, `cancel`, dropped.
void settle_sends(bool cancel) {
  for (Outgoing& o : g_outbox) {
    if (cancel) MPI_Cancel(&o.request);
    MPI_Wait(&o.request, MPI_STATUS_IGNORE);
  }
  g_outbox.clear();
}

// Whether an MPI launcher started this process (its environment names the job).
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
    if (std::getenv(v) != nullptr) return true;
  return false;
}

}  // namespace

bool mpi_built() { return true; }

std::string mpi_library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string s(text, static_cast<std::size_t>(std::max(0, length)));
  if (const std::size_t comma = s.find(','); comma != std::string::npos) s.resize(comma);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\0')) s.pop_back();
  return s;
}

int join_mpi_job() {
  if (g_joined || !launched_by_mpi()) return g_ranks;
  int initialised = 0;
  MPI_Initialized(&initialised);
  int provided = 0;
  if (!initialised && MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    throw Error(
        "MPI_Init_thread failed: this process was started by an MPI launcher but cannot join its job");
  g_owned = !initialised;
  g_joined = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_ranks);
  // A failed call ends the job with MPI's message (the default); a rank's death, mpirun reports.
  return g_ranks;
}

bool in_mpi_job() { return g_joined; }
int mpi_rank() {
  if (g_joined) return g_rank;
  for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (const char* r = std::getenv(v)) return std::max(0, std::atoi(r));
  return 0;
}
int mpi_ranks() { return g_ranks; }

std::unique_ptr<Executor> make_mpi_executor(unsigned threads, bool everywhere) {
  if (!g_joined || g_ranks < 2) return nullptr;
  const unsigned t = threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  if (g_rank == 0) return std::make_unique<MpiExecutor>(t, everywhere);
  return std::make_unique<MpiServer>(t, everywhere);
}

void mpi_rank_failed(int status, const std::string& text) {
  if (!g_joined || g_rank == 0) return;
  g_failure = std::string(1, static_cast<char>(status)) + text.substr(0, kGoneTextBytes);
}

int leave_mpi_job(int status) {
  if (!g_joined) return status;
  if (g_ranks > 1 && g_rank == 0) {
    for (int r = 1; r < g_ranks; ++r) rank_send(r, kJobStop, static_cast<std::uint64_t>(status));
  } else if (g_ranks > 1) {
    // Rank 0 may still be in a plan this rank's command never reached: it reads this and fails.
    rank_send(0, kRankGone, 0, g_failure.empty() ? std::string(1, static_cast<char>(status)) : g_failure);
    RankMessage m;
    do rank_wait(m, 0);
    while (m.type != kJobStop);
    status = static_cast<int>(m.unit);
  }
  settle_sends(false);
  if (g_owned) MPI_Finalize();
  g_joined = false;
  return status;
}

void stop_rank(int status) {
  std::fflush(nullptr);
  settle_sends(true);  // rank 0 has ended: nothing it was sent is read any more
  if (g_owned) MPI_Finalize();
  std::_Exit(status);
}

RankSlots rank_slots(std::size_t count, int ranks, unsigned threads) {
  const std::size_t share = (count + static_cast<std::size_t>(ranks) - 1) / static_cast<std::size_t>(ranks);
  RankSlots s;
  s.units = static_cast<unsigned>(std::clamp<std::size_t>(share, 1, threads));
  s.threads_per_unit = std::max(1u, threads / s.units);
  return s;
}

void rank_send(int to, MessageType type, std::uint64_t unit, std::string_view payload) {
  if (payload.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) - sizeof unit)
    throw Error("a work unit's outcome of " + std::to_string(payload.size()) +
                " bytes is more than one MPI message carries (2 GiB): make the units smaller");
  Outgoing& o = g_outbox.emplace_back();
  o.body.resize(sizeof unit + payload.size());
  std::memcpy(o.body.data(), &unit, sizeof unit);
  if (!payload.empty()) std::memcpy(o.body.data() + sizeof unit, payload.data(), payload.size());
  MPI_Isend(o.body.data(), static_cast<int>(o.body.size()), MPI_BYTE, to, static_cast<int>(type),
            MPI_COMM_WORLD, &o.request);
  progress_sends();
}

bool rank_poll(RankMessage& into, int from) {
  progress_sends();
  int arrived = 0;
  MPI_Status status;
  MPI_Iprobe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
  if (!arrived) return false;
  int bytes = 0;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  std::string body(static_cast<std::size_t>(std::max(0, bytes)), '\0');
  MPI_Recv(body.data(), bytes, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  if (body.size() < sizeof into.unit) throw Error("the unit protocol: a short message between MPI ranks");
  into.source = status.MPI_SOURCE;
  into.type = static_cast<MessageType>(status.MPI_TAG);
  std::memcpy(&into.unit, body.data(), sizeof into.unit);
  into.payload.assign(body, sizeof into.unit);
  return true;
}

void rank_wait(RankMessage& into, int from) {
  auto pause = std::chrono::microseconds(20);
  while (!rank_poll(into, from)) {
    std::this_thread::sleep_for(pause);
    pause = std::min<std::chrono::microseconds>(
        pause * 2, std::chrono::microseconds(static_cast<std::int64_t>(kLongestPause * 1e6)));
  }
}

}  // namespace tessera::workers
