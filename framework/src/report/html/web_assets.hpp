#pragma once
// The JavaScript an HTML report inlines: vega, vega-lite and vega-embed's browser bundles
// (build/*.min.js of their npm packages), read from a node_modules folder that
// scripts/install-deps.sh fills with `npm ci` (third_party/web/, docs/report.md). Nothing is
// fetched: a missing or unreadable bundle is an Error naming the file and the fix.
#include <string>

#include "tessera/export.hpp"

namespace tessera {

struct WebAssets {
  std::string vega, vega_lite, vega_embed;                          // the scripts
  std::string vega_version, vega_lite_version, vega_embed_version;  // from each package.json
};

// Reads the three bundles under `node_modules` (NODE_MODULES/vega/build/vega.min.js, ...).
TESSERA_API WebAssets load_web_assets(const std::string& node_modules);

}  // namespace tessera
