#include "report/html/web_assets.hpp"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tessera/error.hpp"

namespace tessera {
namespace {

std::string read_all(const std::string& path, const std::string& node_modules) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  if (in) os << in.rdbuf();
  if (!in || os.str().empty())
    throw Error("cannot read " + path + ": the HTML report inlines vega, vega-lite and vega-embed from " +
                node_modules +
                " (run scripts/install-deps.sh, which runs `npm ci` in third_party/web, or set "
                "TESSERA_WEB_DIR to a node_modules folder that has them)");
  return os.str();
}

std::string version_of(const std::string& package_json) {
  try {
    const nlohmann::json j = nlohmann::json::parse(package_json);
    return j.value("version", "");
  } catch (const nlohmann::json::exception&) {
    return "";
  }
}

}  // namespace

WebAssets load_web_assets(const std::string& node_modules) {
  WebAssets a;
  const std::string root = node_modules + "/";
  a.vega = read_all(root + "vega/build/vega.min.js", node_modules);
  a.vega_lite = read_all(root + "vega-lite/build/vega-lite.min.js", node_modules);
  a.vega_embed = read_all(root + "vega-embed/build/vega-embed.min.js", node_modules);
  a.vega_version = version_of(read_all(root + "vega/package.json", node_modules));
  a.vega_lite_version = version_of(read_all(root + "vega-lite/package.json", node_modules));
  a.vega_embed_version = version_of(read_all(root + "vega-embed/package.json", node_modules));
  return a;
}

}  // namespace tessera
