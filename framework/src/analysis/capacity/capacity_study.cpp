#include "analysis/capacity/capacity_study.hpp"

#include <algorithm>
#include <cstdlib>
#include <type_traits>

#include "analysis/capacity/configuration_sim.hpp"
#include "analysis/capacity/disagg_point_sim.hpp"
#include "analysis/serving/serve_record_bytes.hpp"
#include "core/cancellation.hpp"
#include "core/checkpoint/byte_record.hpp"

namespace tessera::requests {

namespace {

// `spec` with `stream` in place of its own.
RequestsSpec with_stream(const RequestsSpec& spec, const StreamSpec& stream) {
  RequestsSpec s = spec;
  s.stream = stream;
  return s;
}

double per_pe(const Capacity& c, std::int64_t pes) {
  return c.found && pes > 0 ? c.at.output_tokens_per_s / static_cast<double>(pes) : 0;
}

double relative(double simulated, double analytical) {
  return analytical > 0 ? simulated / analytical - 1 : 0;
}

Finalist search_finalist(const Session& session, const ServeRecord& r, std::size_t rank,
                         const RequestsSpec& spec, const std::vector<SloTarget>& targets,
                         const CapacitySettings& settings) {
  Finalist f;
  f.analytical = r;
  f.study_rank = rank;
  bool first = true;
  const CapacityProbeFn probe = [&](const StreamSpec& stream) {
    SimOptions o;
    o.slo = targets;
    ReplicaKv kv;
    SimResult res = simulate_configuration(session, r.config, r.point, with_stream(spec, stream), o, &kv);
    if (first) f.kv = kv;
    first = false;
    return res;
  };
  f.capacity = search_capacity(spec.stream, analytical_load(r, spec.stream), settings, probe);
  f.tokens_per_s_per_pe = per_pe(f.capacity, r.pes);
  f.difference = relative(f.tokens_per_s_per_pe, r.tokens_per_s_per_pe);
  return f;
}

// A finalist searched in another process (an MPI rank), as bytes: every field read back equal.
void write_finalist(ByteWriter& w, const Finalist& f) {
  static_assert(std::is_trivially_copyable_v<ReplicaKv> && std::is_trivially_copyable_v<CapacityProbe>,
                "a finalist's parts travel as bytes");
  write_serve_record(w, f.analytical);
  w.put<std::uint64_t>(f.study_rank);
  w.put(f.kv);
  const Capacity& c = f.capacity;
  w.put(c.kind);
  w.put(c.found);
  w.put(c.load);
  w.put(c.upper);
  w.put<std::uint64_t>(c.stopped_by);
  w.put(c.at);
  w.put_list(c.probes);
  w.put(c.stop);
  w.put(f.tokens_per_s_per_pe);
  w.put(f.difference);
}

Finalist read_finalist(ByteReader& r) {
  Finalist f;
  f.analytical = read_serve_record(r);
  f.study_rank = static_cast<std::size_t>(r.get<std::uint64_t>());
  f.kv = r.get<ReplicaKv>();
  Capacity& c = f.capacity;
  c.kind = r.get<LoadKind>();
  c.found = r.get<bool>();
  c.load = r.get<double>();
  c.upper = r.get<double>();
  c.stopped_by = static_cast<std::size_t>(r.get<std::uint64_t>());
  c.at = r.get<CapacityProbe>();
  c.probes = r.get_list<CapacityProbe>();
  c.stop = r.get<CapacityStop>();
  f.tokens_per_s_per_pe = r.get<double>();
  f.difference = r.get<double>();
  return f;
}

}  // namespace

std::vector<SloTarget> capacity_targets(const ServingSlo& slo) {
  std::vector<SloTarget> t = slo.targets;
  if (slo.min_tokens_per_s_per_user > 0) {
    SloTarget floor;
    floor.metric = SloLatency::tpot;
    floor.percentile = 0;
    floor.limit_s = 1 / slo.min_tokens_per_s_per_user;
    t.push_back(floor);
  }
  return t;
}

double analytical_load(const ServeRecord& r, const StreamSpec& stream) {
  if (load_kind(stream) == LoadKind::clients)
    return static_cast<double>(std::max<std::int64_t>(1, r.point.batch * r.replicas));
  const double rate = r.metrics.requests_per_s * static_cast<double>(r.replicas);
  return rate > 0 ? rate : 1;
}

CapacityStudy confirm_finalists(const Session& session, const std::vector<ServeRecord>& ranked,
                                const RequestsSpec& spec, const ServingSlo& slo,
                                const CapacityStudyOptions& options) {
  CapacityStudy out;
  out.settings = options.settings;
  out.kind = load_kind(spec.stream);
  out.requested = options.top;
  out.targets = capacity_targets(slo);
  const std::size_t k = std::min(options.top, ranked.size());
  std::vector<Finalist> found(k);
  const std::size_t unit = std::max<std::size_t>(1, options.unit_size);
  const std::size_t units = (k + unit - 1) / unit;
  ThreadExecutor own(options.threads);
  Executor& executor = options.executor ? *options.executor : own;
  const UnitCodec codec{
      .save =
          [&](std::size_t u, ByteWriter& w) {
            for (std::size_t i = u * unit; i < std::min(k, (u + 1) * unit); ++i) write_finalist(w, found[i]);
          },
      .load =
          [&](std::size_t u, ByteReader& r) {
            for (std::size_t i = u * unit; i < std::min(k, (u + 1) * unit); ++i) found[i] = read_finalist(r);
            if (!r.done()) r.fail();
          },
      .describe = [](std::size_t u) { return "finalists of unit " + std::to_string(u + 1); },
      .everywhere = true};
  executor.execute(
      units,
      [&](std::size_t u, const UnitSlot&) {
        for (std::size_t i = u * unit; i < std::min(k, (u + 1) * unit); ++i) {
          throw_if_cancelled();
          found[i] = search_finalist(session, ranked[i], i + 1, spec, out.targets, options.settings);
        }
      },
      [&](std::size_t u) {
        report_progress(options.on_progress, std::min(k, (u + 1) * unit), k, "finalists");
        throw_if_cancelled();
      },
      codec);
  // The analytical ranking compared: by analytical tokens/s/PE (ties: the study's order).
  std::vector<std::size_t> order(found.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return found[a].analytical.tokens_per_s_per_pe > found[b].analytical.tokens_per_s_per_pe;
  });
  for (std::size_t i = 0; i < order.size(); ++i) found[order[i]].analytical_rank = i + 1;
  // The simulated ranking: by tokens/s/PE at capacity (ties: the analytical rank).
  std::sort(found.begin(), found.end(), [](const Finalist& a, const Finalist& b) {
    if (a.tokens_per_s_per_pe != b.tokens_per_s_per_pe) return a.tokens_per_s_per_pe > b.tokens_per_s_per_pe;
    return a.analytical_rank < b.analytical_rank;
  });
  for (std::size_t i = 0; i < found.size(); ++i) {
    Finalist& f = found[i];
    f.simulated_rank = i + 1;
    const auto shift = static_cast<std::size_t>(
        std::abs(static_cast<long long>(f.simulated_rank) - static_cast<long long>(f.analytical_rank)));
    f.moved = shift > kRankShiftFlag;
  }
  out.finalists = std::move(found);
  return out;
}

PairCapacity pair_capacity(const Session& prefill, const Session& decode, const DisaggPair& pair,
                           const RequestsSpec& spec, const ServingSlo& slo,
                           const CapacitySettings& settings) {
  PairCapacity out;
  out.pair = pair;
  const std::vector<SloTarget> targets = capacity_targets(slo);
  const CapacityProbeFn probe = [&](const StreamSpec& stream) {
    SimOptions o;
    o.slo = targets;
    return simulate_pair(prefill, decode, pair, with_stream(spec, stream), o).result;
  };
  double start = pair.requests_per_s > 0 ? pair.requests_per_s : 1;
  if (load_kind(spec.stream) == LoadKind::clients)
    start = static_cast<double>(pair.y * pair.decode.config.dp * pair.decode.batch);
  out.capacity = search_capacity(spec.stream, start, settings, probe);
  out.tokens_per_s_per_pe = per_pe(out.capacity, pair.pes);
  out.difference = relative(out.tokens_per_s_per_pe, pair.tokens_per_s_per_pe);
  return out;
}

}  // namespace tessera::requests
