#pragma once
// --checkpoint FILE, --resume FILE and --checkpoint-every SECONDS of the long studies (run,
// explore): the study's checkpoint (core/checkpoint/study_checkpoint.hpp) opened before any
// work, with the study's identity — Tessera's build, the study, its arguments (output paths
// and what does not change the result left out), every input file's and plugin library's
// SHA-256 — so that a checkpoint of another scenario, version or plugin is refused (exit 2).
#include <boost/program_options.hpp>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "core/checkpoint/study_checkpoint.hpp"
#include "output_files.hpp"
#include "studies/study_context.hpp"

namespace tessera::cli {

namespace po = boost::program_options;

struct CheckpointOptions {
  std::string checkpoint;  // a new checkpoint
  std::string resume;      // an existing one, resumed
  std::string every;       // seconds between records ("" = kDefaultCheckpointSeconds)
  bool any() const { return !checkpoint.empty() || !resume.empty(); }
};

// Records at most this often by default (a record is an fsync).
inline constexpr double kDefaultCheckpointSeconds = 10;

void add_checkpoint_options(po::options_description_easy_init add, CheckpointOptions& o);

// The checkpoint the options name (null when none): its path checked against the outputs
// already added, the folders the command writes (`folders`: --vega DIR, --png DIR; "" none)
// and the inputs read (an InputError, exit 2), then created or resumed.
std::unique_ptr<StudyCheckpoint> open_checkpoint(const CheckpointOptions& o, const std::string& study,
                                                 const Args& args, const std::string& scenario_path,
                                                 const studies::StudyContext& context, const Outputs& outputs,
                                                 const std::vector<std::string>& folders);

// What resuming found ("resumed after 120 of 255 work units"), on stderr unless `quiet`;
// nothing for a new checkpoint or none.
void print_resume_note(const StudyCheckpoint* checkpoint, bool quiet);

// `args` without the checkpoint options: what a result records as its command (the same for
// the run that wrote a checkpoint and the run that resumed it).
Args without_checkpoint_options(const Args& args);

}  // namespace tessera::cli
