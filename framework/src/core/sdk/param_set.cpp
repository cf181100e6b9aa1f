// tessera/plugin/param_set.hpp: validated parameter values handed to a plugin.
#include "tessera/plugin/param_set.hpp"

#include "tessera/error.hpp"

namespace tessera {

void ParamSet::set(std::string name, ParamValue value) { values_[std::move(name)] = std::move(value); }

bool ParamSet::has(std::string_view name) const { return values_.find(name) != values_.end(); }

const ParamValue& ParamSet::at(std::string_view name) const {
  const auto it = values_.find(name);
  if (it == values_.end())
    throw PluginError("parameter '" + std::string(name) +
                      "' is not in the parameter set "
                      "(not declared in the plugin's schema?)");
  return it->second;
}

namespace {
[[noreturn]] void wrong_type(std::string_view name, const char* wanted) {
  throw PluginError("parameter '" + std::string(name) + "' is not " + wanted);
}
}  // namespace

std::int64_t ParamSet::integer(std::string_view name) const {
  const auto& v = at(name);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
  wrong_type(name, "an integer");
}

double ParamSet::real(std::string_view name) const {
  const auto& v = at(name);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  wrong_type(name, "a number");
}

bool ParamSet::boolean(std::string_view name) const {
  const auto& v = at(name);
  if (const auto* b = std::get_if<bool>(&v)) return *b;
  wrong_type(name, "a boolean");
}

const std::string& ParamSet::text(std::string_view name) const {
  const auto& v = at(name);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  wrong_type(name, "a string");
}

const std::vector<double>& ParamSet::list(std::string_view name) const {
  const auto& v = at(name);
  if (const auto* l = std::get_if<std::vector<double>>(&v)) return *l;
  wrong_type(name, "a list of numbers");
}

}  // namespace tessera
