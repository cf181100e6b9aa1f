#include "analysis/capacity/capacity_search.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/cancellation.hpp"
#include "tessera/error.hpp"

namespace tessera::requests {

const char* load_key(LoadKind k) { return k == LoadKind::clients ? "clients" : "rate_per_s"; }

const char* capacity_stop_key(CapacityStop s) {
  switch (s) {
    case CapacityStop::converged:
      return "converged";
    case CapacityStop::probe_limit:
      return "probe_limit";
    case CapacityStop::ceiling:
      return "ceiling";
    case CapacityStop::none_met:
      return "none_met";
  }
  return "converged";
}

LoadKind load_kind(const StreamSpec& stream) {
  return stream.arrival.kind == ArrivalKind::concurrency ? LoadKind::clients : LoadKind::rate;
}

double offered_load(const StreamSpec& stream) {
  const ArrivalSpec& a = stream.arrival;
  switch (a.kind) {
    case ArrivalKind::concurrency:
      return static_cast<double>(a.concurrency);
    case ArrivalKind::trace: {  // the rows the stream sends: at most `requests`
      const std::size_t n =
          stream.trace
              ? static_cast<std::size_t>(std::min<std::uint64_t>(stream.requests, stream.trace->size()))
              : 0;
      if (n < 2) return 0;
      const double span = (*stream.trace)[n - 1].time_s - stream.trace->front().time_s;
      return span > 0 ? static_cast<double>(n - 1) / span * a.time_scale : 0;
    }
    default:
      return a.rate_per_s;
  }
}

StreamSpec at_load(const StreamSpec& stream, double load) {
  StreamSpec s = stream;
  ArrivalSpec& a = s.arrival;
  switch (a.kind) {
    case ArrivalKind::concurrency:
      a.concurrency = std::max<std::int64_t>(1, std::llround(load));
      break;
    case ArrivalKind::trace: {
      const double base = offered_load(stream) / a.time_scale;  // the trace's own rate
      if (base > 0) a.time_scale = load / base;
      break;
    }
    default:
      a.rate_per_s = load;
      break;
  }
  return s;
}

namespace {

// The SimResult of a probe, summarised: whether every target held and which one binds.
CapacityProbe probe_of(double load, const SimResult& r) {
  CapacityProbe p;
  p.load = load;
  p.measured = r.measured;
  p.met = r.slo_met();
  double worst = -1;
  for (std::size_t i = 0; i < r.slo.size(); ++i) {
    const SloCheck& c = r.slo[i];
    const double ratio = c.value_s / c.target.limit_s;
    if (!(ratio <= worst)) {  // NaN (no value) binds
      worst = std::isnan(ratio) ? INFINITY : ratio;
      p.binding = i;
      p.binding_ratio = ratio;
      p.binding_precision = c.value_s > 0 ? c.half_width_s / c.value_s : NAN;
    }
  }
  p.ttft_p99_s = r.ttft.percentile[2];
  p.tpot_p99_s = r.tpot.percentile[2];
  p.e2e_p99_s = r.e2e.percentile[2];
  p.requests_per_s = r.requests_per_s;
  p.output_tokens_per_s = r.output_tokens_per_s;
  p.goodput_requests_per_s = r.goodput_requests_per_s;
  return p;
}

// A probe is undecided while its binding target's 95 % interval holds the limit.
bool undecided(const SimResult& r, const CapacityProbe& p) {
  if (r.slo.empty()) return false;
  const SloCheck& c = r.slo[p.binding];
  return std::isfinite(c.half_width_s) && std::abs(c.value_s - c.target.limit_s) <= c.half_width_s;
}

// The first bracketing step from the analytical start (×/÷ 1.25, then 1.5625, 2.44, ...).
constexpr double kFirstStep = 1.25;

class Search {
 public:
  Search(const StreamSpec& stream, const CapacitySettings& settings, const CapacityProbeFn& simulate)
      : stream_(stream), settings_(settings), simulate_(simulate) {
    out_.kind = load_kind(stream);
    out_.conversations = stream.conversation.turns > 1;
    if (stream.arrival.kind == ArrivalKind::trace) {  // the rows the stream sends, its warm-up as given
      if (!(offered_load(stream) > 0))
        throw InputError(
            "capacity search: the trace spans no time (fewer than two requests sent, or all at one "
            "timestamp), so "
            "it cannot be replayed faster or slower; search no finalist (simulate_top 0)");
      const std::uint64_t rows = std::min<std::uint64_t>(stream.requests, stream.trace->size());
      warmup_ = stream.warmup < rows ? stream.warmup : rows / 10;
      measured_ = std::max<std::uint64_t>(1, rows - warmup_);
      trace_ = true;
      return;
    }
    const std::uint64_t own = stream.requests > stream.warmup ? stream.requests - stream.warmup : 0;
    measured_ = std::max<std::uint64_t>({settings.min_requests, own, 1});
    warmup_ = std::max(stream.warmup, measured_ / 10);
  }

