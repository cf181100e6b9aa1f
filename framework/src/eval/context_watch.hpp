#pragma once
// What the host shares between configurations and hands plugins as const — the EvalContext, the
// model and the machine it points to, and the scenario's workload — watched byte for byte
// (docs/plugin-guide.md §9 "What the host checks"). A plugin that writes into it through const_cast would
// change every later evaluation; the Evaluator compares the watched bytes with a snapshot after each
// evaluation (a few memcmp, no allocation) and fails the run naming the plugin when they differ.
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "tessera/export.hpp"
#include "tessera/physics/eval_context.hpp"

namespace tessera {

class TESSERA_API ContextWatch {
 public:
  // Watches `ctx` and `workload` (these objects, by address: they must outlive the watch and stay
  // put), *ctx.model and *ctx.machine: their bytes, and the heap blocks they own (names, machine
  // levels, the machine's per-plugin block).
  ContextWatch(const EvalContext& ctx, const Workload& workload);

  // True while every watched byte is as it was.
  bool intact() const {
    for (const Region& r : regions_)
      if (std::memcmp(r.at, snapshot_.data() + r.offset, r.size) != 0) return false;
    return true;
  }
  // The first region that changed ("the machine's levels"), or nullptr.
  const char* changed() const;
  // Writes the snapshot back (after a change, to find the culprit by replaying: docs above).
  void restore() const;

 private:
  struct Region {
    const void* at;
    std::size_t size;
    std::size_t offset;  // in snapshot_
    const char* label;
  };
  void add(const char* label, const void* at, std::size_t size);
  void add_string(const char* label, const std::string& s);
  std::vector<Region> regions_;
  std::vector<unsigned char> snapshot_;
};

}  // namespace tessera
