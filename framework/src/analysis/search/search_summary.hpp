#pragma once
// How a search summarises the configurations it evaluates (analysis/search/search_driver.hpp),
// for one work unit or for the whole study: counts, the top N, the Pareto frontier, the sampled
// points and the records; merged exactly across units, and saved to and restored from a
// checkpoint (core/checkpoint/study_checkpoint.hpp).
#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/search/record_bytes.hpp"
#include "analysis/search/search_driver.hpp"
#include "core/checkpoint/byte_record.hpp"
#include "core/statistics/pareto.hpp"
#include "core/statistics/reservoir.hpp"
#include "core/statistics/streaming_front.hpp"
#include "core/statistics/top_n.hpp"

namespace tessera::search_summary {

// A feasible configuration as the ranking and the frontier need it: its totals (the one
// evaluated-configuration type; `key` its position in the space's order: its grid index, or
// (outside the grid) after every grid position, in proposal order) and the ranking's score and
// ties. The full records of the few that are kept are rebuilt at the end by evaluating them
// again (evaluation is deterministic), so that the driver copies ~220 bytes per feasible
// configuration, not a record (~350 and its reason text).
struct Candidate : EvaluatedConfig {
  double score = 0;
  // objectives[1..ties) oriented (lower is better): the ranking's ties.
  std::array<double, kMaxObjectives> tie_values{};
  std::size_t ties = 0;
};

inline Candidate candidate(std::uint64_t key, const ConfigRecord& r, const std::vector<Direction>& dirs) {
  Candidate c;
  static_cast<EvaluatedConfig&>(c) = r;
  c.key = key;
  c.score = r.score;
  c.ties = std::min(dirs.size(), c.tie_values.size());
  for (std::size_t i = 1; i < c.ties; ++i) c.tie_values[i] = oriented(r.objectives[i], dirs[i]);
  return c;
}

// Ranking of feasible configurations: score (the first objective), then each next objective in
// turn (so the best is never dominated by a frontier point), then fewer PEs, then the space's
// order.
inline bool rank_less(const Candidate& x, const Candidate& y) {
  if (x.score != y.score) return x.score < y.score;
  for (std::size_t i = 1; i < std::min(x.ties, y.ties); ++i)
    if (x.tie_values[i] != y.tie_values[i]) return x.tie_values[i] < y.tie_values[i];
  if (x.pes != y.pes) return x.pes < y.pes;
  return x.key < y.key;
}

inline SearchPoint point_of(std::uint64_t key, const ConfigRecord& r) {
  SearchPoint p = r;
  p.key = key;
  return p;
}

// The space's order.
inline bool key_less(const Candidate& a, const Candidate& b) { return a.key < b.key; }

// A candidate's objective values, for the frontier.
struct CandidateObjectives {
  const std::array<double, kMaxObjectives>& operator()(const Candidate& c) const { return c.objectives; }
};

// The configurations a search proposes and how they are summarised, for one work unit or for
// the whole study: counts, the top N, the frontier, and (buffered: a unit's, handed to the
// study's merge in plan order; streaming: the study's own) the sampled points and the records.
class Summary {
 public:
  // buffered: a unit's of at most `unit_configs` configurations (its point buffer reserved once).
  Summary(const SearchOptions& options, const std::vector<Direction>& dirs, bool buffered,
          std::uint64_t unit_configs = 0)
      : options_(options),
        dirs_(dirs),
        buffered_(buffered),
        want_records_(options.keep_records || static_cast<bool>(options.on_record)),
        top_(options.top, rank_less),
        front_(dirs, {}),
        sample_(buffered ? 0 : options.points) {
    if (buffered && options.points > 0) points_.reserve(static_cast<std::size_t>(unit_configs));
  }

  // One distinct evaluated configuration at position `key` of the space's order.
  void offer(std::uint64_t key, const ConfigRecord& r) {
    ++counts_.evaluated;
    if (r.feasible) ++counts_.feasible;
    if (r.valid && r.non_finite != NonFinite::none) ++counts_.non_finite;
    if (r.feasible) offer_candidate(candidate(key, r, dirs_));
    if (want_records_) {
      if (buffered_ || options_.keep_records) records_.emplace_back(key, r);
      if (!buffered_ && options_.on_record) stream(r);
    }
    if (options_.points > 0 && r.valid && r.non_finite == NonFinite::none) offer_point(point_of(key, r));
  }
  // The exact merge of a unit's summary, the units taken in plan order: counts add, the top N
  // of a union is the top N of the parts' top N (the ranking is a strict order: ties end on
  // the key), its frontier the frontier of the parts' frontiers (core/statistics/streaming_front.hpp),
  // and the sample and the records are fed in the space's order as if streamed.
  void absorb(Summary& unit) {
    counts_.evaluated += unit.counts_.evaluated;
    counts_.feasible += unit.counts_.feasible;
    counts_.non_finite += unit.counts_.non_finite;
    for (const Candidate& c : unit.top_.take()) top_.offer(c);
    for (const Candidate& c : unit.front_.take(key_less)) offer_front(c);
    for (const SearchPoint& p : unit.points_) offer_point(p);
    for (auto& [key, r] : unit.records_) {
      if (options_.on_record) stream(r);
      if (options_.keep_records) records_.emplace_back(key, std::move(r));
    }
    unit.points_.clear();
    unit.records_.clear();
  }

