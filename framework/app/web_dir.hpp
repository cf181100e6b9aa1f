#pragma once
// Where `--html` and `--png` find vega, vega-lite and vega-embed (docs/report.md "Where tessera
// finds the scripts"): a node_modules-shaped folder holding <pkg>/build/<pkg>.min.js and
// <pkg>/package.json of each. Looked for in order:
//   1. $TESSERA_WEB_DIR when set (and then only there: an explicit choice is not overridden);
//   2. <the executable's folder>/../share/tessera/web (what `cmake --install` writes);
//   3. the build's third_party/web/node_modules (CMake's TESSERA_WEB_DIR, set at configure time).
#include <string>
#include <vector>

namespace tessera::cli {

// The folders looked in, in order: `env` ($TESSERA_WEB_DIR, "" = unset) alone when given, else
// `bin_dir`/../share/tessera/web (when `bin_dir` is known) and `build_default`.
std::vector<std::string> web_dir_candidates(const std::string& env, const std::string& bin_dir,
                                            const std::string& build_default);
// The first of `candidates` holding the three bundles, "" when none does.
std::string first_web_dir(const std::vector<std::string>& candidates);
// The places this program looks in (the real $TESSERA_WEB_DIR, executable and build default).
std::vector<std::string> web_dir_candidates();
// The folder the scripts come from; an Error naming every place looked when none has them.
std::string web_dir();
// "DIR (vega V, vega-lite V, vega-embed V)" or "none found (looked in A, B)": `tessera --version`.
std::string web_dir_description();

}  // namespace tessera::cli
