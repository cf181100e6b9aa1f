// A real SIGTERM sent to `tessera calibrate` on a big CSV (it once ran on, ignoring the
// signal): exit 143 with the interruption line and no output left, whether the signal comes
// while the file is read or during a held-out fold's fit. The CSV (about 7 MB, 10350 rows) is
// made here from data/measurements.csv, each row repeated with its own id.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <thread>

#include "../outputs/child_process.hpp"
#include "../outputs/output_test_util.hpp"
#include "analysis/measurements/measurement_csv.hpp"
#include "tessera_build_paths.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_calibrate_signal {

using namespace tessera;
using tessera::test::TempDir;

namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// data/measurements.csv's rows, each repeated 150 times with its own id (about 7 MB).
void write_big_csv(const std::string& path) {
  std::ofstream csv(path);
  csv << "id,source,source_locator,software,model,precision,hardware,n_devices,tp,pp,ep,batch,input_len,"
         "output_len,metric,value,unit,notes\n";
  const std::vector<accuracy::DataRow> rows =
      accuracy::read_measurements(std::string(TESSERA_SOURCE_DIR) + "/data/measurements.csv");
  std::size_t id = 0;
  for (int copy = 0; copy < 150; ++copy)
    for (const accuracy::DataRow& r : rows)
      csv << ++id << "," << quoted(r.source) << "," << quoted(r.source_locator) << "," << quoted(r.software)
          << "," << quoted(r.model) << "," << r.precision << "," << quoted(r.hardware) << "," << r.n_devices
          << "," << r.tp << "," << r.pp << "," << r.ep << "," << r.batch << "," << r.input_len << ","
          << r.output_len << "," << r.metric << "," << r.value << "," << r.unit << "," << quoted(r.notes)
          << "\n";
}

struct Ended {
  int status = -1;
  std::string err;
  std::vector<std::string> left;  // files in the output folder afterwards
};

// Starts calibrate on the big CSV, sends SIGTERM once `ready(stderr so far, out folder)` holds.
template <class Ready>
Ended terminate_calibrate(Ready ready) {
  TempDir in, out;
  write_big_csv(in / "big.csv");
  const std::string err_path = in / "stderr";
  const std::string exe = std::string(TESSERA_BINARY_DIR) + "/bin/tessera";
  std::vector<std::string> args{exe,      "calibrate", in / "big.csv", "--framework",
                                "none",   "--family",  "TEST",         "--folds",
                                "source", "--summary", "--out",        out / "block.yaml"};
  const pid_t pid = test::spawn_quiet(args, err_path);
  REQUIRE(pid >= 0);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool now = false;
  while (!now && std::chrono::steady_clock::now() < until) {
    if (::waitpid(pid, nullptr, WNOHANG) == pid) break;  // ended on its own: fails below
    now = ready(test::slurp(err_path), out);
    if (!now) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  Ended e;
  if (now) {
    ::kill(pid, SIGTERM);
    e.status = test::wait_for(pid, 15);  // promptly: well before the study would end on its own
  } else {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
  e.err = test::slurp(err_path);
  e.left = out.names();
  REQUIRE(now);
  return e;
}

}  // namespace

TEST_CASE("calibrate: SIGTERM while a big CSV is read exits 143 and leaves no output", "[calibrate]") {
  // The temporary output exists from the start, before the CSV is read.
  const Ended e =
      terminate_calibrate([](const std::string&, const TempDir& out) { return !out.names().empty(); });
  CHECK(e.status == 143);
  CHECK(e.err.find("tessera: interrupted by SIGTERM") != std::string::npos);
  CHECK(e.left.empty());
}

TEST_CASE("calibrate: SIGTERM during a held-out fold's fit exits 143 and leaves no output", "[calibrate]") {
  const Ended e = terminate_calibrate([](const std::string& err, const TempDir&) {
    return err.find("calibrate: fold 1/") != std::string::npos;
  });
  CHECK(e.status == 143);
  CHECK(e.err.find("tessera: interrupted by SIGTERM") != std::string::npos);
  CHECK(e.left.empty());
}

}  // namespace test_calibrate_signal
