// core/workers/mpi_job.hpp in a build without MPI (TESSERA_MPI off): never in a job; a process an
// MPI launcher started as one of several ranks refuses to run (each would run the whole study).
#include <cstdlib>

#include "core/workers/mpi_job.hpp"
#include "tessera/error.hpp"

namespace tessera::workers {

bool mpi_built() { return false; }
std::string mpi_library() { return {}; }

int join_mpi_job() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* n = std::getenv(v); n != nullptr && std::atoi(n) > 1)
      throw Error(std::string("started as one of ") + n +
                  " MPI ranks, but this tessera was built without MPI (TESSERA_MPI off: install "
                  "libopenmpi-dev and rebuild); run it as one process");
  return 1;
}

bool in_mpi_job() { return false; }
int mpi_rank() { return 0; }
int mpi_ranks() { return 1; }
std::unique_ptr<Executor> make_mpi_executor(unsigned, bool) { return nullptr; }
void mpi_rank_failed(int, const std::string&) {}
int leave_mpi_job(int status) { return status; }

}  // namespace tessera::workers
