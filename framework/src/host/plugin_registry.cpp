// The plugin registry: owns every loaded library, registers plugins by id, validates
// choices against their schemas and creates plugin objects behind the exception barrier.
#include "host/plugin_registry.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>

#include "core/sha256.hpp"
#include "core/text/nearest_name.hpp"
#include "host/guarded_plugins.hpp"
#include "host/plugin_barrier.hpp"
#include "host/plugin_discovery.hpp"
#include "host/plugin_loader.hpp"
#include "host/plugin_roles.hpp"

namespace tessera {

std::string LoadedPlugin::id() const {
  if (!descriptor) return "";
  return std::string(plugin_kind_name(descriptor->kind)) + "/" + descriptor->name;
}

std::string describe_plugin(const LoadedPlugin& plugin) {
  std::string s = "plugin " + plugin.id();
  if (plugin.descriptor && plugin.descriptor->version) s += std::string(" ") + plugin.descriptor->version;
  return s + " (" + plugin.path + ")";
}

void throw_plugin_failure(const LoadedPlugin& plugin, std::string_view action, const std::string& message,
                          bool input_error) {
  std::string m = describe_plugin(plugin);
  if (!action.empty()) m += " " + std::string(action);
  m += ": " + message;
  if (input_error) throw InputError(m);
  throw PluginError(m);
}

struct PluginRegistry::Impl {
  std::vector<std::string> search_path;
  std::deque<LoadedPlugin> plugins;  // a deque: find() results stay valid as more are loaded
  std::vector<PluginLoadFailure> failures;
  std::set<std::string> tried;          // canonical paths of every library looked at
  std::set<std::string> explicit_dirs;  // the folders named by the caller (--plugin-path)
  // The shipped plugin folder (canonical; "" without default locations) and its libraries by the
  // id their file names give, listed on first use.
  std::string shipped_dir;
  std::optional<std::map<std::string, std::string>> shipped;
  std::vector<std::string> overrides;          // "<kind>/<name>" or "<name>", as given
  std::map<std::string, std::string> refused;  // id -> why its replacement was refused
  // The libraries of the search path in discovery order, listed once; each loaded at most once.
  bool listed = false;
  std::vector<std::string> candidates;
  std::vector<bool> attempted;
  std::recursive_mutex mutex;  // lookups are const and may load

  void list_candidates() {
    if (listed) return;
    listed = true;
    for (const auto& folder : search_path) {
      std::error_code ec;
      if (!std::filesystem::is_directory(folder, ec)) {
        // A folder the user named explicitly deserves a word; the default ones may well be absent.
        if (explicit_dirs.count(folder)) spdlog::warn("plugin folder {} does not exist", folder);
        continue;
      }
      const auto files = plugin_files_in(folder);
      spdlog::debug("plugin folder {}: {} librar{}", folder, files.size(), files.size() == 1 ? "y" : "ies");
      for (const auto& f : files) candidates.push_back(f);
    }
    attempted.assign(candidates.size(), false);
  }

  // Loads, in discovery order, every library not yet tried that may provide <kind>/<name>
  // (any name of `kind` when `name` is empty; every library when `kind` is empty).
  void load_candidates(PluginRegistry& self, std::optional<PluginKind> kind, const std::string& name) {
    list_candidates();
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (attempted[i]) continue;
      if (kind && !library_may_provide(candidates[i], *kind, name)) continue;
      attempted[i] = true;
      self.load_file(candidates[i]);
    }
  }

  const LoadedPlugin* registered(PluginKind kind, const std::string& name) const {
    for (const auto& p : plugins)
      if (p.descriptor->kind == kind && name == p.descriptor->name) return &p;
    return nullptr;
  }

  const std::map<std::string, std::string>& shipped_ids() {
    if (!shipped) {
      shipped.emplace();
      if (!shipped_dir.empty())
        for (const std::string& f : plugin_files_in(shipped_dir))
          if (const auto named = plugin_named_by_file(f))
            shipped->emplace(std::string(plugin_kind_name(named->kind)) + "/" + named->name, f);
    }
    return *shipped;
  }

  // Whether the file (links resolved: a link elsewhere to a shipped library is that library) lies
  // in the shipped folder.
  bool from_shipped_dir(const std::string& path) const {
    return !shipped_dir.empty() &&
           std::filesystem::path(canonical_key(path)).parent_path().string() == shipped_dir;
  }

