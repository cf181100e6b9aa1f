#pragma once
// Validated, defaulted parameter values handed to a plugin's factory. Every declared
// parameter is present; quantities are SI doubles.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tessera/export.hpp"

namespace tessera {

using ParamValue = std::variant<bool, std::int64_t, double, std::string, std::vector<double>>;

class TESSERA_API ParamSet {
 public:
  void set(std::string name, ParamValue value);
  bool has(std::string_view name) const;
  bool empty() const { return values_.empty(); }

  // Typed access; a missing name or a wrong type throws PluginError (a plugin bug, since the
  // host has already validated the set against the plugin's schema).
  std::int64_t integer(std::string_view name) const;
  double real(std::string_view name) const;  // real, quantity (SI) or integer
  bool boolean(std::string_view name) const;
  const std::string& text(std::string_view name) const;  // string or enumeration
  const std::vector<double>& list(std::string_view name) const;

  const std::map<std::string, ParamValue, std::less<>>& values() const { return values_; }

 private:
  const ParamValue& at(std::string_view name) const;
  std::map<std::string, ParamValue, std::less<>> values_;
};

}  // namespace tessera
