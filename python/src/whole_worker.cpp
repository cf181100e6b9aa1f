#include "whole_worker.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "studies/worker_error.hpp"
#include "tessera/error.hpp"

namespace tessera::python {

ResultsFile::ResultsFile() : fd_(::memfd_create("tessera-worker-results", MFD_CLOEXEC)) {
  if (fd_ < 0) throw Error(std::string("cannot create a worker's results file: ") + std::strerror(errno));
}

ResultsFile::~ResultsFile() { ::close(fd_); }

std::string ResultsFile::read() const {
  std::string bytes;
  char buf[65536];
  for (off_t at = 0;;) {
    const ssize_t n = ::pread(fd_, buf, sizeof buf, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(std::string("cannot read a worker's results: ") + std::strerror(errno));
    if (n == 0) return bytes;
    bytes.append(buf, static_cast<std::size_t>(n));
    at += n;
  }
}

TemporaryFolder::TemporaryFolder() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/tessera-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    throw Error("cannot create a temporary folder (" + pattern + "): " + std::strerror(errno));
  path_ = pattern;
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

namespace {

// The worker's message as this process's error says it: without the CLI's "tessera: error: "
// and the trailing newline.
std::string error_text(std::string m) {
  for (const std::string_view prefix :
       {std::string_view("tessera: error: "), std::string_view("<command line>: error: ")})
    if (m.starts_with(prefix)) m.erase(0, prefix.size());
  while (!m.empty() && m.back() == '\n') m.pop_back();
  return m.empty() ? std::string("the study's worker process failed without a message") : m;
}

}  // namespace

std::optional<std::string> ran_here_or_in_worker(studies::StudyWorkers& workers, const ResultsFile& results,
                                                 Interruptible& guard,
                                                 const std::function<void(studies::StudyWorkers&)>& here) {
  std::optional<studies::StudyRanInWorker> ran;
  guard.run([&] {
    try {
      here(workers);
    } catch (const studies::StudyRanInWorker& r) {
      ran.emplace(r);
    }
  });
  if (!ran) return std::nullopt;
  if (ran->status() != 0 && !ran->error().empty()) studies::throw_saved_error(ran->error());
  if (ran->status() == 2) throw InputError(error_text(ran->message()));
  if (ran->status() != 0) throw Error(error_text(ran->message()));
  return results.read();
}

std::optional<nlohmann::json> study_here_or_in_worker(
    studies::StudyWorkers& workers, const ResultsFile& results, Interruptible& guard,
    const std::function<void(studies::StudyWorkers&)>& here) {
  const std::optional<std::string> document = ran_here_or_in_worker(workers, results, guard, here);
  if (!document) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(*document, nullptr, false);
  if (j.is_discarded()) throw Error("the study's worker process wrote a document that is not JSON");
  return j;
}

studies::StudyWorkers guarded_workers(studies::WorkerCommand command, Interruptible& guard) {
  command.settings.push_back("report_files=0");  // the scenario's report.csv / report.json are the CLI's
  // Under an MPI launcher: the study's units on every rank, each ending with the results
  // (core/workers/mpi_job.hpp); its threads per rank those the study was given.
  command.mpi_units = true;
  command.results_everywhere = true;
  for (std::size_t i = 0; i + 1 < command.arguments.size(); ++i)
    if (command.arguments[i] == "--threads")
      command.workers = static_cast<unsigned>(std::stoul(command.arguments[i + 1]));
  command.on_wait = [&guard] { guard.check_signals(); };
  command.on_progress = [&guard](std::uint64_t done, std::uint64_t total, const std::string& phase) {
    guard.poll(done, total, phase.c_str());
  };
  return studies::StudyWorkers(std::move(command));
}

studies::StudyWorkers whole_workers(std::vector<std::string> arguments, const std::string& isolate,
                                    const ResultsFile& results, Interruptible& guard) {
  studies::WorkerCommand command;
  command.isolation = isolation_of(isolate);
  command.share = studies::WorkerShare::whole;
  command.results_fd = results.fd();
  command.arguments = std::move(arguments);
  command.arguments.insert(command.arguments.end(), {"--json", "-", "-q"});
  return guarded_workers(std::move(command), guard);
}

studies::StudyWorkers whole_study_workers(const std::string& study, const ScenarioHandle& h,
                                          const std::string& isolate, std::vector<std::string> extra,
                                          const ResultsFile& results, Interruptible& guard) {
  extra.insert(extra.end(), {"--json", "-", "-q"});
  return guarded_workers(
      studies::whole_worker_command(study, h.options(), isolation_of(isolate), extra, results.fd()), guard);
}

}  // namespace tessera::python
