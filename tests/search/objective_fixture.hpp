#pragma once
// What the objective plugins' tests share (plugins/objective/*/tests/): Llama-3.1-70B decode 128K
// on the cube machine ranked by latency, then the objective under test, evaluated at tp = 8.
#include "search_fixture.hpp"

namespace tessera::test {

inline Evaluation evaluate_tp8(const Session& s) {
  Evaluation e;
  ParallelConfig c;
  c.tp = 8;
  s.evaluator().evaluate(c, e);
  return e;
}

inline Scenario with_objective(const char* name) {
  Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  sc.plugins.objectives = {choice("latency"), choice(name)};
  return sc;
}

}  // namespace tessera::test
