#pragma once
// The preamble every study shares, under the CLI and Python alike (docs/architecture.md "The
// study façade"): the scenario (a file, the default, or YAML/JSON text; --set, --model,
// --machine applied), an optional edit of it (a --latency choice), its mode checked against
// the study's kind (exit 2 at `workload.mode`), the plugin registry (the plugin path and the
// overrides; Python shares one registry per plugin path) and the session on the scenario's first
// latency model, in that order: a bad scenario is reported before a missing plugin. Every plugin
// problem of the scenario (names, parameters, the machine's efficiency block) is reported
// together, at the scenario's lines, before any plugin is created.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "eval/session.hpp"
#include "host/plugin_registry.hpp"
#include "scenario/scenario.hpp"
#include "studies/scenario_options.hpp"
#include "studies/study_description.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/search_strategy.hpp"

namespace tessera::studies {

// Which scenarios a study takes: one step (run, explain, compare, sensitivity: a
// `workload.mode: serve` scenario is refused), requests (serve: only `workload.mode: serve`), or
// either (explore, which studies a serve scenario's hardware grid with the serving study).
enum class StudyKind : std::uint8_t { step, serve, either };

// The registry of one plugin path (extra folders before the defaults), created once per path on
// first use and shared (ScenarioOptions::shared_registry).
TESSERA_API std::shared_ptr<PluginRegistry> shared_registry(const std::vector<std::string>& plugin_paths);

// InputErrors at the scenario's `workload.mode` (the file alone when its line is unknown,
// `fallback_file` when the scenario has no file) unless the scenario is of `kind`; `refusal` is
// the message.
TESSERA_API void require_kind(const Scenario& scenario, StudyKind kind, const std::string& refusal,
                              const std::string& fallback_file = {});

// A copy of `scenario` with workload.scope = `scope` (the rest unchanged): a study's other scope
// (studies/documents/scope_documents.hpp).
TESSERA_API Scenario with_scope(const Scenario& scenario, Scope scope);

// Whether the plugin `name` of `kind` in `registry` was loaded from outside the shipped plugin
// folder (false when not registered).
TESSERA_API bool added_plugin(const PluginRegistry& registry, PluginKind kind, const std::string& name);

class TESSERA_API StudyContext {
 public:
  using Edit = std::function<void(Scenario&)>;
  // Loads the scenario, applies `edit`, checks the kind (refused with `refusal`, or the CLI's
  // message when empty), then the registry, the scenario's plugins and the session.
  explicit StudyContext(const ScenarioOptions& options, const Edit& edit = {},
                        StudyKind kind = StudyKind::either, const std::string& refusal = {});
  // A scenario already loaded (and edited): its plugins checked, the session created.
  StudyContext(Scenario scenario, const ScenarioOptions& options);
  StudyContext(const StudyContext&) = delete;
  StudyContext& operator=(const StudyContext&) = delete;

  const std::string& scenario_path() const { return path_; }  // as given, or the default's
  const Scenario& scenario() const { return scenario_; }
  const PluginRegistry& registry() const { return *registry_; }
  const std::shared_ptr<PluginRegistry>& registry_handle() const { return registry_; }
  // The session: its plugins created (on first use with ScenarioOptions::lazy_session).
  const Session& session() const;
  const std::vector<std::string>& plugin_paths() const { return plugin_paths_; }
  const ScenarioOptions& options() const { return options_; }
  // Whether a plugin the scenario uses comes from outside the shipped plugin folder (a study then
  // runs its work units in isolated workers unless told otherwise: studies/plugin_isolation.hpp).
  bool added_plugins() const { return added_plugins_; }
  // The scenario's search plugin (plugins.search).
  std::shared_ptr<SearchStrategy> create_search() const;
  // What the renderers read of the study (studies/study_description.hpp), built once on first use.
  const StudyDescription& description() const;

 private:
  void open_session();
  void create_session() const;

  ScenarioOptions options_;
  std::string path_;
  std::vector<std::string> plugin_paths_;
  Scenario scenario_;
  std::shared_ptr<PluginRegistry> registry_;  // before the session: outlives its plugins
  mutable std::once_flag session_once_;
  mutable std::unique_ptr<Session> session_;
  bool added_plugins_ = false;
  mutable std::once_flag described_;
  mutable std::unique_ptr<StudyDescription> description_;
};

}  // namespace tessera::studies
