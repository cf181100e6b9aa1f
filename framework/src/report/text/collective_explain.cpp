#include "report/text/collective_explain.hpp"

#include <string>

#include "report/text/text_table.hpp"
#include "tessera/units.hpp"

namespace tessera {

namespace {

bool same(const CollectiveChoice& a, const CollectiveChoice& b) {
  return a.algorithm == b.algorithm && a.protocol == b.protocol && a.shape == b.shape &&
         a.seconds == b.seconds;
}

// Appends `item` to `line`, starting a new indented line when it would pass `width`.
void append_wrapped(std::ostream& os, std::string& line, const std::string& item, std::size_t indent,
                    std::size_t width) {
  if (display_width(line) + item.size() + 1 > width && display_width(line) > indent) {
    os << line << "\n";
    line = std::string(indent, ' ');
  } else if (display_width(line) > indent) {
    line += " ";
  }
  line += item;
}

}  // namespace

void print_stage_collectives(std::ostream& os, const StageWork& w, const Stage& s, const MachineSpec& m,
                             std::size_t width) {
  const CommRates r = collective_parts::rates_of(s);
  const Dimension T = Dimension::time;
  const std::string head = "  " + std::string(s.name) + ": ";
  if (w.has_cp) {
    if (w.cp.steps <= 0) return;
    os << head << w.cp.steps << " step(s) x point-to-point "
       << format_quantity(w.cp.msg_bytes, Dimension::bytes) << " "
       << collective_parts::p2p_model(w.cp.link, m, w.cp.msg_bytes, r) << "\n";
    return;
  }
  for (int i = 0; i < w.comm_count; ++i) {
    const Collective& c = w.comms[static_cast<std::size_t>(i)];
    if (c.kind == CommKind::p2p) {
      os << head << "point-to-point " << format_quantity(c.bytes, Dimension::bytes) << " "
         << collective_parts::p2p_model(c.link, m, c.bytes, r) << "\n";
      continue;
    }
    const CollectiveChoice best = collective_cost(c, m, r);
    if (!best.any) continue;
    std::string line = head + comm_kind_name(c.kind) + " of " + format_quantity(c.bytes, Dimension::bytes) +
                       " on " + std::to_string(c.ranks) + " ranks (" +
                       collective_parts::level_name(c.link, m) +
                       (c.route_top_k > 0 ? ", a token once per rank and node reached" : "") + "):";
    const std::size_t indent = 6;
    bool marked = false;
    for (const CollectiveChoice& k : collective_parts::sorted_candidates(c, m, r)) {
      const bool chosen = !marked && same(k, best);
      marked = marked || chosen;
      append_wrapped(os, line,
                     std::string(chosen ? "*" : "") + choice_label(k) + " " + format_quantity(k.seconds, T),
                     indent, width);
    }
    os << line << "\n";
    if (const std::string t = collective_parts::terms_model(c, m, r, best); !t.empty()) {
      // The chosen candidate's terms, wrapped between them (" + " starts each but the first).
      std::string terms = std::string(indent, ' ') + "*" + choice_label(best);
      std::size_t from = 0;
      for (std::size_t at = t.find(" + "); from != std::string::npos; at = t.find(" + ", from)) {
        const std::string item = t.substr(from, at == std::string::npos ? std::string::npos : at - from);
        append_wrapped(os, terms, from == 0 ? item : "+ " + item, indent + 2, width);
        from = at == std::string::npos ? at : at + 3;
      }
      os << terms << "\n";
    }
  }
}

}  // namespace tessera
