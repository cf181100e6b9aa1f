#include "core/checkpoint/study_checkpoint.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <vector>

#include "core/fd_write.hpp"
#include "core/sha256.hpp"
#include "tessera/error.hpp"

namespace tessera {
namespace {

constexpr std::string_view kRecordMagic = "TSCKREC1";
constexpr std::size_t kHeadBytes = 8 + 8 + 64;  // magic, length, the payload's SHA-256 in hex
constexpr std::string_view kHeaderDigest = "header sha256 ";
// A header longer than this is not one Tessera wrote.
constexpr std::size_t kMaxHeaderBytes = std::size_t{1} << 20;

[[noreturn]] void refuse(const std::string& path, int line, const std::string& what) {
  throw InputErrors({Diagnostic{SourceLocation{path, line, 0}, "checkpoint: " + what}});
}

[[noreturn]] void failed(const std::string& path, const std::string& what) {
  throw Error("checkpoint " + path + ": " + what + ": " + std::strerror(errno));
}

void write_all(int fd, const std::string& path, std::string_view bytes) {
  if (!write_fully(fd, bytes)) failed(path, "write failed");
}

// Up to n bytes at `offset` (fewer at the end of the file).
std::string read_at(int fd, const std::string& path, std::uint64_t offset, std::size_t n) {
  std::string out(n, '\0');
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::pread(fd, out.data() + got, n - got, static_cast<off_t>(offset + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) failed(path, "read failed");
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  out.resize(got);
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The header as written: the format line, the identity, the digest of both.
std::string header_text(const std::string& identity) {
  std::string body = std::string(kCheckpointFormat) + "\n" + identity + "\n";
  return body + std::string(kHeaderDigest) + sha256_hex(body) + "\n";
}

void fsync_folder(const std::string& path) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  const int dir = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;
  ::fsync(dir);
  ::close(dir);
}

// A checkpoint is a regular file, held by one process at a time (an advisory lock for the
// process's lifetime: two runs resuming one file would interleave their records).
void check_and_lock(int fd, const std::string& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) failed(path, "stat failed");
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    refuse(path, 0, "not a regular file (a checkpoint is a file of its own that --checkpoint writes)");
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    refuse(path, 0, "in use by another tessera process (it holds the file's lock): one study at a time");
  }
}

// Whether the magic of a record occurs in [from, size): a record past a length that runs off
// the end of the file (the length is damaged, not the write cut short).
bool record_follows(int fd, const std::string& path, std::uint64_t from, std::uint64_t size) {
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  for (std::uint64_t at = from; at < size; at += kChunk - kRecordMagic.size()) {
    const std::string part = read_at(fd, path, at, kChunk);
    if (part.find(kRecordMagic) != std::string::npos) return true;
    if (part.size() < kChunk) break;
  }
  return false;
}

}  // namespace

StudyCheckpoint::StudyCheckpoint(std::string path, int fd, double interval_s)
    : path_(std::move(path)), fd_(fd), interval_s_(interval_s), last_(std::chrono::steady_clock::now()) {}

StudyCheckpoint::~StudyCheckpoint() {
  // A checkpoint this run created and never recorded in (the study failed or was stopped
  // before its first record) is removed: it holds nothing to resume.
  if (created_ && records_ == 0) ::unlink(path_.c_str());
  if (fd_ >= 0) ::close(fd_);
}

std::unique_ptr<StudyCheckpoint> StudyCheckpoint::create(const std::string& path, const std::string& identity,
                                                         double interval_s) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    refuse(path, 0, "not a regular file (a checkpoint is a file of its own that --checkpoint creates)");
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0 && errno == EEXIST)
    refuse(path, 0, "the file exists: resume its study with --resume " + path + ", or remove it");
  if (fd < 0) refuse(path, 0, std::string("cannot be created: ") + std::strerror(errno));
  check_and_lock(fd, path);
  std::unique_ptr<StudyCheckpoint> ck(new StudyCheckpoint(path, fd, interval_s));
  ck->created_ = true;
  ck->identity_digest_ = sha256_hex(identity);
  const std::string header = header_text(identity);
  write_all(fd, path, header);
  ck->header_end_ = header.size();
  if (::fsync(fd) != 0) failed(path, "fsync failed");
  fsync_folder(path);
  return ck;
}

