// Rendering what `framework:` did (report/study_text/framework_report.hpp).
#include "report/study_text/framework_report.hpp"

namespace tessera {

void print_framework_text(std::ostream& os, const Scenario& s, const ServeCounts* counts) {
  if (!s.framework.set) return;
  const FrameworkChoice& f = s.framework;
  os << "framework  " << f.profile.title << ' ' << f.version().version << " (" << f.label()
     << (f.version_given ? "" : ", the newest listed") << "): the space keeps what it runs\n";
  for (const DroppedValues& d : s.framework_dropped)
    os << "           dropped " << d.knob << ' ' << d.values << ": " << d.reason << '\n';
  if (counts)
    for (std::size_t i = 1; i < kFrameworkMisses; ++i)
      if (counts->framework_dropped[i] > 0)
        os << "           dropped " << counts->framework_dropped[i]
           << " configurations: " << framework_miss_text(static_cast<FrameworkMiss>(i)) << '\n';
}

}  // namespace tessera
