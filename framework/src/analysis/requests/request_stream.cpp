#include "analysis/requests/request_stream.hpp"

#include <algorithm>
#include <cmath>

namespace tessera::requests {

namespace {

// The starting state of one of a seed's streams: the seed and the stream's number hashed
// (SplitMix64's output function), so that two seeds' streams are unrelated rather than one
// SplitMix64 sequence shifted (SplitMix64 advances its state by a fixed increment).
std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t stream) {
  RandomStream mix(seed ^ (stream * 0xd1b54a32d192ed03u));
  mix.next();
  return mix.next();
}

using Weighted = std::vector<std::pair<std::int64_t, double>>;

double weight_sum(const Weighted& table) {
  double w = 0;
  for (const auto& [value, weight] : table) w += weight;
  return w;
}

// The value of `table` (weights summing to `total`) at u in [0, total): each value's share of the
// line in turn.
std::int64_t pick_weighted(const Weighted& table, double u) {
  for (const auto& [value, weight] : table) {
    if (u < weight) return value;
    u -= weight;
  }
  return table.back().first;
}

}  // namespace

RequestStream::RequestStream(const StreamSpec& spec)
    : spec_(&spec),
      gaps_(stream_seed(spec.seed, 1)),
      lengths_(stream_seed(spec.seed, 2)),
      classes_(stream_seed(spec.seed, 3)),
      thinks_(stream_seed(spec.seed, 4)),
      table_weight_in_(weight_sum(spec.input.table)),
      table_weight_out_(weight_sum(spec.output.table)),
      class_weight_(weight_sum(spec.priorities)),
      table_weight_msg_(weight_sum(spec.conversation.message.table)) {}

std::uint64_t RequestStream::total() const {
  if (spec_->arrival.kind == ArrivalKind::trace)
    return spec_->trace ? std::min<std::uint64_t>(spec_->requests, spec_->trace->size()) : 0;
  return spec_->requests;
}

std::int64_t RequestStream::draw_length(const LengthSpec& l) {
  switch (l.kind) {
    case LengthKind::fixed:
      return l.value;
    case LengthKind::uniform: {
      const auto span = static_cast<std::uint64_t>(l.max - l.min + 1);
      return l.min + static_cast<std::int64_t>(lengths_.next() % span);
    }
    case LengthKind::lognormal: {
      double x = std::round(l.median * std::exp(l.sigma * lengths_.normal()));
      x = std::max(x, static_cast<double>(std::max<std::int64_t>(l.min, 1)));
      if (l.max > 0) x = std::min(x, static_cast<double>(l.max));
      return static_cast<std::int64_t>(x);
    }
    case LengthKind::table: {
      const double total = &l == &spec_->input    ? table_weight_in_
                           : &l == &spec_->output ? table_weight_out_
                                                  : table_weight_msg_;
      return pick_weighted(l.table, lengths_.uniform() * total);
    }
  }
  return l.value;
}

std::int64_t RequestStream::draw_priority() {
  if (spec_->priorities.empty()) return 0;
  return pick_weighted(spec_->priorities, classes_.uniform() * class_weight_);
}

void RequestStream::fill(Request& r) {
  r.id = sent_++;
  r.input = draw_length(spec_->input);
  r.output = draw_length(spec_->output);
  r.prefix_id = -1;
  r.prefix_tokens = 0;
  r.priority = draw_priority();
  r.conversation = conversations() ? conversations_++ : -1;
  r.turn = 0;
  if (spec_->prefix.groups > 0) {
    r.prefix_id =
        static_cast<std::int64_t>(lengths_.next() % static_cast<std::uint64_t>(spec_->prefix.groups));
    r.prefix_tokens = std::min(spec_->prefix.tokens, r.input);
  }
}

bool RequestStream::next(Request& out) {
  if (sent_ >= total()) return false;
  const ArrivalSpec& a = spec_->arrival;
  if (a.kind == ArrivalKind::trace) {
    const TraceRow& row = (*spec_->trace)[static_cast<std::size_t>(sent_)];
    out.id = sent_++;
    out.arrival_s = (row.time_s - spec_->trace->front().time_s) / a.time_scale;
    out.input = row.input;
    out.output = row.output;
    out.prefix_id = row.prefix_id;
    out.prefix_tokens = 0;
    out.priority = draw_priority();
    out.conversation = -1;
    out.turn = 0;
    return true;
  }
  // The first request arrives at 0; each later one a gap after the one before.
  if (sent_ > 0) {
    const double mean_gap = 1 / a.rate_per_s;
    switch (a.kind) {
      case ArrivalKind::poisson:
        clock_s_ += mean_gap * gaps_.exponential();
        break;
      case ArrivalKind::gamma: {
        const double shape = 1 / (a.cv * a.cv);
        clock_s_ += mean_gap / shape * gaps_.gamma(shape);
        break;
      }
      default:
        clock_s_ += mean_gap;
        break;
    }
  }
  out.arrival_s = clock_s_;
  fill(out);
  return true;
}

bool RequestStream::next_turn(const Request& done, double finish_s, Request& out) {
  if (done.conversation < 0 || done.turn + 1 >= spec_->conversation.turns || sent_ >= total()) return false;
  out = done;
  out.id = sent_++;
  out.turn = done.turn + 1;
  const ConversationSpec& c = spec_->conversation;
  out.input = done.input + done.output + draw_length(c.message_given ? c.message : spec_->input);
  out.output = draw_length(spec_->output);
  out.arrival_s =
      finish_s + (spec_->conversation.think_s > 0 ? spec_->conversation.think_s * thinks_.exponential() : 0);
  return true;
}

bool RequestStream::next_at(double now_s, Request& out) {
  if (sent_ >= total()) return false;
  out.arrival_s = now_s;
  fill(out);
  return true;
}

}  // namespace tessera::requests