  bool overridden(const LoadedPlugin& p) const {
    return std::any_of(overrides.begin(), overrides.end(),
                       [&](const std::string& o) { return o == p.id() || o == p.descriptor->name; });
  }

  void fail(const std::string& path, std::string message) {
    spdlog::warn("{}", message);
    failures.push_back({path, std::move(message)});
  }

  // The fallback of latency plugin `p` (its descriptor's fallback), created from the choice's
  // parameters that the fallback declares; chains are followed kMaxFallbackDepth deep.
  std::shared_ptr<const LatencyModel> create_fallback(const PluginRegistry& self, const LoadedPlugin& p,
                                                      const PluginChoice& choice,
                                                      const std::vector<PluginParamValue>& set,
                                                      int depth) const {
    const std::string name = p.descriptor->fallback;
    if (depth >= kMaxFallbackDepth)
      throw PluginError(describe_plugin(p) + " failed to create: its fallbacks go more than " +
                        std::to_string(kMaxFallbackDepth) + " deep (a cycle?) at latency/" + name);
    const LoadedPlugin* f = self.find(PluginKind::latency, name);
    if (!f || self.refusal(PluginKind::latency, name))
      throw PluginError(describe_plugin(p) + " failed to create: it falls back on latency/" + name +
                        ", which is not installed or was refused");
    // Each parameter both declare, as this plugin has it: as written, else at this plugin's
    // default (measured's `framework: generic` is not calibrated's default).
    PluginChoice fc;
    fc.name = name;
    fc.where = choice.where;
    const PluginDescriptor& own = *p.descriptor;
    for (std::uint32_t i = 0; i < f->descriptor->param_count; ++i) {
      const std::string key = f->descriptor->params[i].name;
      const auto given = std::find_if(choice.params.begin(), choice.params.end(),
                                      [&](const RawParam& r) { return r.key == key; });
      if (given != choice.params.end()) {
        fc.params.push_back(*given);
        continue;
      }
      for (std::uint32_t j = 0; j < own.param_count; ++j)
        if (key == own.params[j].name && own.params[j].default_value && *own.params[j].default_value) {
          RawParam r;
          r.key = key;
          r.text = own.params[j].default_value;
          r.where = choice.where;
          fc.params.push_back(r);
        }
    }
    std::vector<PluginParamValue> fset;
    for (const PluginParamValue& v : set)
      if (v.kind == PluginKind::latency && v.plugin == choice.name) {
        PluginParamValue w = v;
        w.plugin = name;
        for (std::uint32_t i = 0; i < f->descriptor->param_count; ++i)
          if (w.param == f->descriptor->params[i].name) fset.push_back(w);
      }
    try {
      return create<LatencyModel>(self, PluginKind::latency, fc, "LatencyModel", fset, depth + 1);
    } catch (const InputErrors& e) {
      // Its parameters were given to this plugin: say whose fallback refused them.
      std::vector<Diagnostic> said;
      for (const Diagnostic& d : e.diagnostics())
        said.push_back({d.where, p.id() + " falls back on latency/" + name + ": " + d.message});
      throw InputErrors(std::move(said));
    }
  }

  template <class T>
  std::shared_ptr<T> create(const PluginRegistry& self, PluginKind kind, const PluginChoice& choice,
                            const char* interface_name, const std::vector<PluginParamValue>& set = {},
                            int depth = 0) const {
    const LoadedPlugin& p = self.require(kind, choice.name, choice.where);
    std::vector<Diagnostic> diagnostics;
    ParamSet params = validate_params(p.descriptor->params, p.descriptor->param_count, choice.params,
                                      "plugin " + p.id(), choice.where, diagnostics);
    if (!diagnostics.empty()) throw InputErrors(std::move(diagnostics));
    for (const PluginParamValue& v : set) {
      if (v.kind != kind || v.plugin != choice.name) continue;
      if (!params.has(v.param))
        throw InputError("plugin " + p.id() + " has no parameter '" + v.param + "' to set");
      if (v.integer)
        params.set(v.param, static_cast<std::int64_t>(std::llround(v.value)));
      else
        params.set(v.param, v.value);
    }

    PluginObject* object = nullptr;
    if (p.descriptor->create_with_fallback) {
      // A latency model that falls back on another: the host creates the fallback (from the
      // parameters both declare) and hands it over (docs/plugin-guide.md "Roles").
      std::shared_ptr<const LatencyModel> fallback = create_fallback(self, p, choice, set, depth);
      const auto factory = p.descriptor->create_with_fallback;
      object = call_plugin(
          p, "create", [&] { return factory(params, fallback); }, "failed to create");
    } else {
      const auto factory = p.descriptor->create;
      object = call_plugin(
          p, "create", [&] { return factory(params); }, "failed to create");
    }
    if (!object) throw PluginError(describe_plugin(p) + " failed to create: the factory returned no object");
    T* typed = dynamic_cast<T*>(object);
    if (!typed) {
      call_plugin(
          p, "destroy", [&] { delete object; }, "failed to destroy");
      throw PluginError(describe_plugin(p) +
                        " failed to create: the factory returned an object that is not a " + interface_name);
    }
    // The deleter holds the library: the object's code stays mapped until it is destroyed,
    // even if the registry goes first. Every call into it goes through the barrier's proxy.
    return guard_plugin(std::shared_ptr<T>(typed, [library = p.library](T* o) { delete o; }), p);
  }
};

