#include "report/text/pareto_plot.hpp"

#include <cmath>

#include "report/study_text/search_report.hpp"  // human_objective
#include "report/text/text_scatter.hpp"
#include "report/text/text_table.hpp"
#include "tessera/units.hpp"

namespace tessera {
namespace {

std::string count_text(double v) { return std::to_string(static_cast<long long>(std::llround(v))); }

std::string rate_text(double v) {
  if (v >= 1e4) return fixed(v / 1e3, 1) + "k";
  if (v >= 100) return fixed(v, 0);
  if (v >= 10) return fixed(v, 1);
  return fixed(v, 2);
}

std::string sample_note(std::size_t drawn, std::size_t sample, std::uint64_t seen, bool sampled) {
  if (!sampled) return "";
  return " (" + std::to_string(drawn) + " in a seeded sample of " + std::to_string(sample) + " of " +
         std::to_string(seen) + ")";
}

}  // namespace

std::string search_pareto_plot(const StudyDescription& study, const SearchResult& res, std::size_t width,
                               bool unicode) {
  if (!res.best || study.objectives.empty()) return "";
  const ObjectiveInfo y0 = study.objectives.front();
  std::vector<ScatterPoint> pts;
  std::size_t drawn = 0;
  for (const SearchPoint& p : res.points)
    if (p.feasible) {
      pts.push_back({static_cast<double>(p.pes), p.objectives[0], ScatterPoint::Kind::other});
      ++drawn;
    }
  for (std::size_t i : res.pareto)
    pts.push_back({static_cast<double>(res.records[i].pes), res.records[i].objectives[0],
                   ScatterPoint::Kind::frontier});
  const ConfigRecord& b = res.records[*res.best];
  pts.push_back({static_cast<double>(b.pes), b.objectives[0], ScatterPoint::Kind::best});
  ScatterAxis x{study.machine().pe.name + "s", count_text};
  ScatterAxis y{y0.name, [&](double v) { return human_objective(y0, v); }};
  ScatterOptions o;
  o.width = width;
  o.unicode = unicode;
  o.frontier_label = "Pareto frontier (over every objective)";
  o.other_label =
      "feasible configurations" + sample_note(drawn, res.points.size(), res.points_seen, res.points_sampled);
  o.best_label = "best " + short_config(study.machine(), b.config);
  return render_scatter(x, y, pts, {}, o);
}

std::string serve_pareto_plot(const StudyDescription& study, const ServeResult& res, std::size_t width,
                              bool unicode) {
  const ServeRecord* b = res.best();
  if (!b) return "";
  std::vector<ScatterPoint> pts;
  for (const ServePoint& p : res.points)
    pts.push_back({p.tokens_per_s_per_user, p.tokens_per_s_per_pe, ScatterPoint::Kind::other});
  for (const ServeRecord& r : res.frontier)
    pts.push_back({r.tokens_per_s_per_user, r.tokens_per_s_per_pe, ScatterPoint::Kind::frontier});
  pts.push_back({b->tokens_per_s_per_user, b->tokens_per_s_per_pe, ScatterPoint::Kind::best});
  std::vector<ScatterLine> lines;
  const ServingSlo& slo = study.scenario.serving.slo;
  if (slo.tpot_s > 0 && slo.tpot_s < kNoSlo)
    lines.push_back({1.0 / slo.tpot_s, "TPOT SLO " + format_quantity(slo.tpot_s, Dimension::time) + " (" +
                                           rate_text(1.0 / slo.tpot_s) + " tok/s/user)"});
  if (slo.min_tokens_per_s_per_user > 0)
    lines.push_back(
        {slo.min_tokens_per_s_per_user, "SLO " + rate_text(slo.min_tokens_per_s_per_user) + " tok/s/user"});
  ScatterAxis x{"tokens/s/user", rate_text};
  ScatterAxis y{"tokens/s/PE", rate_text};
  ScatterOptions o;
  o.width = width;
  o.unicode = unicode;
  o.frontier_label = "Pareto frontier within the SLO";
  o.other_label = "runnable points" +
                  sample_note(res.points.size(), res.points.size(), res.points_seen, res.points_sampled);
  o.best_label = "best";
  return render_scatter(x, y, pts, lines, o);
}

}  // namespace tessera
