#pragma once
// `tessera` under `mpirun -np N` on this machine for the MPI tests (as root: --allow-run-as-root;
// more ranks than cores: --oversubscribe), its outputs in a folder of its own.
#include <unistd.h>

#include <string>

#include "isolated_run.hpp"

namespace tessera::test {

// `mpirun OPTIONS -np N tessera ARGS` (N 0: `tessera ARGS` without mpirun).
inline IsolatedRun run_ranks(int ranks, const std::string& args, const std::string& options = "") {
  if (ranks == 0) return run_tessera_cli(args);
  const std::string mpirun = std::string("mpirun") + (::geteuid() == 0 ? " --allow-run-as-root" : "") +
                             " --oversubscribe --bind-to none --mca btl self,vader" +
                             " --mca btl_vader_single_copy_mechanism none " + options + " -np " +
                             std::to_string(ranks) + " " + std::string(TESSERA_BINARY_DIR) + "/bin/tessera";
  return run_in_shell(mpirun, args);
}

// The outputs of one run: its stdout and the files it wrote, byte for byte.
struct RunOutputs {
  IsolatedRun run;
  std::string json, csv, html;
};

// `STUDY ARGS --json --csv --html` into `d` (no --csv when `csv` is false) on `ranks` ranks; the
// same paths every time (the documents record the command), removed once read.
inline RunOutputs outputs_on(const TempDir& d, int ranks, const std::string& study, const std::string& args,
                             bool csv = true) {
  RunOutputs o;
  o.run = run_ranks(ranks, study + " " + args + " --json " + d / "r.json" +
                               (csv ? " --csv " + d / "r.csv" : "") + " --html " + d / "r.html");
  o.json = slurp(d / "r.json");
  if (csv) o.csv = slurp(d / "r.csv");
  o.html = slurp(d / "r.html");
  for (const char* name : {"r.json", "r.csv", "r.html"}) fs::remove(d / name);
  return o;
}

}  // namespace tessera::test