PluginRegistry::PluginRegistry(std::vector<std::string> extra_paths, bool default_locations,
                               const std::vector<std::string>& overrides)
    : impl_(std::make_unique<Impl>()) {
  impl_->search_path = plugin_search_path(extra_paths, default_locations);
  for (const auto& dir : plugin_search_path(extra_paths, false)) impl_->explicit_dirs.insert(dir);
  if (default_locations) {
    const std::string dir = shipped_plugin_dir();
    std::error_code ec;
    if (!dir.empty() && std::filesystem::is_directory(dir, ec)) impl_->shipped_dir = canonical_key(dir);
  }
  // Each override names a shipped plugin: "<kind>/<name>" or a bare name. Without overrides the
  // shipped folder is listed only when a library outside it is loaded.
  if (overrides.empty()) return;
  std::vector<std::string> known;
  for (const auto& [id, file] : impl_->shipped_ids()) {
    known.push_back(id);
    known.push_back(id.substr(id.find('/') + 1));
  }
  for (const std::string& o : overrides) {
    const bool found = std::any_of(known.begin(), known.end(), [&](const std::string& k) { return k == o; });
    if (!found) {
      std::string m = "--plugin-override '" + o + "': no shipped plugin has that name";
      if (known.empty())
        m += impl_->shipped_dir.empty()
                 ? " (no shipped plugin folder was found)"
                 : " (the shipped plugin folder " + impl_->shipped_dir + " holds none)";
      else
        m += did_you_mean(o, known);
      throw InputError(m);
    }
    impl_->overrides.push_back(o);
  }
}

PluginRegistry::~PluginRegistry() = default;

void PluginRegistry::discover() {
  std::lock_guard lock(impl_->mutex);
  impl_->load_candidates(*this, std::nullopt, "");
}

bool PluginRegistry::load_file(const std::string& path) {
  std::lock_guard lock(impl_->mutex);
  const std::string key = canonical_key(path);
  if (!impl_->tried.insert(key).second) {
    // Reached twice (a folder listed under two names, a symlink): loaded once.
    return std::any_of(impl_->plugins.begin(), impl_->plugins.end(),
                       [&](const LoadedPlugin& p) { return canonical_key(p.path) == key; });
  }
  PluginLoadResult r = load_plugin_library(path, !impl_->from_shipped_dir(path));
  if (!r.plugin) {
    impl_->fail(path, std::move(r.error));
    return false;
  }
  LoadedPlugin& p = *r.plugin;
  // A library outside the shipped folder with a shipped plugin's id: refused unless overridden.
  if (!impl_->from_shipped_dir(path)) {
    const auto& shipped = impl_->shipped_ids();
    if (const auto it = shipped.find(p.id()); it != shipped.end()) {
      if (!impl_->overridden(p)) {
        std::string m = "refused plugin " + p.id() + " from " + path + ": a shipped plugin has that id (" +
                        it->second + "); pass --plugin-override " + p.id() +
                        " to use this library instead, or take it off the plugin path to use the shipped one";
        impl_->refused.emplace(p.id(), m);
        impl_->fail(path, std::move(m));
        return false;
      }
      p.replaces = it->second;
      spdlog::info("plugin {} from {} replaces the shipped {} (--plugin-override)", p.id(), path, it->second);
    }
  }
  if (const LoadedPlugin* first = impl_->registered(p.descriptor->kind, p.descriptor->name)) {
    if (!first->replaces.empty() && impl_->from_shipped_dir(path)) {
      spdlog::debug("not loading {}: replaced by {} (--plugin-override)", path, first->path);
      return false;
    }
    // Built while the second library is still mapped; it is unloaded when `r` goes.
    impl_->fail(path, "duplicate plugin " + p.id() + ": " + path + " (already loaded from " + first->path +
                          "); keeping the first");
    return false;
  }
  std::error_code ec;
  const std::filesystem::path abs = std::filesystem::absolute(path, ec);
  p.absolute_path = ec ? path : abs.lexically_normal().string();
  p.sha256 = file_sha256_cached(p.absolute_path);
  spdlog::debug("loaded {}", describe_plugin(p));
  impl_->plugins.push_back(std::move(p));
  return true;
}

