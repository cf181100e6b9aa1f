#pragma once
// The worker's side of the unit protocol (core/workers/unit_protocol.hpp): the executor a study
// runs with in a worker process. Its plan is not computed here as a whole: each execute() says
// `ready` with the plan's unit count, then computes the units the parent names, one at a time on
// this thread, and answers each with its outcome (the study's UnitCodec) or its error, until the
// parent ends the plan; then the study goes on (to its next plan, or to its end, whose output a
// worker discards). A parent that goes away ends the worker (exit status 0, nothing written).
#include <string>

#include "core/executor.hpp"
#include "tessera/export.hpp"

namespace tessera::workers {

class TESSERA_API UnitServer final : public Executor {
 public:
  explicit UnitServer(int fd) : fd_(fd) {}
  // Tells the parent that the study's setup has made its plugin calls (once; the first plan's
  // `ready` says it otherwise).
  void prepared();
  // The command failed outside a unit (`status` its exit status, `text` its message): a
  // `failed` message for no unit (kNoUnit).
  void report_failure(int status, const std::string& text);
  using Executor::execute;
  unsigned workers() const override { return 1; }
  bool remote() const override { return true; }
  void execute(std::size_t count, const ComputeFn& compute, const MergeFn& merge,
               const UnitCodec& codec) override;

 private:
  int fd_;
  bool prepared_ = false;
  ByteWriter outcome_;  // a unit's outcome, its buffer reused from unit to unit
};

}  // namespace tessera::workers