std::unique_ptr<StudyCheckpoint> StudyCheckpoint::resume(const std::string& path, const std::string& identity,
                                                         double interval_s) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) refuse(path, 0, std::string("cannot be opened to resume: ") + std::strerror(errno));
  check_and_lock(fd, path);
  std::unique_ptr<StudyCheckpoint> ck(new StudyCheckpoint(path, fd, interval_s));
  const std::string head = read_at(fd, path, 0, kMaxHeaderBytes);
  // The header: up to and including its digest line.
  const std::size_t digest_at = head.find("\n" + std::string(kHeaderDigest));
  const std::size_t end = digest_at == std::string::npos ? std::string::npos : head.find('\n', digest_at + 1);
  if (head.rfind(std::string(kCheckpointFormat) + "\n", 0) != 0 || end == std::string::npos)
    refuse(path, 1,
           "not a Tessera checkpoint (its first line is not '" + std::string(kCheckpointFormat) +
               "', or its header is cut short)");
  const std::string body = head.substr(0, digest_at + 1);
  const std::string digest =
      head.substr(digest_at + 1 + kHeaderDigest.size(), end - digest_at - 1 - kHeaderDigest.size());
  const std::vector<std::string> have = lines_of(body),
                                 want = lines_of(std::string(kCheckpointFormat) + "\n" + identity + "\n");
  if (digest != sha256_hex(body))
    refuse(path, static_cast<int>(have.size()) + 1,
           "its header is damaged (the digest of its lines does not match)");
  // The first line only one side has, each way: what differs, whatever moved around it.
  for (std::size_t i = 0; i < have.size(); ++i)
    if (std::find(want.begin(), want.end(), have[i]) == want.end()) {
      const auto other = std::find_if(want.begin(), want.end(), [&](const std::string& w) {
        return std::find(have.begin(), have.end(), w) == have.end();
      });
      refuse(path, static_cast<int>(i) + 1,
             "it was written for another study: it records '" + have[i] + "'" +
                 (other == want.end() ? std::string(", which this one does not have")
                                      : ", where this one has '" + *other + "'") +
                 " (run the study as it was, or start a new checkpoint)");
    }
  for (const std::string& w : want)
    if (std::find(have.begin(), have.end(), w) == have.end())
      refuse(path, 0,
             "it was written for another study: this one has '" + w +
                 "', which it does not record (run the study as it was, or start a new checkpoint)");
  if (have != want)
    refuse(path, 0, "it was written for another study: the same lines in another order (its arguments?)");
  ck->header_end_ = end + 1;
  ck->resuming_ = true;
  ck->identity_digest_ = sha256_hex(identity);
  return ck;
}

std::uint64_t StudyCheckpoint::restore(std::uint64_t unit_count,
                                       const std::function<void(ByteReader&)>& replay) {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) failed(path_, "stat failed");
  const auto size = static_cast<std::uint64_t>(st.st_size);
  std::uint64_t at = header_end_, units = 0;
  for (std::uint64_t n = 1; at < size; ++n) {
    const std::string what = "record " + std::to_string(n) + " (byte " + std::to_string(at) + ")";
    const std::string head = read_at(fd_, path_, at, kHeadBytes);
    if (head.size() < kHeadBytes) {  // cut short at the end: its units are computed again
      dropped_ = 1;
      break;
    }
    if (head.compare(0, kRecordMagic.size(), kRecordMagic) != 0)
      refuse(path_, 0, what + " is damaged (no record starts there)");
    std::uint64_t length = 0;
    std::memcpy(&length, head.data() + 8, 8);
    if (length > size - at - kHeadBytes) {
      // The file ends inside the record: a write cut short, unless a record follows (then the
      // length itself is damaged).
      if (record_follows(fd_, path_, at + kHeadBytes, size))
        refuse(path_, 0,
               what + " is damaged (its length runs past the end of the file, and a record follows)");
      dropped_ = 1;
      break;
    }
    const std::string payload = read_at(fd_, path_, at + kHeadBytes, static_cast<std::size_t>(length));
    if (sha256_hex(payload) != head.substr(16, 64)) {
      if (at + kHeadBytes + length == size) {  // the last record, damaged in its write
        dropped_ = 1;
        break;
      }
      refuse(path_, 0, what + " is damaged (its digest does not match its contents)");
    }
    ByteReader r(payload, "checkpoint " + path_ + ", " + what);
    if (r.get_text() != identity_digest_)
      refuse(path_, 0, what + " belongs to another study (its digest of the study's identity differs)");
    const auto done = r.get<std::uint64_t>(), count = r.get<std::uint64_t>();
    if (count != unit_count || done > count)
      refuse(path_, 0,
             what + " is of a plan of " + std::to_string(count) + " work units, this study's has " +
                 std::to_string(unit_count));
    ByteReader rows_reader(r.get_view(), "checkpoint " + path_ + ", " + what + ", rows");
    if (replay) replay(rows_reader);
    state_ = r.get_text();
    units = done;
    unit_count_ = count;
    at += kHeadBytes + length;
    ++records_read_;
  }
  resumed_units_ = units;
  // Later records follow the last whole one.
  if (::ftruncate(fd_, static_cast<off_t>(at)) != 0) failed(path_, "truncate failed");
  if (::lseek(fd_, 0, SEEK_END) < 0) failed(path_, "seek failed");
  return units;
}

std::string StudyCheckpoint::resume_note() const {
  if (!resuming_) return {};
  std::string s = "checkpoint " + path_ + ": resumed after " + std::to_string(resumed_units_) + " of " +
                  std::to_string(unit_count_) + " work units";
  if (records_read_ == 0)
    s = "checkpoint " + path_ + ": no record to resume from; the study ran from its start";
  if (dropped_) s += " (its last record was cut short or damaged: dropped, its units computed again)";
  return s;
}

ByteReader StudyCheckpoint::state() const { return ByteReader(state_, "checkpoint " + path_ + ", state"); }

bool StudyCheckpoint::due() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - last_).count() >= interval_s_;
}

void StudyCheckpoint::record(std::uint64_t units_done, std::uint64_t unit_count, std::string_view rows,
                             std::string_view state) {
  ByteWriter w;
  w.put_text(identity_digest_);
  w.put(units_done);
  w.put(unit_count);
  w.put_text(rows);
  w.put_text(state);
  const std::string& payload = w.bytes();
  std::string head(kRecordMagic);
  const std::uint64_t length = payload.size();
  head.append(reinterpret_cast<const char*>(&length), 8);
  head += sha256_hex(payload);
  write_all(fd_, path_, head + payload);
  if (::fsync(fd_) != 0) failed(path_, "fsync failed");
  last_ = std::chrono::steady_clock::now();
  ++records_;
}

}  // namespace tessera
