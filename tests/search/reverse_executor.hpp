#pragma once
// An executor that computes a plan backwards (the last unit first) on one worker and merges it
// in order afterwards: a study whose result depends on the order its units finish in shows it.
// Given a codec, it also carries every outcome through it as a worker process would (saved to
// bytes after its compute, loaded from them before its merge): a codec that loses anything shows.
#include <string>
#include <vector>

#include "core/executor.hpp"

namespace tessera::test {

class ReverseExecutor final : public Executor {
 public:
  explicit ReverseExecutor(bool remote = false) : remote_(remote) {}
  using Executor::execute;
  unsigned workers() const override { return 1; }
  bool remote() const override { return remote_; }
  void execute(std::size_t count, const ComputeFn& compute, const MergeFn& merge,
               const UnitCodec& codec) override {
    std::vector<std::string> bytes(count);
    for (std::size_t u = count; u-- > 0;) {
      compute(u, UnitSlot{0, 1});
      if (codec) {
        ByteWriter w;
        codec.save(u, w);
        bytes[u] = w.take();
      }
    }
    for (std::size_t u = 0; u < count; ++u) {
      if (codec) {
        ByteReader r(bytes[u], "unit " + std::to_string(u));
        codec.load(u, r);
      }
      merge(u);
    }
  }

 private:
  bool remote_;
};

}  // namespace tessera::test
