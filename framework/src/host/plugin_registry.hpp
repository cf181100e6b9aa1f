#pragma once
// Discovers, loads and owns plugin libraries (Boost.DLL). Created before and destroyed after
// every plugin object; never unloads during a run. Objects are handed out as shared_ptrs whose
// deleter also holds the library.
//
// Loading is lazy: the search path is listed on the first lookup, and a lookup by id loads only
// the libraries that may provide it (plugin_discovery.hpp: the file name encodes kind and name;
// a library named otherwise is loaded for every lookup). A miss, names() and plugins_of() load
// every library of that kind; discover() loads everything. Lookups happen on the main thread.
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host/plugin_choice.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/latency_model.hpp"
#include "tessera/kinds/memory_model.hpp"
#include "tessera/kinds/objective.hpp"
#include "tessera/kinds/scheduler_policy.hpp"
#include "tessera/kinds/search_strategy.hpp"
#include "tessera/kinds/serving_model.hpp"
#include "tessera/plugin/descriptor.hpp"
#include "tessera/plugin/param_set.hpp"

namespace tessera {

struct LoadedPlugin {
  const PluginDescriptor* descriptor = nullptr;
  std::string path;
  // Taken when the library was loaded (a later relink or chdir does not change them): the path
  // made absolute, and the SHA-256 of the file (nullopt when it could not be read).
  std::string absolute_path;
  std::optional<std::string> sha256;
  // The shipped library this one replaces (the shipped plugin folder holds a library of the same
  // id, and the caller allowed it with --plugin-override); "" for every other plugin.
  std::string replaces;
  TESSERA_API std::string id() const;  // "<kind>/<name>"
  std::shared_ptr<void> library;       // keeps the shared library mapped
};

// A plugin that could not be loaded, with the reason (never dropped silently).
struct PluginLoadFailure {
  std::string path;
  std::string message;
};

class TESSERA_API PluginRegistry {
 public:
  // Searches, in order: `extra_paths` (--plugin-path), TESSERA_PLUGIN_PATH (':'-separated),
  // the build tree's plugin folder, $ORIGIN/../lib/tessera/plugins of the executable.
  // With `default_locations` false only `extra_paths` are searched (tests, fixtures).
  //
  // A library outside the shipped plugin folder (plugin_discovery.hpp) that provides the id of a
  // shipped plugin is refused - a lookup of that id is then an InputError naming both files and
  // the flag - unless `overrides` names it: "<kind>/<name>" or a bare name (every kind). Then the
  // library replaces the shipped plugin (LoadedPlugin::replaces) and the shipped one is not
  // loaded. An override that names no shipped plugin is an InputError with the nearest name.
  explicit PluginRegistry(std::vector<std::string> extra_paths = {}, bool default_locations = true,
                          const std::vector<std::string>& overrides = {});
  ~PluginRegistry();
  PluginRegistry(const PluginRegistry&) = delete;
  PluginRegistry& operator=(const PluginRegistry&) = delete;

  void discover();                          // loads every plugin in the search path now
  bool load_file(const std::string& path);  // one library; false + failure recorded

  // What has been loaded (and what failed to load) so far; after discover(), everything.
  // Elements keep their addresses while more plugins are loaded.
  const std::deque<LoadedPlugin>& plugins() const;
  // The plugins loaded so far, copied under the registry's lock (another thread may be loading).
  std::vector<LoadedPlugin> loaded() const;
  const std::vector<PluginLoadFailure>& failures() const;
  const std::vector<std::string>& search_path() const;

  // nullptr when absent. Loads the libraries that may provide <kind>/<name> first (and on a
  // miss every library of that kind).
  const LoadedPlugin* find(PluginKind kind, const std::string& name) const;
  // The registered plugins of one kind, sorted by name (loads every library of that kind).
  std::vector<const LoadedPlugin*> plugins_of(PluginKind kind) const;
  std::vector<std::string> names(PluginKind kind) const;
  // Why a library providing <kind>/<name> was refused (it has a shipped plugin's id and no
  // override allows it), or nullptr. Only libraries loaded so far count.
  const std::string* refusal(PluginKind kind, const std::string& name) const;
  // Throws InputError naming what is registered for that kind and the nearest name, or why a
  // library with that id was refused.
  const LoadedPlugin& require(PluginKind kind, const std::string& name, const SourceLocation& where) const;

  // Checks a choice without creating anything: the name is registered and its parameters
  // satisfy the schema. Problems are appended to `diagnostics` (for `tessera validate`,
  // which collects every error); returns the validated set (partial when problems exist).
  ParamSet check_choice(PluginKind kind, const PluginChoice& choice,
                        std::vector<Diagnostic>& diagnostics) const;
  // The same, throwing InputErrors when anything is wrong.
  ParamSet validate_choice(PluginKind kind, const PluginChoice& choice) const;

  // Validates `choice.params` against the plugin's schema (all errors collected, InputErrors)
  // and creates the object through the exception barrier (PluginError naming id, version, path).
  // The object comes wrapped in the barrier's proxy (guarded_plugins.hpp): every later call
  // into it is guarded and its results checked too.
  // `set`: numeric parameters given other values than the choice's (a hardware point's or a
  // sensitivity perturbation's); those of this plugin (same kind and name) replace the validated
  // values before the factory runs.
  std::shared_ptr<LatencyModel> create_latency(const PluginChoice& choice,
                                               const std::vector<PluginParamValue>& set = {}) const;
  std::shared_ptr<MemoryModel> create_memory(const PluginChoice& choice,
                                             const std::vector<PluginParamValue>& set = {}) const;
  std::shared_ptr<SearchStrategy> create_search(const PluginChoice& choice,
                                                const std::vector<PluginParamValue>& set = {}) const;
  std::shared_ptr<Objective> create_objective(const PluginChoice& choice,
                                              const std::vector<PluginParamValue>& set = {}) const;
  std::shared_ptr<ServingModel> create_serving(const PluginChoice& choice) const;
  std::shared_ptr<SchedulerPolicy> create_scheduler(const PluginChoice& choice) const;

  // Validates a machine's `efficiency:` block against a latency plugin's machine schema.
  ParamSet machine_params(const std::string& latency_name, const std::vector<RawParam>& raw,
                          const std::string& machine_file) const;
  // Validates the machine block a latency plugin reads (nullptr: none, every parameter at its
  // default) against its machine schema; `label` names the block in messages.
  ParamSet machine_block(const std::string& latency_name, const std::vector<RawParam>& raw,
                         const std::string& label, const std::string& machine_file) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Validates raw values against a schema: fills defaults, converts units, checks ranges and
// choices. Collects all problems as diagnostics (with "did you mean" for unknown keys).
// Messages read `<owner>: parameter 'samples': expected an integer ≥ 1, found '-5'`, located
// at the value; a missing required parameter is located at `where` (the plugin's name).
TESSERA_API ParamSet validate_params(const ParamSpec* specs, std::uint32_t count,
                                     const std::vector<RawParam>& raw, const std::string& owner,
                                     std::vector<Diagnostic>& diagnostics);
TESSERA_API ParamSet validate_params(const ParamSpec* specs, std::uint32_t count,
                                     const std::vector<RawParam>& raw, const std::string& owner,
                                     const SourceLocation& where, std::vector<Diagnostic>& diagnostics);

// The plugin kind named `name` ("latency"), or nullopt.
TESSERA_API std::optional<PluginKind> parse_plugin_kind(std::string_view name);

}  // namespace tessera
