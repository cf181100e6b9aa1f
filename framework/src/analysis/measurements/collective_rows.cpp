// The collective rows of a measurements CSV: notes scanners and the row arithmetic
// (docs/accuracy.md "Collectives").
#include "analysis/measurements/collective_rows.hpp"

#include "analysis/measurements/measurement_csv.hpp"
#include "analysis/measurements/text_scan.hpp"
#include "tessera/dtype.hpp"
#include "tessera/error.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace tessera::accuracy {

namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

std::uint32_t bit(CollAlgorithm a) { return 1u << static_cast<unsigned>(a); }

}  // namespace

bool is_collective_metric(const std::string& m) {
  return m.rfind("collective_busbw:", 0) == 0 || m.rfind("collective_latency:", 0) == 0;
}

std::optional<double> notes_msg_bytes(const std::string& notes) {
  std::size_t at = 0;
  while (at < notes.size() && std::isspace(static_cast<unsigned char>(notes[at]))) ++at;
  static const char kKey[] = "msg_bytes";
  if (notes.compare(at, std::strlen(kKey), kKey) != 0) return std::nullopt;
  at += std::strlen(kKey);
  // `key = value` with blanks around `=`, as people write it.
  while (at < notes.size() && (notes[at] == ' ' || notes[at] == '\t')) ++at;
  if (at >= notes.size() || notes[at] != '=') return std::nullopt;
  ++at;
  while (at < notes.size() && (notes[at] == ' ' || notes[at] == '\t')) ++at;
  double v = 0;
  if (!scan_digits(notes, at, v) || v <= 0) return std::nullopt;
  if (at < notes.size() && is_alpha(notes[at])) return std::nullopt;  // "4K", "1MB"
  // A period ends the sentence ("msg_bytes=1024. NCCL 2.18") unless a digit follows ("12.5").
  if (at < notes.size() && notes[at] == '.' && at + 1 < notes.size() &&
      !std::isspace(static_cast<unsigned char>(notes[at + 1])))
    return std::nullopt;
  return v;
}

std::optional<std::uint32_t> nccl_algorithm_mask(const std::string& name) {
  const std::string n = lower(name);
  if (n == "nvls") return bit(CollAlgorithm::in_network);
  if (n == "ring") return bit(CollAlgorithm::nccl_ring);
  if (n == "tree") return bit(CollAlgorithm::nccl_tree);
  return std::nullopt;
}

NcclAlgorithm notes_nccl_algorithm(const std::string& notes) {
  NcclAlgorithm out;
  static const char kKey[] = "NCCL_ALGO=";
  for (std::size_t at = notes.find(kKey); at != std::string::npos; at = notes.find(kKey, at + 1)) {
    std::size_t i = at + std::strlen(kKey);
    if (i >= notes.size() || !is_alpha(notes[i])) continue;  // "NCCL_ALGO=<algo>": a template
    const std::size_t start = i;
    while (i < notes.size() && (std::isalnum(static_cast<unsigned char>(notes[i])) || notes[i] == '_')) ++i;
    out.named = true;
    out.name = notes.substr(start, i - start);
    out.algorithms = nccl_algorithm_mask(out.name).value_or(0);
    return out;
  }
  return out;
}

std::optional<double> payload_bytes_per_element(const std::string& precision) {
  std::size_t end = 0;
  while (end < precision.size() && (std::isalnum(static_cast<unsigned char>(precision[end])))) ++end;
  const std::string p = lower(precision.substr(0, end));
  // The measurement files' spellings of the formats tessera/dtype.hpp knows (block scales
  // included in its bytes per element: nvfp4 0.5625, mxfp8 1.03125, mxfp4 0.53125).
  const std::string name = p == "float32" ? "fp32" : p == "bfloat16" ? "bf16" : p == "float16" ? "fp16" : p;
  if (const auto t = dtype_from_name(name)) return dtype_bytes(*t);
  return std::nullopt;
}

std::optional<double> notes_bytes_per_token(const std::string& notes) {
  static const char kKey[] = " bytes/token";
  const std::size_t at = notes.find(kKey);
  if (at == std::string::npos || at == 0) return std::nullopt;
  std::size_t start = at;
  while (start > 0 && is_digit(notes[start - 1])) --start;
  if (start == at) return std::nullopt;
  double v = 0;
  std::size_t i = start;
  if (!scan_digits(notes, i, v) || i != at) return std::nullopt;
  return v;
}

double all_reduce_busbw(double bytes, double seconds, std::int64_t ranks) {
  const double n = static_cast<double>(ranks);
  return seconds > 0 ? bytes / seconds * 2 * (n - 1) / n : 0;
}

double moe_bytes_per_rank(double tokens, std::int64_t ep, std::int64_t top_k, std::int64_t hidden,
                          double bytes_per_element) {
  return tokens * static_cast<double>(std::min(ep, top_k)) * static_cast<double>(hidden) * bytes_per_element;
}

LinkCost row_group(const MachineSpec& machine, std::int64_t n) {
  const LevelSpec& lv = machine.levels.front();
  if (n <= lv.fanout) return first_level_group(machine, n);
  if (machine.levels.size() < 2 || n % lv.fanout != 0 || n / lv.fanout > machine.levels[1].fanout)
    throw Error("group of " + std::to_string(n) + " ranks is not whole units of the first level '" + lv.name +
                "' (fanout " + std::to_string(lv.fanout) + ") within the second level");
  LinkCost l = first_level_group(machine, lv.fanout);
  const LevelSpec& up = machine.levels[1];
  l.level = 2;
  l.bandwidth = up.link_bw;
  l.latency = up.latency;
  l.members[1] = static_cast<std::int32_t>(n / lv.fanout);
  return l;
}

LinkCost first_level_group(const MachineSpec& machine, std::int64_t n) {
  LinkCost l;
  const LevelSpec& lv = machine.levels.front();
  l.level = 1;
  l.bandwidth = lv.link_bw;
  l.latency = lv.latency;
  l.sharing = 1;
  l.members.fill(1);
  l.stride.fill(1);
  l.share.fill(1);
  l.members[0] = static_cast<std::int32_t>(n);
  return l;
}

}  // namespace tessera::accuracy
