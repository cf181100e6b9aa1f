#include "studies/study_context.hpp"

#include <map>
#include <mutex>

#include <filesystem>
#include <system_error>

#include "eval/plugin_check.hpp"
#include "host/load_probe.hpp"
#include "host/plugin_discovery.hpp"
#include "tessera/error.hpp"

namespace tessera::studies {
namespace {

// The CLI's refusal of a scenario of the other kind.
std::string cli_refusal(const Scenario& s) {
  return s.workload.mode == Mode::serve ? "workload.mode is serve: use `tessera serve`"
                                        : "tessera serve needs workload.mode: serve";
}

// Whether a plugin the scenario uses was loaded from outside the shipped plugin folder.
bool uses_added_plugins(const Scenario& s, const PluginRegistry& registry) {
  const auto added = [&](PluginKind kind, const PluginChoice& c) {
    return added_plugin(registry, kind, c.name);
  };
  bool any = added(PluginKind::memory, s.plugins.memory) || added(PluginKind::search, s.plugins.search) ||
             (s.workload.mode == Mode::serve && added(PluginKind::serving, s.plugins.serving)) ||
             (s.workload.mode == Mode::serve && added(PluginKind::scheduler, s.plugins.scheduler));
  for (const PluginChoice& c : s.plugins.latency) any = any || added(PluginKind::latency, c);
  for (const PluginChoice& c : s.plugins.objectives) any = any || added(PluginKind::objective, c);
  return any;
}

}  // namespace

bool added_plugin(const PluginRegistry& registry, PluginKind kind, const std::string& name) {
  if (name.empty()) return false;
  const LoadedPlugin* p = registry.find(kind, name);
  if (!p) return false;
  const std::string shipped = shipped_plugin_dir();
  std::error_code ec;
  const std::filesystem::path home =
      shipped.empty() ? std::filesystem::path() : std::filesystem::weakly_canonical(shipped, ec);
  return home.empty() || std::filesystem::weakly_canonical(p->absolute_path, ec).parent_path() != home;
}

namespace {

Scenario load(const ScenarioOptions& o, const std::string& path) {
  if (o.text && o.text->from_file)
    return load_scenario_file_text(o.text->text, o.text->label, o.text->base_dir, o.load);
  if (o.text) return load_scenario_text(o.text->text, o.text->label, o.text->base_dir, o.load);
  return load_scenario(path, o.load);
}

}  // namespace

std::shared_ptr<PluginRegistry> shared_registry(const std::vector<std::string>& plugin_paths) {
  static std::mutex mutex;
  static std::map<std::vector<std::string>, std::shared_ptr<PluginRegistry>> registries;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& r = registries[plugin_paths];
  if (!r) r = std::make_shared<PluginRegistry>(plugin_paths);
  return r;
}

void require_kind(const Scenario& s, StudyKind kind, const std::string& refusal,
                  const std::string& fallback_file) {
  const bool serve = s.workload.mode == Mode::serve;
  if (kind == StudyKind::either || serve == (kind == StudyKind::serve)) return;
  SourceLocation where = s.mode_where;
  if (where.file.empty()) where = SourceLocation{s.file.empty() ? fallback_file : s.file, 0, 0};
  throw InputErrors({Diagnostic{where, refusal.empty() ? cli_refusal(s) : refusal}});
}

Scenario with_scope(const Scenario& scenario, Scope scope) {
  Scenario s = scenario;
  s.workload.scope = scope;
  return s;
}

StudyContext::StudyContext(const ScenarioOptions& options, const Edit& edit, StudyKind kind,
                           const std::string& refusal)
    : options_(options),
      path_(options.text || !options.path.empty() ? options.path : default_scenario_path(options.load)),
      plugin_paths_(options.plugin_paths),
      scenario_(load(options, path_)) {
  if (edit) edit(scenario_);
  require_kind(scenario_, kind, refusal, path_);
  open_session();
}

StudyContext::StudyContext(Scenario scenario, const ScenarioOptions& options)
    : options_(options),
      path_(scenario.file),
      plugin_paths_(options.plugin_paths),
      scenario_(std::move(scenario)) {
  open_session();
}

const StudyDescription& StudyContext::description() const {
  std::call_once(described_,
                 [&] { description_ = std::make_unique<StudyDescription>(describe_study(session())); });
  return *description_;
}

void StudyContext::open_session() {
  if (options_.shared_registry) {
    registry_ = shared_registry(plugin_paths_);
    try {
      require_scenario_plugins(scenario_, *registry_);
    } catch (const InputErrors& e) {
      // A plugin the scenario names whose library failed the load probe (host/load_probe.hpp).
      for (const auto& f : registry_->failures())
        if (f.message.find(kInitialiserFailure) != std::string::npos)
          for (const auto& d : e.diagnostics())
            if (d.message.find(f.path) != std::string::npos) throw PluginError(f.message);
      throw;
    }
  } else {
    registry_ = std::make_shared<PluginRegistry>(plugin_paths_, true, options_.plugin_overrides);
    // Every plugin problem of the scenario at once (as `validate` reports them), before a
    // session creates any plugin.
    require_scenario_plugins(scenario_, *registry_);
  }
  added_plugins_ = uses_added_plugins(scenario_, *registry_);
  if (!options_.lazy_session || !added_plugins_) (void)session();
}

const Session& StudyContext::session() const {
  std::call_once(session_once_, [this] { create_session(); });  // a failure leaves it to the next call
  return *session_;
}

void StudyContext::create_session() const {
  if (options_.before_session) options_.before_session(scenario_, added_plugins_);
  session_ = std::make_unique<Session>(scenario_, *registry_);
}

std::shared_ptr<SearchStrategy> StudyContext::create_search() const {
  return registry_->create_search(scenario_.plugins.search);
}

}  // namespace tessera::studies