const std::deque<LoadedPlugin>& PluginRegistry::plugins() const { return impl_->plugins; }
std::vector<LoadedPlugin> PluginRegistry::loaded() const {
  std::lock_guard lock(impl_->mutex);
  return {impl_->plugins.begin(), impl_->plugins.end()};
}
const std::vector<PluginLoadFailure>& PluginRegistry::failures() const { return impl_->failures; }
const std::vector<std::string>& PluginRegistry::search_path() const { return impl_->search_path; }

const LoadedPlugin* PluginRegistry::find(PluginKind kind, const std::string& name) const {
  std::lock_guard lock(impl_->mutex);
  if (const LoadedPlugin* p = impl_->registered(kind, name)) return p;
  auto& self = const_cast<PluginRegistry&>(*this);  // loading is not an observable change
  impl_->load_candidates(self, kind, name);
  if (const LoadedPlugin* p = impl_->registered(kind, name)) return p;
  // Not where its name says: a library whose file name encodes another plugin of this kind.
  impl_->load_candidates(self, kind, "");
  return impl_->registered(kind, name);
}

std::vector<const LoadedPlugin*> PluginRegistry::plugins_of(PluginKind kind) const {
  std::lock_guard lock(impl_->mutex);
  impl_->load_candidates(const_cast<PluginRegistry&>(*this), kind, "");
  std::vector<const LoadedPlugin*> out;
  for (const auto& p : impl_->plugins)
    if (p.descriptor->kind == kind) out.push_back(&p);
  std::sort(out.begin(), out.end(), [](const LoadedPlugin* a, const LoadedPlugin* b) {
    return std::string_view(a->descriptor->name) < std::string_view(b->descriptor->name);
  });
  return out;
}

std::vector<std::string> PluginRegistry::names(PluginKind kind) const {
  std::vector<std::string> out;
  for (const LoadedPlugin* p : plugins_of(kind)) out.emplace_back(p->descriptor->name);
  return out;
}

namespace {

std::string unknown_plugin_message(const PluginRegistry& reg, PluginKind kind, const std::string& name) {
  const char* k = plugin_kind_name(kind);
  const std::vector<std::string> known = reg.names(kind);
  std::string m = std::string("unknown ") + k + " plugin '" + name + "'";
  if (known.empty()) {
    m += std::string("; no ") + k + " plugins are registered (searched: ";
    const auto& path = reg.search_path();
    for (std::size_t i = 0; i < path.size(); ++i) m += (i ? ", " : "") + path[i];
    m += path.empty() ? "nothing)" : ")";
  } else {
    m += did_you_mean(name, known) + "; registered: ";
    for (std::size_t i = 0; i < known.size(); ++i) m += (i ? ", " : "") + known[i];
  }
  // A library that looks like the wanted plugin but failed to load: say why.
  const std::string wanted = std::string(k) + "_" + name;
  for (const auto& f : reg.failures()) {
    const std::string file = std::filesystem::path(f.path).filename().string();
    if (file == "libtessera_" + wanted + ".so" || file == "libtessera_" + name + ".so")
      m += "; " + f.path + " failed to load: " + f.message;
  }
  return m;
}

}  // namespace

const std::string* PluginRegistry::refusal(PluginKind kind, const std::string& name) const {
  std::lock_guard lock(impl_->mutex);
  const auto it = impl_->refused.find(std::string(plugin_kind_name(kind)) + "/" + name);
  return it == impl_->refused.end() ? nullptr : &it->second;
}

