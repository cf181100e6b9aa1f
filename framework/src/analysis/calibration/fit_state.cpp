#include "analysis/calibration/fit_state.hpp"

#include <cmath>
#include <mutex>

#include "core/cancellation.hpp"
#include "host/plugin_defaults.hpp"
#include "scenario/sweeps/plugin_axes.hpp"
#include "tessera/error.hpp"

namespace tessera::calibration {

struct Predictor::Impl {
  const PluginRegistry* registry = nullptr;
  std::shared_ptr<const MemoryModel> memory;
  // Validated machine blocks by machine file; latency models with the shipped profile by key.
  mutable std::map<std::string, ParamSet> blocks;
  mutable std::map<std::string, std::shared_ptr<const LatencyModel>> shipped;

  PluginChoice choice(const std::string& latency, const FitRow& r) const {
    const bool takes_version =
        plugin_param_spec(*registry, PluginKind::latency, latency, "framework_version");
    PluginChoice c;
    c.name = latency;
    const SourceLocation at{r.file, 0, 0};
    if (!r.framework.empty()) c.params.push_back(RawParam{"framework", r.framework, {}, false, at});
    // The version only to a model that takes one (latency/measured does not).
    if (!r.version.empty() && takes_version)
      c.params.push_back(RawParam{"framework_version", r.version, {}, false, at});
    return c;
  }
};

Predictor::Predictor(const PluginRegistry& registry, std::string latency)
    : impl_(std::make_unique<Impl>()), latency_(std::move(latency)) {
  impl_->registry = &registry;
  PluginChoice mem;
  mem.name = plugin_defaults::kMemory;
  impl_->memory = registry.create_memory(mem);
}

Predictor::~Predictor() = default;

std::vector<double> Predictor::predict(const std::vector<const FitRow*>& all, const FitState& state) const {
  // Each distinct prediction once, then copied to the rows that share it.
  const DistinctRows distinct = distinct_predictions(all);
  const std::vector<double> once = predict_distinct(distinct.rows, state);
  std::vector<double> out(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) out[i] = once[distinct.of_row[i]];
  return out;
}

std::vector<double> Predictor::predict_distinct(const std::vector<const FitRow*>& rows,
                                                const FitState& state) const {
  std::vector<double> once(rows.size(), std::nan(""));
  std::map<std::string, std::shared_ptr<const LatencyModel>> fitted;  // this state's profiles
  // The machine block with the state's family values, per (machine file, family); the latency
  // model of the last profile: consecutive rows nearly always share both.
  std::map<std::pair<std::string, std::string>, ParamSet> blocks;
  const FitRow* last = nullptr;
  std::shared_ptr<const LatencyModel> lat;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i % 64 == 0) throw_if_cancelled();
    const FitRow& r = *rows[i];
    if (!r.prep) continue;  // nothing to predict from
    const std::string& file = r.prep->plan.machine_file;
    auto eff = blocks.find({file, r.family});
    if (eff == blocks.end()) {
      auto block = impl_->blocks.find(file);
      if (block == impl_->blocks.end())
        block = impl_->blocks
                    .emplace(file, impl_->registry->machine_params(latency_, r.prep->efficiency_raw, file))
                    .first;
      ParamSet set = block->second;
      if (const auto f = state.family.find(r.family); f != state.family.end())
        for (const auto& [name, v] : f->second) set.set(name, v);
      eff = blocks.emplace(std::make_pair(file, r.family), std::move(set)).first;
    }
    if (!last || last->framework != r.framework || last->version != r.version ||
        last->key_by_version != r.key_by_version) {
      const std::string key = r.profile_key();
      if (const auto p = state.profile.find(key); p != state.profile.end()) {
        auto& slot = fitted[key];
        if (!slot) {
          PluginChoice c = impl_->choice(latency_, r);
          std::string names;
          std::vector<PluginParamValue> set;
          for (const auto& [name, v] : p->second) {
            names += (names.empty() ? "" : ",") + name;
            set.push_back({PluginKind::latency, latency_, name, v, false});
          }
          c.params.push_back(RawParam{"profile_overrides", names, {}, false, SourceLocation{r.file, 0, 0}});
          slot = impl_->registry->create_latency(c, set);
        }
        lat = slot;
      } else {
        auto& slot = impl_->shipped[key];
        if (!slot) slot = impl_->registry->create_latency(impl_->choice(latency_, r));
        lat = slot;
      }
      last = &r;
    }
    try {
      once[i] = accuracy::predict_row(*r.prep, lat, eff->second, impl_->memory);
    } catch (const Error&) {
      once[i] = std::nan("");
    }
  }
  return once;
}

}  // namespace tessera::calibration
