#pragma once
// A study across the ranks of an MPI job (docs/architecture.md "Across MPI ranks"; docs/mpi.md).
// Started as `mpirun -np N tessera STUDY ...` or `srun tessera STUDY ...`, every rank runs the
// same command; rank 0 plans, hands out the work units of each plan that has a UnitCodec to the
// ranks as they free up (dynamic balance: units differ in cost), computes units on its own
// threads too, and merges every outcome in plan order, as ThreadExecutor does: its outputs are
// the one-process run's, byte for byte, for any rank count. The other ranks are quiet: they
// compute the units rank 0 names on their threads and send each outcome back through the codec
// (the unit protocol's messages, core/workers/unit_protocol.hpp, as MPI tags); a plan without
// a codec rank 0 computes alone. A rank that dies makes mpirun end the job and name it.
//
// Only a process an MPI launcher started joins a job (its environment says so: Open MPI's
// OMPI_COMM_WORLD_SIZE, PMIx's PMIX_RANK, PMI's PMI_SIZE); anything else, the Python module
// imported included, never initialises MPI. A build without MPI (TESSERA_MPI off) refuses to run
// as one of several ranks rather than run the study once per rank.
#include <memory>
#include <string>

#include "core/executor.hpp"
#include "tessera/export.hpp"

namespace tessera::workers {

// Whether this build has MPI support, and which library ("Open MPI v4.1.4"; "" without).
TESSERA_API bool mpi_built();
TESSERA_API std::string mpi_library();

// Joins the MPI job when an MPI launcher started this process (MPI_Init_thread, funneled: only
// the calling thread makes MPI calls; MPI already initialised by someone else, mpi4py say, is
// used as it is and left to them to finalise). Returns the job's rank count (1: not in a job, or a job
// of one rank, where the study runs as without MPI). A launcher's job of several ranks in a build
// without MPI is an Error.
TESSERA_API int join_mpi_job();
// Whether this process joined an MPI job (of any rank count). Its standard output and error are
// then the launcher's forwarding (Open MPI's a pseudo-terminal): no rank treats them as a terminal.
TESSERA_API bool in_mpi_job();
// This process's rank: the job's once joined; before, the one its launcher's environment names
// (so that a Python script knows it before its first study); 0 outside a job. And the job's rank
// count (1 until joined, and outside a job).
TESSERA_API int mpi_rank();
TESSERA_API int mpi_ranks();

// The executor of this rank in a job of several ranks: rank 0's coordinator (MpiExecutor) or a
// computing rank's server (MpiServer); each computes on `threads` threads of its own (0: one
// per hardware thread). Null outside such a job. `everywhere`: every rank ends with the study's
// results (Python, where each rank's script reads them): every plan with a codec is merged on
// every rank (UnitCodec::everywhere), and one without is computed on every rank.
TESSERA_API std::unique_ptr<Executor> make_mpi_executor(unsigned threads, bool everywhere = false);

// A computing rank: its command failed outside a unit with `status` and `text` (told to rank 0,
// which reports it if its own study goes on into a plan that rank never reaches).
TESSERA_API void mpi_rank_failed(int status, const std::string& text);

// Leaves the job at the end of the command: rank 0 tells every other rank its exit status (a rank
// still waiting in a plan stops there); another rank tells rank 0 it ended, waits for rank 0's
// status and returns it (so that each rank exits as rank 0 does). MPI_Finalize. Returns the
// status to exit with. Nothing outside a job.
TESSERA_API int leave_mpi_job(int status);

}  // namespace tessera::workers
