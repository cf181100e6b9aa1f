// One plugin library: open, find the entry, check the ABI, the kind and the descriptor.
#include "host/plugin_loader.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <boost/dll/shared_library.hpp>
#include <cctype>
#include <cstddef>
#include <exception>
#include <memory>

#include "host/param_validation.hpp"
#include "tessera/plugin/descriptor.hpp"

namespace tessera {
namespace {

constexpr const char* kEntryName = "tessera_plugin_entry";
constexpr PluginKind kKinds[] = {PluginKind::latency, PluginKind::memory, PluginKind::search,
                                 PluginKind::objective};

bool kind_known(PluginKind k) {
  return std::find(std::begin(kKinds), std::end(kKinds), k) != std::end(kKinds);
}

bool valid_plugin_name(const char* name) {
  if (!name || !*name) return false;
  for (const char* c = name; *c; ++c)
    if (!(std::islower(static_cast<unsigned char>(*c)) || std::isdigit(static_cast<unsigned char>(*c)) ||
          *c == '_'))
      return false;
  return true;
}

// "latency/x" from the descriptor's header (kind, name), which keeps its layout across ABI
// versions; only read when the plugin says its descriptor is that long.
std::string header_id(const PluginDescriptor* d) {
  constexpr std::size_t header_end = offsetof(PluginDescriptor, name) + sizeof(d->name);
  if (d->descriptor_size < header_end) return "";
  std::string kind = kind_known(d->kind) ? plugin_kind_name(d->kind)
                                         : "kind" + std::to_string(static_cast<std::uint32_t>(d->kind));
  return kind + "/" + (d->name ? d->name : "<unnamed>");
}

std::string sanity_problems(const PluginDescriptor& d) {
  std::vector<std::string> problems;
  if (!valid_plugin_name(d.name))
    problems.emplace_back("the name must be lower-case letters, digits and '_'");
  if (!d.version || !*d.version) problems.emplace_back("no version");
  if (!d.summary) problems.emplace_back("no summary");
  if (!d.create) problems.emplace_back("no factory (create is null)");
  for (auto& p : check_param_schema(d.params, d.param_count)) problems.push_back(std::move(p));
  if (d.machine_param_count > 0 && d.kind != PluginKind::latency)
    problems.emplace_back("only latency plugins may declare machine parameters");
  for (auto& p : check_param_schema(d.machine_params, d.machine_param_count))
    problems.push_back("machine " + std::move(p));
  std::string s;
  for (const auto& p : problems) s += (s.empty() ? "" : "; ") + p;
  return s;
}

}  // namespace

PluginLoadResult load_plugin_library(const std::string& path) {
  PluginLoadResult r;
  auto lib = std::make_shared<boost::dll::shared_library>();
  {
    boost::dll::fs::error_code ec;
    lib->load(boost::dll::fs::path(path), boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local,
              ec);
    if (ec || !lib->is_loaded()) {
      const char* why = dlerror();
      r.error = "cannot load " + path + ": " + (why ? std::string(why) : ec.message());
      return r;
    }
  }
  if (!lib->has(kEntryName)) {
    r.error = path + " is not a Tessera plugin: no " + kEntryName;
    return r;
  }

  using Entry = const PluginDescriptor*();
  const PluginDescriptor* d = nullptr;
  try {
    d = lib->get_alias<Entry>(kEntryName)();
  } catch (const std::exception& e) {
    r.error = path + ": " + kEntryName + " failed: " + e.what();
    return r;
  } catch (...) {
    r.error = path + ": " + kEntryName + " failed with an unknown exception";
    return r;
  }
  if (!d) {
    r.error = path + ": " + kEntryName + " returned no descriptor";
    return r;
  }

  // The two leading integers first: nothing else is read from a descriptor of another ABI.
  const std::uint32_t abi = d->abi_version, size = d->descriptor_size;
  if (abi != kAbiVersion) {
    const std::string id = header_id(d);
    r.error = path + ": plugin " + (id.empty() ? "" : id + " ") + "was built for ABI " + std::to_string(abi) +
              ", host has ABI " + std::to_string(kAbiVersion) + ": rebuild it against this SDK";
    return r;
  }
  if (size != sizeof(PluginDescriptor)) {
    const std::string id = header_id(d);
    r.error = path + ": plugin " + (id.empty() ? "" : id + " ") + "has a " + std::to_string(size) +
              "-byte descriptor, host expects " + std::to_string(sizeof(PluginDescriptor)) + " for ABI " +
              std::to_string(kAbiVersion) + ": rebuild it against this SDK";
    return r;
  }
  if (!kind_known(d->kind)) {
    r.error = path + ": plugin " + (d->name ? std::string(d->name) + " " : "") + "has unknown kind " +
              std::to_string(static_cast<std::uint32_t>(d->kind)) +
              " (host knows latency, memory, search, objective)";
    return r;
  }
  const std::string id = header_id(d);
  const std::uint32_t supported = plugin_kind_interface_version(d->kind);
  if (d->kind_version != supported) {
    r.error = path + ": plugin " + id + " was built for " + plugin_kind_name(d->kind) +
              " interface version " + std::to_string(d->kind_version) + ", host supports version " +
              std::to_string(supported) + ": rebuild it against this SDK";
    return r;
  }
  if (std::string problems = sanity_problems(*d); !problems.empty()) {
    r.error = path + ": plugin " + id + ": " + problems;
    return r;
  }

  LoadedPlugin p;
  p.descriptor = d;
  p.path = path;
  p.library = std::move(lib);
  r.plugin = std::move(p);
  return r;
}

}  // namespace tessera
