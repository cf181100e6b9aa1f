#pragma once
#include "tessera/export.hpp"

namespace tessera {

// Base of every object a plugin factory returns. The host owns it through a shared_ptr
// whose deleter also keeps the plugin's library loaded.
class TESSERA_API PluginObject {
 public:
  virtual ~PluginObject();
};

}  // namespace tessera
