#include "analysis/requests/step_memo.hpp"

#include <bit>
#include <cmath>

namespace tessera::requests {

std::int64_t snap(std::int64_t x) {
  if (x < 256) return x;
  const int shift = static_cast<int>(std::bit_width(static_cast<std::uint64_t>(x))) - 1 - 8;
  const std::int64_t step = std::int64_t{1} << shift;
  return (x + step / 2) / step * step;
}

std::size_t StepMemo::KeyHash::operator()(const Key& k) const {
  std::uint64_t h = 0xcbf29ce484222325u;
  for (std::int64_t v : {k.decodes, k.context, k.prompts, k.tokens, k.prefix, std::int64_t{k.last}}) {
    h ^= static_cast<std::uint64_t>(v) + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
  }
  return static_cast<std::size_t>(h);
}

double StepMemo::timed(std::int64_t decodes, double context, std::int64_t prompts, std::int64_t tokens,
                       std::int64_t prefix, bool last) {
  if (prompts == 0) return timer_.decode_step(decodes, context);
  return timer_.mixed_step(decodes, decodes > 0 ? context : 0, prompts, tokens, prefix, last);
}

double StepMemo::time(const IterationShape& s) {
  if (!memoize_) return timed(s.decodes, s.decode_context, s.prompts, s.chunk_tokens, s.chunk_prefix, s.last);
  const Key key{s.decodes,
                s.decodes > 0 ? snap(std::llround(s.decode_context)) : 0,
                s.prompts,
                s.prompts > 0 ? snap(s.chunk_tokens) : 0,
                s.prompts > 0 ? snap(s.chunk_prefix) : 0,
                s.prompts > 0 && s.last};
  const auto it = memo_.find(key);
  if (it != memo_.end()) return it->second;
  const double t =
      timed(key.decodes, static_cast<double>(key.context), key.prompts, key.tokens, key.prefix, key.last);
  memo_.emplace(key, t);
  return t;
}

}  // namespace tessera::requests
