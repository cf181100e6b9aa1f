// The plugins as JSON (`tessera plugins --json`, the Python module's tessera.plugins()).
#include "studies/json/plugin_listing.hpp"

#include <cmath>
#include <cstdint>
#include <variant>

#include "host/param_check.hpp"
#include "tessera/plugin/param_spec.hpp"
#include "tessera/units.hpp"

namespace tessera {
namespace {

nlohmann::json json_value(const ParamValue& v) {
  return std::visit([](const auto& x) { return nlohmann::json(x); }, v);
}

// A range bound in SI; null when unbounded; integral for integer parameters.
nlohmann::json json_bound(const ParamSpec& s, double v) {
  if (!std::isfinite(v)) return nullptr;
  if (s.type == ParamType::integer && std::abs(v) < 9.2e18) return static_cast<std::int64_t>(v);
  return v;
}

nlohmann::json json_params(const ParamSpec* specs, std::uint32_t count) {
  auto out = nlohmann::json::array();
  for (std::uint32_t i = 0; i < count; ++i) {
    const ParamSpec& s = specs[i];
    nlohmann::json p;
    p["name"] = s.name;
    p["type"] = param_type_name(s.type);
    p["unit"] = param_unit(s);
    p["dimension"] =
        s.type == ParamType::quantity ? nlohmann::json(dimension_name(s.dimension)) : nlohmann::json(nullptr);
    const auto def = default_param_value(s);
    p["default"] = def ? json_value(*def) : nlohmann::json(nullptr);
    p["default_text"] = s.default_value ? nlohmann::json(s.default_value) : nlohmann::json(nullptr);
    p["required"] = s.default_value == nullptr;
    p["min"] = json_bound(s, s.min);
    p["max"] = json_bound(s, s.max);
    auto choices = nlohmann::json::array();
    for (std::uint32_t c = 0; c < s.choice_count && s.choices; ++c)
      choices.push_back(
          {{"value", s.choices[c].value}, {"meaning", s.choices[c].meaning ? s.choices[c].meaning : ""}});
    p["choices"] = std::move(choices);
    p["help"] = s.help ? s.help : "";
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

nlohmann::json plugins_json(const std::vector<const LoadedPlugin*>& plugins) {
  auto out = nlohmann::json::array();
  for (const LoadedPlugin* p : plugins) {
    const PluginDescriptor& d = *p->descriptor;
    nlohmann::json j;
    j["id"] = p->id();
    j["kind"] = plugin_kind_name(d.kind);
    j["name"] = d.name;
    j["version"] = d.version;
    j["summary"] = d.summary;
    j["abi"] = d.abi_version;
    j["kind_version"] = d.kind_version;
    j["framework_version"] = d.framework_version ? d.framework_version : "";
    j["path"] = p->path;
    j["params"] = json_params(d.params, d.param_count);
    j["machine_params"] = json_params(d.machine_params, d.machine_param_count);
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace tessera