const LoadedPlugin& PluginRegistry::require(PluginKind kind, const std::string& name,
                                            const SourceLocation& where) const {
  const LoadedPlugin* p = find(kind, name);
  if (const std::string* why = refusal(kind, name)) throw InputErrors({Diagnostic{where, *why}});
  if (p) return *p;
  throw InputErrors({Diagnostic{where, unknown_plugin_message(*this, kind, name)}});
}

ParamSet PluginRegistry::check_choice(PluginKind kind, const PluginChoice& choice,
                                      std::vector<Diagnostic>& diagnostics) const {
  const LoadedPlugin* p = find(kind, choice.name);
  if (const std::string* why = refusal(kind, choice.name)) {
    diagnostics.push_back({choice.where, *why});
    return {};
  }
  if (!p) {
    diagnostics.push_back({choice.where, unknown_plugin_message(*this, kind, choice.name)});
    return {};
  }
  return validate_params(p->descriptor->params, p->descriptor->param_count, choice.params,
                         "plugin " + p->id(), choice.where, diagnostics);
}

ParamSet PluginRegistry::validate_choice(PluginKind kind, const PluginChoice& choice) const {
  std::vector<Diagnostic> diagnostics;
  ParamSet params = check_choice(kind, choice, diagnostics);
  if (!diagnostics.empty()) throw InputErrors(std::move(diagnostics));
  return params;
}

std::shared_ptr<LatencyModel> PluginRegistry::create_latency(const PluginChoice& choice,
                                                             const std::vector<PluginParamValue>& set) const {
  return impl_->create<LatencyModel>(*this, PluginKind::latency, choice, "LatencyModel", set);
}
std::shared_ptr<MemoryModel> PluginRegistry::create_memory(const PluginChoice& choice,
                                                           const std::vector<PluginParamValue>& set) const {
  return impl_->create<MemoryModel>(*this, PluginKind::memory, choice, "MemoryModel", set);
}
std::shared_ptr<SearchStrategy> PluginRegistry::create_search(
    const PluginChoice& choice, const std::vector<PluginParamValue>& set) const {
  return impl_->create<SearchStrategy>(*this, PluginKind::search, choice, "SearchStrategy", set);
}
std::shared_ptr<Objective> PluginRegistry::create_objective(const PluginChoice& choice,
                                                            const std::vector<PluginParamValue>& set) const {
  return impl_->create<Objective>(*this, PluginKind::objective, choice, "Objective", set);
}
std::shared_ptr<ServingModel> PluginRegistry::create_serving(const PluginChoice& choice) const {
  return impl_->create<ServingModel>(*this, PluginKind::serving, choice, "ServingModel");
}
std::shared_ptr<SchedulerPolicy> PluginRegistry::create_scheduler(const PluginChoice& choice) const {
  return impl_->create<SchedulerPolicy>(*this, PluginKind::scheduler, choice, "SchedulerPolicy");
}

ParamSet PluginRegistry::machine_params(const std::string& latency_name, const std::vector<RawParam>& raw,
                                        const std::string& machine_file) const {
  return machine_block(latency_name, raw, "machine 'efficiency'", machine_file);
}

ParamSet PluginRegistry::machine_block(const std::string& latency_name, const std::vector<RawParam>& raw,
                                       const std::string& label, const std::string& machine_file) const {
  const LoadedPlugin& p = require(PluginKind::latency, latency_name, SourceLocation{machine_file, 0, 0});
  // A model without machine parameters of its own that falls back on another reads with the
  // fallback's schema (host/plugin_roles.hpp).
  const PluginDescriptor& d = *require(PluginKind::latency, machine_schema_owner(*this, latency_name),
                                       SourceLocation{machine_file, 0, 0})
                                   .descriptor;
  if (d.machine_param_count == 0) {
    // The `efficiency:` block belongs to the latency models that read it; others ignore it.
    if (!raw.empty()) spdlog::debug("{} reads no machine parameters; ignoring {}", p.id(), label);
    return {};
  }
  std::vector<Diagnostic> diagnostics;
  ParamSet params =
      validate_params(d.machine_params, d.machine_param_count, raw, label + " (read by " + p.id() + ")",
                      SourceLocation{machine_file, 0, 0}, diagnostics);
  if (!diagnostics.empty()) throw InputErrors(std::move(diagnostics));
  return params;
}

}  // namespace tessera
