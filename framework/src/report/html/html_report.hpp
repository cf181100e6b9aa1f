#pragma once
// `--html FILE`: one self-contained HTML page of a study (docs/report.md): a header (scenario,
// machine, model, plugins, Tessera version, the command line), the charts of vega_specs.hpp,
// vega / vega-lite / vega-embed and the styles inlined; data inlined in the specs. Built from
// the study's `--json` result alone. No timestamp, no host name: the same result and command
// give the same bytes. Each view is exposed as window.tesseraViews[id] and
// window.tesseraReady resolves when every view has rendered (the browser test waits on it).
#include <string>

#include <nlohmann/json.hpp>

#include "report/html/web_assets.hpp"
#include "tessera/export.hpp"

namespace tessera {

// `command` is the command line drawing the page ("tessera run ..."): the header shows the
// result's own `command` (the study that produced it) and, when that is another, `command` as
// "redrawn by" (`tessera report`).
TESSERA_API std::string html_report(const nlohmann::json& result, const std::string& command,
                                    const WebAssets& assets);

// Text made safe for HTML element content and attribute values.
TESSERA_API std::string html_escape(const std::string& text);

}  // namespace tessera