  const SearchCounts& counts() const { return counts_; }
  bool wants_reason() const { return want_records_; }
  std::vector<Candidate> take_top() { return top_.take(); }
  std::vector<Candidate> take_front() { return front_.take(key_less); }
  std::vector<std::pair<std::uint64_t, ConfigRecord>> take_records() { return std::move(records_); }
  Reservoir<SearchPoint>& sample() { return sample_; }

  // Checkpoints (core/checkpoint/checkpointed_plan.hpp), of the study's summary (streaming):
  // every row streamed to on_record is also appended to `rows`.
  void stream_rows_to(ByteWriter* rows) { rows_ = rows; }
  // The merged state: counts, the top N's and the frontier's candidates, the sample and its
  // draws (a unit's: its points, in the space's order), the kept records. Restored, the summary
  // goes on as the one saved would: a study's resumes its checkpoint, a unit's (the outcome a
  // worker process hands to the merge: core/executor.hpp UnitCodec) is absorbed as the one saved.
  void save(ByteWriter& w) const {
    w.put(counts_);
    w.put_list(top_.items());
    w.put_list(front_.items());
    if (buffered_) {
      w.put_list(points_);
    } else {
      w.put_list(sample_.items());
      w.put(sample_.seen());
      w.put(sample_.draw_state());
    }
    w.put<std::uint64_t>(records_.size());
    for (const auto& [key, r] : records_) {
      w.put(key);
      write_record(w, r);
    }
  }
  void load(ByteReader& in) {
    counts_ = in.get<SearchCounts>();
    for (const Candidate& c : in.get_list<Candidate>()) {
      check_evaluated(in, c);
      top_.offer(c);
    }
    for (const Candidate& c : in.get_list<Candidate>()) {
      check_evaluated(in, c);
      offer_front(c);
    }
    std::vector<SearchPoint> items = in.get_list<SearchPoint>();
    for (const SearchPoint& p : items) check_evaluated(in, p);
    if (buffered_) {
      points_ = std::move(items);
    } else {
      if (items.size() > sample_.capacity()) in.fail();
      const auto seen = in.get<std::uint64_t>();
      const auto draws = in.get<std::uint64_t>();
      sample_.restore(std::move(items), seen, draws);
    }
    const auto n = in.get<std::uint64_t>();
    for (std::uint64_t i = 0; i < n; ++i) {
      const auto key = in.get<std::uint64_t>();
      records_.emplace_back(key, read_record(in));
    }
  }
  // A record's rows streamed again to on_record (not to `rows`: they are recorded already).
  void replay(ByteReader& in) const {
    while (!in.done()) {
      const ConfigRecord r = read_record(in);
      if (options_.on_record) options_.on_record(r);
    }
  }

 private:
  void stream(const ConfigRecord& r) {
    options_.on_record(r);
    if (rows_) write_record(*rows_, r);
  }
  void offer_candidate(const Candidate& c) {
    top_.offer(c);
    offer_front(c);
  }
  void offer_front(const Candidate& c) {
    if (!dirs_.empty()) front_.offer(c);
  }
  void offer_point(const SearchPoint& p) {
    if (buffered_)
      points_.push_back(p);
    else
      sample_.offer(p);
  }

  const SearchOptions& options_;
  const std::vector<Direction>& dirs_;
  bool buffered_;
  bool want_records_;
  SearchCounts counts_;
  TopN<Candidate, decltype(&rank_less)> top_;
  StreamingFront<Candidate, CandidateObjectives> front_;
  Reservoir<SearchPoint> sample_;
  std::vector<SearchPoint> points_;                              // buffered: valid finite, in order
  std::vector<std::pair<std::uint64_t, ConfigRecord>> records_;  // buffered, or keep_records
  ByteWriter* rows_ = nullptr;                                   // checkpointed: the rows streamed
};

}  // namespace tessera::search_summary
