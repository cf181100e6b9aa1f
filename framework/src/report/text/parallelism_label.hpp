#pragma once
// A configuration's parallelism as a table cell: "tp8 pp1 dp4 ep8", with only the knobs that
// vary among the rows a table shows ("ffn=TP tp@node"), so the common ones do not crowd it.
#include <string>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"
#include "tessera/parallel_config.hpp"

namespace tessera {

// Which knobs differ among the configurations a table shows (cp: any is not 1).
class TESSERA_API KnobsSeen {
 public:
  void see(const ParallelConfig& c);
  bool cp = false, kv = false, ffn = false, tp_at = false, cp_at = false, ring = false;

 private:
  bool any_ = false;
  ParallelConfig first_;
};

// "tp8 pp1 dp4 ep8" plus the varying knobs; `dp` in place of c.dp when given ("1–8": a row of
// several configurations).
TESSERA_API std::string parallelism_label(const MachineSpec& m, const ParallelConfig& c, const KnobsSeen& k,
                                          const std::string& dp = "");

}  // namespace tessera