  Capacity run(double start) {
    const bool clients = out_.kind == LoadKind::clients;
    if (clients) start = std::max(1.0, std::round(start));
    if (!(start > 0) || !std::isfinite(start))
      throw std::invalid_argument("capacity search: the starting load must be positive and finite");
    const double floor = clients ? 1 : start / settings_.max_factor;
    const double ceiling = start * settings_.max_factor;
    double lo = 0, hi = 0;  // the largest load met, the smallest missed (0: none yet)
    // The bracket: steps of kFirstStep from the start, each step the square of the one before
    // (the analytical start is near: most searches bracket in one step).
    double step = kFirstStep;
    // The last step is cut to the floor or the ceiling, so that every load between is covered.
    if (probe(start)) {
      lo = start;
      for (;;) {
        if (lo >= ceiling) return finish(lo, hi, CapacityStop::ceiling);
        const double next = std::min(ceiling, clients ? std::max(lo + 1, std::round(lo * step)) : lo * step);
        if (spent()) return finish(lo, hi, CapacityStop::probe_limit);
        if (!probe(next)) {
          hi = next;
          break;
        }
        lo = next;
        step *= step;
      }
    } else {
      hi = start;
      for (;;) {
        if (hi <= floor) return finish(lo, hi, CapacityStop::none_met);
        const double next = std::max(floor, clients ? std::min(hi - 1, std::round(hi / step)) : hi / step);
        if (spent()) return finish(lo, hi, CapacityStop::probe_limit);
        if (probe(next)) {
          lo = next;
          break;
        }
        hi = next;
        step *= step;
      }
    }
    for (;;) {
      const bool narrow = clients ? hi - lo <= 1 : hi / lo - 1 <= settings_.tolerance;
      if (narrow) return finish(lo, hi, CapacityStop::converged);
      if (spent()) return finish(lo, hi, CapacityStop::probe_limit);
      const double mid = clients ? std::floor((lo + hi) / 2) : std::sqrt(lo * hi);
      if (probe(mid))
        lo = mid;
      else
        hi = mid;
    }
  }

 private:
  bool spent() const { return out_.probes.size() >= settings_.max_probes; }

  // Simulates the stream at `load`, growing an undecided probe; records it; true when it met
  // every target.
  bool probe(double load) {
    std::uint64_t measured = measured_;
    for (;;) {
      throw_if_cancelled();  // Ctrl-C between two simulations
      StreamSpec s = at_load(stream_, load);
      s.warmup = warmup_;
      s.requests = warmup_ + measured;
      const SimResult r = simulate_(s);
      CapacityProbe p = probe_of(load, r);
      const bool grow = !trace_ && undecided(r, p) && p.binding_precision > settings_.precision &&
                        measured < settings_.max_requests;
      if (!grow) {
        out_.probes.push_back(p);
        if (p.met && load >= out_.load) {
          out_.load = load;
          out_.at = p;
        }
        return p.met;
      }
      measured = settings_.max_requests;  // once: the interval narrows as 1/sqrt(requests) at best
    }
  }

  Capacity finish(double lo, double hi, CapacityStop stop) {
    out_.found = lo > 0;
    out_.load = lo;
    out_.upper = hi;
    out_.stop = stop;
    for (const CapacityProbe& p : out_.probes)
      if (!p.met && p.load == hi) out_.stopped_by = p.binding;
    if (!out_.found) out_.at = CapacityProbe{};
    return std::move(out_);
  }

  const StreamSpec& stream_;
  const CapacitySettings& settings_;
  const CapacityProbeFn& simulate_;
  std::uint64_t measured_ = 0, warmup_ = 0;
  bool trace_ = false;  // a trace's probe replays its rows: nothing to grow into
  Capacity out_;
};

}  // namespace

Capacity search_capacity(const StreamSpec& stream, double start_load, const CapacitySettings& settings,
                         const CapacityProbeFn& simulate) {
  return Search(stream, settings, simulate).run(start_load);
}

}  // namespace tessera::requests
