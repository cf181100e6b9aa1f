// `tessera validate-data`: every row mapped once, then predicted with each latency model, and
// the errors gathered per source and per collective group.
#include "analysis/accuracy/accuracy_study.hpp"

#include <cmath>
#include <filesystem>
#include <map>
#include <optional>

#include "analysis/measurements/table_rows.hpp"
#include "core/cancellation.hpp"
#include "host/plugin_defaults.hpp"
#include "host/plugin_roles.hpp"
#include "tessera/error.hpp"
#include "tessera/limits.hpp"
#include "tessera/plugin/param_spec.hpp"

namespace tessera::accuracy {

namespace fs = std::filesystem;

namespace {

// The raw block latency plugin `name` reads from a machine file (host/plugin_roles.hpp), or none.
std::vector<RawParam> machine_block_params(const PluginRegistry& registry, const MachineFile& file,
                                           const std::string& name) {
  const MachineBlock* b = machine_block_for(registry, file.blocks, name);
  return b ? b->params : std::vector<RawParam>{};
}
// Progress and cancellation every 64 rows.
void row_progress(const ProgressCallback& cb, std::size_t done, std::size_t total, const char* phase) {
  if (done % 64 != 0) return;
  throw_if_cancelled();
  report_progress(cb, done, total, phase);
}
}  // namespace

std::vector<ModelReport> validate_data(const std::vector<DataRow>& rows, const PluginRegistry& registry,
                                       const ValidateOptions& options) {
  const std::string root = options.data_root.empty() ? std::string(".") : options.data_root;
  const Aliases aliases =
      load_aliases(options.aliases.empty() ? default_aliases_path(root) : options.aliases);

  // Plan and load every row once.
  std::vector<RowPlan> plans;
  std::vector<std::optional<PreparedRow>> prepared;
  PreparedFiles files;
  for (const DataRow& r : rows) {
    row_progress(options.on_progress, plans.size(), rows.size(), "rows prepared");
    plans.push_back(plan_row(r, aliases, root));
    prepared.emplace_back();
    if (options.latency_only && !is_latency_metric(r.metric)) continue;
    if (plans.back().mapped) {
      try {
        prepared.back() = prepare_row(r, plans.back(), files);
        // The raw efficiency block is kept once per machine file (in `files`), not per row.
        std::vector<RawParam>().swap(prepared.back()->efficiency_raw);
      } catch (const Error& e) {
        plans.back().mapped = false;
        plans.back().reason = e.what();
      }
    }
  }

  // Rows under a load are request simulations (tens of ms each, a capacity search up to 24 of
  // them): their count is a documented limit, checked before any prediction.
  {
    std::uint64_t load_rows = 0;
    for (const RowPlan& p : plans) load_rows += p.mapped && p.measure == Measure::under_load ? 1 : 0;
    if (load_rows > current_limits().validate_load_rows)
      throw InputError(
          "validate-data: " + std::to_string(load_rows) +
          " rows under a load to simulate (request rates, percentiles, MLPerf Server throughput), more "
          "than " +
          std::to_string(current_limits().validate_load_rows) + " " + limit_exceeded("validate.load_rows"));
  }

  PluginChoice memory_choice;
  memory_choice.name = plugin_defaults::kMemory;
  const std::shared_ptr<const MemoryModel> memory = registry.create_memory(memory_choice);
  std::shared_ptr<const ServingModel> serving;
  if (!options.serving.empty()) {
    PluginChoice serving_choice;
    serving_choice.name = options.serving;
    serving_choice.where = SourceLocation{"--serving", 0, 0};
    serving = registry.create_serving(serving_choice);
  }

  std::shared_ptr<const ServingModel> full_load_serving = serving;  // made when a full-load row needs it

  std::vector<ModelReport> reports;
  for (const std::string& name : options.latency) {
    const LoadedPlugin& plugin =
        registry.require(PluginKind::latency, name, SourceLocation{"--latency", 0, 0});
    bool has_serving_stack = false, has_version = false;
    const ParamSpec* serving_stack_param = nullptr;
    for (std::uint32_t i = 0; i < plugin.descriptor->param_count; ++i)
      if (std::string(plugin.descriptor->params[i].name) == "framework") {
        has_serving_stack = true;
        serving_stack_param = &plugin.descriptor->params[i];
      }
    for (std::uint32_t i = 0; i < plugin.descriptor->param_count; ++i)
      if (std::string(plugin.descriptor->params[i].name) == "framework_version") has_version = true;
    // A framework the alias table names but the plugin has no profile for (an enumeration
    // without it): the row is unmapped for this model, with that reason.
    auto knows_serving_stack = [&](const std::string& fw) {
      if (!serving_stack_param || serving_stack_param->type != ParamType::enumeration) return true;
      for (std::uint32_t c = 0; c < serving_stack_param->choice_count; ++c)
        if (fw == serving_stack_param->choices[c].value) return true;
      return false;
    };
    std::map<std::string, std::shared_ptr<const LatencyModel>> by_serving_stack;
    std::map<std::string, ParamSet> efficiency_by_machine;
    LoadCache load_cache;  // rows of one stream simulated once (analysis/accuracy/load_rows.hpp)

    ModelReport rep;
    rep.latency = name;
    // A model built from the kernel tables is never scored on a row one of its tables was built from.
    const std::map<std::string, std::string> built = has_role(registry, name, kRoleKernelTables)
                                                         ? table_build_rows(kernel_tables_dir(root))
                                                         : std::map<std::string, std::string>{};
    std::map<std::string, std::vector<double>> apes_by_source;
    std::vector<std::string> source_order;
    std::vector<double> all;
    std::map<std::string, std::vector<double>> apes_by_group;
    std::vector<std::string> group_order;
    std::map<std::string, std::vector<double>> serving_by_source;
    std::vector<std::string> serving_order;
    std::vector<double> serving_all;
    if (serving) rep.serving = options.serving;
    rep.simulate = options.simulate;
    std::map<std::string, std::vector<double>> simulated_by_source, simulated_by_metric;
    std::vector<std::string> simulated_source_order, simulated_metric_order;
    std::vector<double> simulated_all;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      row_progress(options.on_progress, reports.size() * rows.size() + i,
                   options.latency.size() * rows.size(), "rows predicted");
      const DataRow& r = rows[i];
      if (options.latency_only && !is_latency_metric(r.metric)) continue;
      const RowPlan& p = plans[i];
      if (!p.mapped || !prepared[i]) {
        rep.unmapped.push_back({r.id, r.source, r.metric, p.reason});
        if (options.simulate) {
          if (std::string why = rate_row_reason(r); !why.empty())
            rep.simulated_not_run.push_back({r.id, r.source, r.metric, why});
          else if (states_load(r))
            rep.simulated_not_run.push_back({r.id, r.source, r.metric, "not mapped: " + p.reason});
        }
        continue;
      }
      if (const auto b = built.find(r.id); b != built.end()) {
        rep.unmapped.push_back({r.id, r.source, r.metric, "used to build table " + b->second});
        continue;
      }
      const std::string fw = has_serving_stack ? p.framework : "";
      if (!knows_serving_stack(fw)) {
        rep.unmapped.push_back(
            {r.id, r.source, r.metric, "latency/" + name + " has no profile for framework '" + fw + "'"});
        continue;
      }
      const std::string version = has_version ? p.framework_version : "";
      auto& lat = by_serving_stack[fw + "@" + version];
      if (!lat) {
        PluginChoice c;
        c.name = name;
        if (has_serving_stack) {
          RawParam fp;
          fp.key = "framework";
          fp.text = fw;
          fp.where = SourceLocation{aliases.file, 0, 0};
          c.params.push_back(fp);
        }
        if (has_version && !version.empty()) {
          RawParam vp;
          vp.key = "framework_version";
          vp.text = version;
          vp.where = SourceLocation{aliases.file, 0, 0};
          c.params.push_back(vp);
        }
        lat = registry.create_latency(c);
      }
      auto eff = efficiency_by_machine.find(p.machine_file);
      if (eff == efficiency_by_machine.end())
        eff = efficiency_by_machine
                  .emplace(p.machine_file,
                           registry.machine_params(
                               name, machine_block_params(registry, files.machines.at(p.machine_file), name),
                               p.machine_file))
                  .first;
      double predicted = 0;
      CollectiveDetail detail;
      FullLoadAnswer full;
      LoadAnswer load;
      try {
        if (p.measure == Measure::full_load) {
          // A throughput at full load: serve --max-throughput's question, through the serving model
          // (--serving, else the default).
          if (!full_load_serving) {
            PluginChoice c;
            c.name = options.serving.empty() ? plugin_defaults::kServing : options.serving;
            c.where = SourceLocation{"--serving", 0, 0};
            full_load_serving = registry.create_serving(c);
          }
          full = predict_full_load_row(*prepared[i], lat, eff->second, memory, *full_load_serving);
          predicted = full.value;
        } else if (p.measure == Measure::under_load) {
          load = predict_load_row(*prepared[i], lat, eff->second, memory, &load_cache);
          predicted = load.value;
        } else {
          predicted = predict_row(*prepared[i], lat, eff->second, memory, &detail);
        }
      } catch (const Error& e) {
        rep.unmapped.push_back({r.id, r.source, r.metric, e.what()});
        continue;
      }
      RowResult res;
      res.id = r.id;
      res.source = r.source;
      res.metric = r.metric;
      res.unit = r.unit;
      res.framework = p.framework;
      res.framework_version = p.framework_version;
      res.bound = p.bound;
      if (p.measure == Measure::full_load) {
        res.full_load = true;
        res.full_load_batch = full.batch;
        res.full_load_kv_tokens = full.kv_tokens;
        res.engine = full.engine;
      }
      if (p.measure == Measure::under_load) {
        res.under_load = true;
        res.load = load;
        res.load_statistic = p.statistic;
        res.lengths_from = p.lengths_from;
        res.engine = p.engine_label;
      }
      res.measured = p.measured;
      res.predicted = predicted;
      res.ape = std::abs(predicted - p.measured) / p.measured;
      if (p.measure == Measure::collective) {
        res.is_collective = true;
        res.collective = prepared[i]->plan.collective;
        res.machine = fs::path(p.machine_file).stem().string();
        res.detail = detail;
        if (!apes_by_group.count(res.collective.group)) group_order.push_back(res.collective.group);
        apes_by_group[res.collective.group].push_back(res.ape);
      }
      if (!p.group.empty()) {
        if (!apes_by_group.count(p.group)) group_order.push_back(p.group);
        apes_by_group[p.group].push_back(res.ape);
      }
      // Rows whose hardware is ambiguous, and bounds, enter no median but their group's.
      if (!res.collective.apart && !res.bound) {
        if (!apes_by_source.count(r.source)) source_order.push_back(r.source);
        apes_by_source[r.source].push_back(res.ape);
        all.push_back(res.ape);
      }
      if (serving && serving_row_reason(r, p).empty()) {  // a row under a load has a reason
        try {
          res.serving_predicted = predict_serving_row(*prepared[i], lat, eff->second, memory, *serving);
          res.serving = true;
          res.serving_ape = std::abs(res.serving_predicted - p.measured) / p.measured;
          if (!serving_by_source.count(r.source)) serving_order.push_back(r.source);
          serving_by_source[r.source].push_back(res.serving_ape);
          serving_all.push_back(res.serving_ape);
        } catch (const Error& e) {
          rep.serving_unmapped.push_back({r.id, r.source, r.metric, e.what()});
        }
      }
      if (options.simulate && p.measure != Measure::under_load) {
        if (const std::string why = simulated_row_reason(r, p); !why.empty()) {
          // Only the rows that state a rate or a concurrency are listed: the rest are static.
          if (states_load(r)) rep.simulated_not_run.push_back({r.id, r.source, r.metric, why});
        } else {
          try {
            res.simulation = simulate_serving_row(*prepared[i], lat, eff->second, memory);
            res.simulated = true;
            res.simulated_ape = std::abs(res.simulation.predicted - p.measured) / p.measured;
            const std::string key = r.metric + " " + res.simulation.statistic;
            if (!simulated_by_source.count(r.source)) simulated_source_order.push_back(r.source);
            if (!simulated_by_metric.count(key)) simulated_metric_order.push_back(key);
            simulated_by_source[r.source].push_back(res.simulated_ape);
            simulated_by_metric[key].push_back(res.simulated_ape);
            simulated_all.push_back(res.simulated_ape);
            if (res.serving) {
              ++rep.simulated_compared;
              if (res.simulated_ape < res.serving_ape) ++rep.simulated_improved;
            }
          } catch (const Error& e) {
            rep.simulated_not_run.push_back({r.id, r.source, r.metric, e.what()});
          }
        }
      }
      rep.rows.push_back(std::move(res));
    }
    {
      std::map<std::string, std::size_t> at;
      std::map<std::string, std::vector<double>> apes;
      auto slot = [&](const std::string& m) -> ModelReport::MetricCount& {
        const auto it = at.find(m);
        if (it != at.end()) return rep.by_metric[it->second];
        at[m] = rep.by_metric.size();
        rep.by_metric.push_back({m, 0, 0, {}});
        return rep.by_metric.back();
      };
      for (const DataRow& r : rows)
        if (!options.latency_only || is_latency_metric(r.metric)) ++slot(r.metric).rows;
      for (const RowResult& r : rep.rows) {
        ++slot(r.metric).mapped;
        apes[r.metric].push_back(r.ape);
      }
      for (ModelReport::MetricCount& c : rep.by_metric) c.errors = error_stats(apes[c.metric]);
    }
    rep.serving_overall = error_stats(serving_all);
    rep.simulated_overall = error_stats(simulated_all);
    for (const std::string& k : simulated_source_order)
      rep.simulated_by_source.emplace_back(k, error_stats(simulated_by_source[k]));
    for (const std::string& k : simulated_metric_order)
      rep.simulated_by_metric.emplace_back(k, error_stats(simulated_by_metric[k]));
    for (const std::string& s : serving_order)
      rep.serving_by_source.emplace_back(s, error_stats(serving_by_source[s]));
    rep.overall = error_stats(all);
    for (const std::string& s : source_order) rep.by_source.emplace_back(s, error_stats(apes_by_source[s]));
    for (const std::string& g : group_order) rep.by_group.emplace_back(g, error_stats(apes_by_group[g]));
    reports.push_back(std::move(rep));
  }
  return reports;
}

}  // namespace tessera::accuracy
