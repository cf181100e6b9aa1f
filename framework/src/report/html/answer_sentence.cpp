#include "report/html/answer_sentence.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "report/charts/vega_json.hpp"
#include "report/charts/vega_specs.hpp"
#include "tessera/units.hpp"

namespace tessera {
namespace {

using nlohmann::json;
using vega::array_field;
using vega::field;
using vega::text_of;

double answer_number(const json& v) {
  return v.is_number() ? v.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

std::string answer_g3(double x) {
  char buf[48];
  std::snprintf(buf, sizeof buf, std::fabs(x) >= 1000 && std::fabs(x) < 1e15 ? "%.0f" : "%.3g", x);
  return buf;
}

// The parallel degrees above 1 ("cp=8 tp=16"); "no parallelism" when every one is 1.
std::string answer_degrees(const json& c) {
  std::string s;
  for (const char* k : {"cp", "tp", "pp", "dp", "ep"}) {
    const json& v = field(c, k);
    if (v.is_number() && answer_number(v) > 1)
      s += (s.empty() ? "" : " ") + std::string(k) + "=" + text_of(v);
  }
  return s.empty() ? "no parallelism" : s;
}

// "128 gpus of DGX-H100" (the machine object of the result, or its name alone).
std::string answer_on_pes(const json& pes, const json& machine) {
  std::string pe = "PE";
  std::string name = text_of(machine);
  if (machine.is_object()) {
    name = text_of(field(machine, "name"));
    if (field(machine, "pe").is_string()) pe = text_of(field(machine, "pe"));
  }
  std::string s;
  if (pes.is_number()) {
    const double n = answer_number(pes);
    s = answer_g3(n) + " " + pe + (n == 1 ? "" : "s");
  }
  if (!name.empty()) s += (s.empty() ? "" : " of ") + name;
  return s.empty() ? "" : " on " + s;
}

// The first objective's value of a point: "latency 6.13 ms".
std::string ranked_value(const json& result, const json& point) {
  const json& objectives = array_field(result, "objectives");
  if (objectives.empty()) {
    const json& l = field(point, "latency_s");
    return l.is_number() ? "latency " + answer_quantity(answer_number(l), "s") : "";
  }
  const json& o = objectives[0];
  const std::string key = text_of(field(o, "key"));
  json v = field(field(point, "objectives"), key.c_str());
  if (!v.is_number()) v = field(point, key.c_str());
  if (!v.is_number()) return "";
  return text_of(field(o, "name")) + " " + answer_quantity(answer_number(v), text_of(field(o, "unit")));
}

std::string run_answer(const json& r) {
  const json& best = field(r, "best");
  if (!best.is_object() || (field(best, "feasible").is_boolean() && !field(best, "feasible").get<bool>()))
    return "No configuration is feasible: nothing to recommend (the points below say why).";
  std::string s = "Best: " + answer_degrees(best) + answer_on_pes(field(best, "pes"), field(r, "machine"));
  const std::string value = ranked_value(r, best);
  if (!value.empty()) s += " \u2014 " + value;
  const json& tput = field(best, "throughput_tok_s");
  if (tput.is_number() && answer_number(tput) > 0)
    s += " (" + answer_quantity(answer_number(tput), "tokens/s") + ")";
  return s + ".";
}

std::string serve_answer(const json& r) {
  const json& best = field(r, "best");
  const json& machine = field(r, "machine");
  const std::string pe =
      machine.is_object() && field(machine, "pe").is_string() ? text_of(field(machine, "pe")) : "PE";
  std::string s;
  if (best.is_object()) {
    s = "Best within the SLO: " + answer_degrees(best) + vega::serve_point_suffix(best) +
        answer_on_pes(field(best, "pes"), machine) + " \u2014 " +
        answer_quantity(answer_number(field(best, "tokens_per_s_per_pe")), "tokens/s/" + pe) + " at " +
        answer_quantity(answer_number(field(best, "tokens_per_s_per_user")), "tokens/s/user") + " (TTFT " +
        answer_quantity(answer_number(field(best, "ttft_s")), "s") + ", TPOT " +
        answer_quantity(answer_number(field(best, "tpot_s")), "s") + ")";
  } else {
    s = "No aggregated serving point meets the SLO";
  }
  const json& d = field(r, "disaggregated");
  const json& pair = field(d, "best");
  if (pair.is_object()) {
    s += std::string(best.is_object() ? "; disaggregated: " : "; best disaggregated: ") + "prefill " +
         text_of(field(field(pair, "prefill"), "instances")) + "x [" +
         answer_degrees(field(field(pair, "prefill"), "config")) + "] + decode " +
         text_of(field(field(pair, "decode"), "instances")) + "x [" +
         answer_degrees(field(field(pair, "decode"), "config")) + "] on " + text_of(field(pair, "pes")) +
         " " + pe + "s \u2014 " +
         answer_quantity(answer_number(field(pair, "tokens_per_s_per_pe")), "tokens/s/" + pe);
    const json& gain = field(d, "gain");
    if (gain.is_number()) s += " (" + answer_g3(answer_number(gain)) + "\u00d7 the aggregated best)";
  }
  return s + ".";
}

std::string explain_answer(const json& r) {
  const json& c = field(r, "config");
  const json& t = field(r, "totals");
  if (field(r, "valid").is_boolean() && !field(r, "valid").get<bool>())
    return answer_degrees(c) + " is not a valid configuration" +
           (field(r, "reason").is_string() ? ": " + text_of(field(r, "reason")) : std::string()) + ".";
  std::string s = answer_degrees(c) + answer_on_pes(field(t, "pes"), field(r, "machine")) + ": latency " +
                  answer_quantity(answer_number(field(t, "latency_s")), "s") + " per step";
  if (answer_number(field(t, "throughput_tok_s")) > 0)
    s += ", " + answer_quantity(answer_number(field(t, "throughput_tok_s")), "tokens/s");
  return s + ".";
}

std::string sensitivity_answer(const json& r) {
  const bool serve = text_of(field(r, "mode")) == "serve";
  std::string s =
      serve ? "Best within the SLO: " + answer_degrees(field(r, "best")) + " \u2014 " +
                  answer_quantity(answer_number(field(r, "best_tokens_per_s_per_pe")), "tokens/s/PE") + "."
            : run_answer(r);
  const json& hw = array_field(r, "hardware");
  for (const json& k : hw)
    if (answer_number(field(k, "rank")) == 1) {
      s += std::string(serve ? " Tokens/s/PE moves" : " The latency moves") + " most with " +
           text_of(field(k, "label")) + " (elasticity " +
           answer_g3(answer_number(field(k, "elasticity_reoptimised"))) + ").";
      break;
    }
  return s;
}

// "pe.hbm.bandwidth 4 TB/s, levels.cube.link_bw 800 GB/s" of a point's `hardware`.
std::string answer_hardware(const json& result, const json& point) {
  std::string s;
  for (const json& a : array_field(result, "axes")) {
    const std::string path = text_of(field(a, "path"));
    const auto dot = path.find('.');
    const json& v = field(field(point, "hardware"), path.c_str());
    s += (s.empty() ? "" : ", ") + (dot == std::string::npos ? path : path.substr(dot + 1)) + " " +
         answer_quantity(answer_number(v), text_of(field(a, "unit")));
  }
  return s;
}

std::string explore_answer(const json& r) {
  const json* fastest = nullptr;
  for (const json& p : array_field(r, "points")) {
    const json& best = field(p, "best");
    if (!best.is_object() || !field(best, "latency_s").is_number()) continue;
    if (!fastest ||
        answer_number(field(best, "latency_s")) < answer_number(field(field(*fastest, "best"), "latency_s")))
      fastest = &p;
  }
  if (!fastest) return "No hardware point has a feasible configuration.";
  const json& best = field(*fastest, "best");
  std::string s = "Fastest hardware point: " + answer_hardware(r, *fastest) + " \u2014 latency " +
                  answer_quantity(answer_number(field(best, "latency_s")), "s") + " with " +
                  answer_degrees(best);
  if (field(*fastest, "cost_USD").is_number())
    s += ", cost " + answer_quantity(answer_number(field(*fastest, "cost_USD")), "USD");
  return s + ".";
}

std::string explore_serve_answer(const json& r) {
  const json& ranking = array_field(r, "ranking");
  const json& points = array_field(r, "points");
  if (ranking.empty() || !ranking[0].is_number_integer()) return "No hardware point serves within the SLO.";
  const auto i = ranking[0].get<std::int64_t>();
  if (i < 0 || static_cast<std::size_t>(i) >= points.size())
    return "No hardware point serves within the SLO.";
  const json& p = points[static_cast<std::size_t>(i)];
  return "Best hardware point: " + answer_hardware(r, p) + " \u2014 " +
         answer_quantity(answer_number(field(p, "best_tokens_per_s_per_pe")), "tokens/s/PE") +
         " within the SLO.";
}

std::string compare_answer(const json& r) {
  std::string s;
  for (const json& o : array_field(r, "optima"))
    s += (s.empty() ? "" : "; ") + text_of(field(o, "latency_model")) + ": " +
         answer_degrees(field(o, "config")) + " \u2014 " +
         answer_quantity(answer_number(field(o, "latency_s")), "s");
  if (s.empty()) return "No latency model found a feasible configuration.";
  return "Best by " + text_of(field(r, "objective")) + " under each latency model: " + s + ".";
}

std::string validate_answer(const json& r) {
  std::string s;
  for (const json& m : array_field(r, "models")) {
    const json& overall = field(field(m, "summary"), "overall");
    if (!field(overall, "median_ape").is_number()) continue;
    s += (s.empty() ? "" : "; ") + text_of(field(m, "latency")) + " " +
         answer_g3(answer_number(field(overall, "median_ape")) * 100) + " %";
  }
  if (s.empty()) return "No measurement row maps to a prediction.";
  return "Median absolute error against the measurements: " + s + ".";
}

}  // namespace

std::string answer_quantity(double v, const std::string& unit) {
  if (!std::isfinite(v)) return "-";
  if (unit == "s") {
    const double a = std::fabs(v);
    if (a > 0 && a < 1e-3) return answer_g3(v * 1e6) + " \u00b5s";
    if (a > 0 && a < 1) return answer_g3(v * 1e3) + " ms";
    return answer_g3(v) + " s";
  }
  if (unit == "USD") {
    char buf[48];
    std::snprintf(buf, sizeof buf, "$%.0f", v);
    return buf;
  }
  // Bandwidths, rates and sizes in base units: the SI prefix core/sdk/units.hpp picks.
  if (unit == "B/s") return format_quantity(v, Dimension::bandwidth, 3);
  if (unit == "FLOP/s") return format_quantity(v, Dimension::flop_rate, 3);
  if (unit == "B") return format_quantity(v, Dimension::bytes, 3);
  if (unit.empty()) return answer_g3(v);
  return answer_g3(v) + " " + unit;
}

std::string answer_sentence(const json& result) {
  switch (result_kind(result)) {
    case ResultKind::serve:
      return serve_answer(result);
    case ResultKind::explain:
      return explain_answer(result);
    case ResultKind::sensitivity:
      return sensitivity_answer(result);
    case ResultKind::explore:
      return explore_answer(result);
    case ResultKind::explore_serve:
      return explore_serve_answer(result);
    case ResultKind::compare:
      return compare_answer(result);
    case ResultKind::validate_data:
      return validate_answer(result);
    case ResultKind::run:
      break;
  }
  return run_answer(result);
}

}  // namespace tessera
