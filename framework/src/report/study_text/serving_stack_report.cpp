// Rendering what `framework:` did (report/study_text/serving_stack_report.hpp).
#include "report/study_text/serving_stack_report.hpp"

namespace tessera {

void print_serving_stack_text(std::ostream& os, const Scenario& s, const ServeCounts* counts) {
  if (!s.framework.set) return;
  const ServingStackChoice& f = s.framework;
  os << "framework  " << f.profile.title << ' ' << f.version().version << " (" << f.label()
     << (f.version_given ? "" : ", the newest listed") << "): the space keeps what it runs\n";
  for (const DroppedValues& d : s.stack_dropped)
    os << "           dropped " << d.knob << ' ' << d.values << ": " << d.reason << '\n';
  if (counts)
    for (std::size_t i = 1; i < kStackMisses; ++i)
      if (counts->stack_dropped[i] > 0)
        os << "           dropped " << counts->stack_dropped[i]
           << " configurations: " << stack_miss_text(static_cast<ServingStackMiss>(i)) << '\n';
}

}  // namespace tessera
