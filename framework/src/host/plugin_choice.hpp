#pragma once
// A plugin choice as written: `overlap` or `{name: random, samples: 2000, seed: 7}`.
// Raw values keep their text and location; the host validates them against the chosen
// plugin's schema (host/param_check.hpp) once the plugin is known. The scenario loader
// fills these; the host never sees a scenario.
#include <string>
#include <vector>

#include "tessera/error.hpp"
#include "tessera/plugin/descriptor.hpp"

namespace tessera {

struct RawParam {
  std::string key;
  std::string text;                // scalar as written; for a list, items joined by ','
  std::vector<std::string> items;  // list items (empty for a scalar)
  bool is_list = false;
  SourceLocation where;
};

struct PluginChoice {
  std::string name;
  std::vector<RawParam> params;
  SourceLocation where;  // of the name
};

// One numeric parameter of a scenario plugin set to a value other than the scenario's: a point of a
// sweep.hardware axis plugins.<kind>.[<name>.]<param>, or a sensitivity perturbation. Applied to
// the validated parameter set of the plugin <kind>/<plugin> when it is created
// (PluginRegistry::create_*), so each point re-creates the affected plugin.
struct PluginParamValue {
  PluginKind kind = PluginKind::latency;
  std::string plugin;
  std::string param;
  double value = 0;      // SI
  bool integer = false;  // set as an integer in the ParamSet
};

}  // namespace tessera
