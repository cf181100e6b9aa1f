#pragma once
// What the hand-derived physics tests share: their tolerance, a parallel configuration from its
// degrees and a stage of an evaluation by name (a missing stage fails the test).
#include <catch2/catch.hpp>

#include "fixtures.hpp"

namespace tessera::test {

// Relative tolerance of a value derived by hand against the model.
inline constexpr double kTol = 1e-3;

inline ParallelConfig cfg(int cp, int tp, int pp = 1, int dp = 1, int ep = 1) {
  ParallelConfig c;
  c.cp = cp;
  c.tp = tp;
  c.pp = pp;
  c.dp = dp;
  c.ep = ep;
  return c;
}

inline const Stage& stage(const Evaluation& e, const char* name) {
  const Stage* s = find_stage(e, name);
  INFO("stage " << name);
  REQUIRE(s != nullptr);
  return *s;
}

}  // namespace tessera::test
