#pragma once
// The requests a serving simulation offers its replicas (docs/physics.md §12.5): when each arrives
// and how long its prompt and its output are, drawn from a seeded stream, or read from a trace.
//
// Arrivals, open loop: `poisson` (exponential gaps of mean 1/rate), `gamma` (gamma gaps of mean
// 1/rate and coefficient of variation cv: shape 1/cv², bursty above cv = 1), `constant` (gaps of
// exactly 1/rate), `trace` (the rows' timestamps, from the first row's). Closed loop:
// `concurrency` N clients, each sending its next request the moment its last one finishes, as
// benchmark clients with a concurrency limit do (vLLM's and SGLang's bench_serving
// `--max-concurrency` at an infinite request rate).
// Lengths: `fixed`, `uniform` (integers in [min, max]), `lognormal` (median and σ of ln, rounded,
// clamped to [min, max]), `table` (an empirical distribution: values with weights).
// Arrival times and lengths come from separate streams of the seed, so changing a length
// distribution does not move an arrival.
// Conversations (StreamSpec::conversation, turns > 1): each arrival (a client's request, closed
// loop) starts a conversation; when a turn finishes the next is sent after a think time
// (exponential of the spec's mean, from its own stream), its prompt the turn before's prompt and
// output followed by a new message drawn as `input` is. Requests are numbered as they are drawn.
#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/requests/random_stream.hpp"
#include "scenario/schemas/request_spec.hpp"
#include "tessera/export.hpp"

namespace tessera::requests {

struct Request {
  std::uint64_t id = 0;  // 0, 1, ... in arrival order (closed loop: in order of sending)
  double arrival_s = 0;
  std::int64_t input = 0;   // prompt tokens, a shared prefix included
  std::int64_t output = 0;  // generated tokens, the first (from the prefill) included; >= 1
  std::int64_t prefix_id = -1;
  std::int64_t prefix_tokens = 0;
  std::int64_t priority = 0;  // its class (lower = more urgent): for a scheduler plugin
  // A conversation's turn (StreamSpec::conversation): its id (-1: none) and turn (0: the first);
  // a later turn's prompt is the turn before's prompt and output, then a new message.
  std::int64_t conversation = -1;
  std::int64_t turn = 0;
};

class TESSERA_API RequestStream {
 public:
  explicit RequestStream(const StreamSpec& spec);

  bool closed_loop() const { return spec_->arrival.kind == ArrivalKind::concurrency; }
  std::int64_t clients() const { return spec_->arrival.concurrency; }
  std::uint64_t total() const;  // requests the stream will send
  std::uint64_t sent() const { return sent_; }

  // Open loop: the next request in arrival order; false when all are sent.
  bool next(Request& out);
  // Closed loop: the next request, sent at `now_s`; false when all are sent.
  bool next_at(double now_s, Request& out);
  // Conversations: the turn after `done` (finished at `finish_s`), sent a think time later; false
  // when its conversation has no turn left or all requests are sent.
  bool next_turn(const Request& done, double finish_s, Request& out);
  bool conversations() const { return spec_->conversation.turns > 1; }

 private:
  std::int64_t draw_length(const LengthSpec& l);
  std::int64_t draw_priority();
  void fill(Request& r);

  const StreamSpec* spec_;
  RandomStream gaps_, lengths_, classes_, thinks_;
  std::int64_t conversations_ = 0;  // conversations started
  double clock_s_ = 0;
  std::uint64_t sent_ = 0;
  double table_weight_in_ = 0, table_weight_out_ = 0, class_weight_ = 0, table_weight_msg_ = 0;
};

}  // namespace tessera::requests
