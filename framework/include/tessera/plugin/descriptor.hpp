#pragma once
// The plugin ABI. Each plugin library exports one entry, `tessera_plugin_entry`, returning
// a static descriptor. Its first two fields are plain integers so that the host can refuse
// a plugin built against another ABI before reading anything else.
#include <cstdint>

#include "tessera/plugin/param_set.hpp"
#include "tessera/plugin/param_spec.hpp"
#include "tessera/plugin/plugin_object.hpp"
#include "tessera/version.hpp"

namespace tessera {

// Bump on any change to the descriptor, the kind interfaces or the types they pass.
inline constexpr std::uint32_t kAbiVersion = 1;
// The SDK release a plugin is built against: the project version (tessera/version.hpp).
inline constexpr const char* kFrameworkVersion = kVersion;

enum class PluginKind : std::uint32_t { latency = 1, memory = 2, search = 3, objective = 4 };

// Interface version of each kind (checked after the ABI version).
inline constexpr std::uint32_t kLatencyInterfaceVersion =
    2;  // 2: Stage names its collective algorithm, LinkCost its group shape
inline constexpr std::uint32_t kMemoryInterfaceVersion = 2;  // 2: LinkCost carries the group shape
inline constexpr std::uint32_t kSearchInterfaceVersion = 1;
inline constexpr std::uint32_t kObjectiveInterfaceVersion = 1;

TESSERA_API const char* plugin_kind_name(PluginKind k);  // "latency"
TESSERA_API std::uint32_t plugin_kind_interface_version(PluginKind k);

struct PluginDescriptor {
  std::uint32_t abi_version;      // kAbiVersion the plugin was built against
  std::uint32_t descriptor_size;  // sizeof(PluginDescriptor) the plugin was built with
  PluginKind kind;
  std::uint32_t kind_version;     // k<Kind>InterfaceVersion the plugin was built against
  const char* name;               // id = "<kind>/<name>"
  const char* version;            // the plugin's semantic version
  const char* summary;            // one line
  const char* framework_version;  // kFrameworkVersion the plugin was built against
  const ParamSpec* params;        // scenario parameters: plugins: {<kind>: {name: ..., <params>}}
  std::uint32_t param_count;
  const ParamSpec* machine_params;  // latency plugins: the machine file's `efficiency:` block
  std::uint32_t machine_param_count;
  // Creates the plugin object from validated parameters; may throw tessera::Error.
  PluginObject* (*create)(const ParamSet& params);
};

}  // namespace tessera

#include <boost/dll/alias.hpp>

// Declares the plugin's entry. Use once per plugin library, in plugin.cpp:
//   TESSERA_PLUGIN(kDescriptor)   where kDescriptor is a namespace-scope PluginDescriptor.
#define TESSERA_PLUGIN(descriptor)                                                         \
  namespace {                                                                              \
  const ::tessera::PluginDescriptor* tessera_plugin_entry_impl() { return &(descriptor); } \
  }                                                                                        \
  BOOST_DLL_ALIAS(tessera_plugin_entry_impl, tessera_plugin_entry)

// Fills the descriptor's header fields for a plugin of `kind`.
#define TESSERA_DESCRIPTOR_HEADER(kind_enum, kind_version) \
  ::tessera::kAbiVersion, sizeof(::tessera::PluginDescriptor), kind_enum, kind_version
