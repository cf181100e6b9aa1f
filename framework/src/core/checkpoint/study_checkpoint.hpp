#pragma once
// A study's checkpoint (docs/architecture.md "Checkpoints"): an append-only file of the study's
// progress through its plan of work units (core/executor.hpp), so that a study killed at any
// point resumes where its last record left it and ends with the same result, byte for byte.
//
// The file: a text header (the format line, then the study's identity — Tessera's version and
// commit, the study, its arguments, every input file's and plugin library's SHA-256 — then a
// line with the SHA-256 of those lines), then binary records, each fsynced when written:
// "TSCKREC1", the payload's length (8 bytes), its SHA-256 (64 hex digits), the payload. A payload
// holds the SHA-256 of the study's identity (each record names its study), how many units were
// merged and how many the plan has, the rows the study streamed since the record before
// (replayed on resume), and the study's merged state.
//
// Resuming checks the identity line by line (another scenario, version, argument or plugin is
// refused naming the first line that differs), reads every record, and cuts the file after the
// last whole one: a record cut short or damaged at the end of the file (a kill during its
// write) is dropped and its units computed again; damage before the end is refused. A
// checkpoint is a regular file locked (flock) by the process using it; one this process created
// and never recorded in is removed when it is closed.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/checkpoint/byte_record.hpp"
#include "tessera/export.hpp"

namespace tessera {

class TESSERA_API StudyCheckpoint {
 public:
  // A new checkpoint at `path` (refused when the file exists). `identity`: the study's lines
  // (no empty line). `interval_s`: at most one record per interval (0: after every unit).
  static std::unique_ptr<StudyCheckpoint> create(const std::string& path, const std::string& identity,
                                                 double interval_s);
  // The checkpoint at `path`, to resume: its header checked against `identity`.
  static std::unique_ptr<StudyCheckpoint> resume(const std::string& path, const std::string& identity,
                                                 double interval_s);
  ~StudyCheckpoint();
  StudyCheckpoint(const StudyCheckpoint&) = delete;
  StudyCheckpoint& operator=(const StudyCheckpoint&) = delete;

  // Resuming: the records in order, each record's rows handed to `replay` (a reader over them);
  // returns the units the last record says are merged (0 for a new checkpoint or one without
  // records) and leaves its state for state(). A record of a plan of another size is refused.
  std::uint64_t restore(std::uint64_t unit_count, const std::function<void(ByteReader&)>& replay);
  ByteReader state() const;  // the last record's state (empty before restore or without records)

  // Whether a record is due (the interval since the last one has passed).
  bool due() const;
  // Appends a record and fsyncs it.
  void record(std::uint64_t units_done, std::uint64_t unit_count, std::string_view rows,
              std::string_view state);

  const std::string& path() const { return path_; }
  // Records dropped when resuming (a damaged last record): 0 or 1.
  int dropped() const { return dropped_; }
  // Resuming: the units the records said were merged, of how many (0 of 0 before restore()).
  std::uint64_t resumed_units() const { return resumed_units_; }
  std::uint64_t unit_count() const { return unit_count_; }
  // What resuming found, for the log: "resumed after 120 of 255 work units", and the dropped
  // record; "" for a new checkpoint.
  std::string resume_note() const;

 private:
  StudyCheckpoint(std::string path, int fd, double interval_s);
  std::string path_;
  int fd_ = -1;
  double interval_s_ = 0;
  std::chrono::steady_clock::time_point last_;
  std::uint64_t header_end_ = 0;
  std::uint64_t records_ = 0, records_read_ = 0;
  std::string state_;
  std::string identity_digest_;  // SHA-256 of the identity lines, in every record
  int dropped_ = 0;
  bool resuming_ = false;
  bool created_ = false;  // by this run: removed when it ends without a record
  std::uint64_t resumed_units_ = 0, unit_count_ = 0;
};

// The header's first line.
inline constexpr std::string_view kCheckpointFormat = "tessera checkpoint 1";

}  // namespace tessera
