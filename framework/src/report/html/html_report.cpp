#include "report/html/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/charts/vega_json.hpp"
#include "report/charts/vega_specs.hpp"
#include "report/html/answer_sentence.hpp"
#include "tessera/version.hpp"

namespace tessera {
namespace {

using nlohmann::json;

constexpr const char* kStyle = R"css(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px auto;max-width:980px;
color:#1a1a1a;background:#fff;line-height:1.4}
h1{font-size:1.5em;margin:0 0 8px}h2{font-size:1.15em;margin:28px 0 4px}
table.meta{border-collapse:collapse;font-size:.9em}table.meta th{text-align:left;padding:2px 12px 2px 0;
color:#555;font-weight:600;vertical-align:top}table.meta td{padding:2px 0}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em;background:#f3f3f3;padding:1px 4px;
border-radius:3px;word-break:break-all}
p.answer{font-size:1.1em;font-weight:600;margin:4px 0 12px}p.note{color:#444;font-size:.9em;margin:2px 0 8px}p.picked{font-size:.9em;margin:2px 0 8px}
.chart{margin:8px 0}.vega-bind{display:inline-block;margin-right:16px;font-size:.9em}
footer{margin-top:32px;color:#666;font-size:.8em}
)css";

using vega::field;
using vega::text_of;

// JSON inside a <script> element: '<' escaped, so no "</script>" or "<!--" can end it early.
std::string script_json(const json& j) {
  const std::string s = j.dump();
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  }
  return out;
}

// The plugins line of either result kind.
std::string plugins_line(const json& r) {
  const json& plugins = field(r, "plugins");
  if (plugins.is_object()) {
    std::string s = "serving " + text_of(field(field(plugins, "serving"), "name")) + ", latency " +
                    text_of(field(plugins, "latency")) + ", memory " +
                    text_of(field(field(plugins, "memory"), "name"));
    std::string objectives;
    for (const json& o :
         field(plugins, "objectives").is_array() ? field(plugins, "objectives") : json::array())
      objectives += (objectives.empty() ? "" : ", ") + text_of(field(o, "name"));
    if (!objectives.empty()) s += ", objectives " + objectives;
    return s;
  }
  // compare (latency model names) and validate-data (one report per latency model).
  if (field(r, "models").is_array()) {
    std::string models;
    for (const json& m : field(r, "models"))
      models += (models.empty() ? "" : ", ") + (m.is_object() ? text_of(field(m, "latency")) : text_of(m));
    std::string s = "latency " + models;
    if (field(r, "search").is_string()) s += ", search " + text_of(field(r, "search"));
    return s;
  }
  std::string s = "latency " + text_of(field(r, "latency_model"));
  if (!field(r, "search").is_null()) s += ", search " + text_of(field(r, "search"));
  std::string objectives;
  for (const json& o : field(r, "objectives").is_array() ? field(r, "objectives") : json::array())
    objectives += (objectives.empty() ? "" : ", ") + text_of(field(o, "name"));
  if (!objectives.empty()) s += ", objectives " + objectives;
  return s;
}

// The model's name (explain writes an object with its sizes).
std::string model_line(const json& r) {
  const json& m = field(r, "model");
  return m.is_object() ? text_of(field(m, "name")) : text_of(m);
}

std::string machine_line(const json& r) {
  const json& m = field(r, "machine");
  if (!m.is_object()) return text_of(m);
  return text_of(field(m, "name")) + " (" + text_of(field(m, "pes")) + " x " + text_of(field(m, "pe")) + ")";
}

std::string row(const std::string& name, const std::string& value_html) {
  return "<tr><th>" + name + "</th><td>" + value_html + "</td></tr>\n";
}

// The "Tessera" row (version, and with `provenance` the commit and build type) and, with
// `provenance`, the "plugin libraries" row: each id, version and the digest's first 12 digits.
std::string provenance_header_rows(const json& result) {
  const json& p = field(result, "provenance");
  const json& t = field(p, "tessera");
  std::string version = text_of(field(result, "version"));
  if (t.is_object()) {
    const std::string commit = text_of(field(t, "commit"));
    version += " (commit " + commit.substr(0, 12) + ", " + text_of(field(t, "build_type"));
    if (const std::string san = text_of(field(t, "sanitizers")); !san.empty() && san != "none")
      version += ", sanitizers " + san;
    version += ")";
  }
  std::string h = row("Tessera", html_escape(version));
  const json& plugins = field(p, "plugins");
  if (!plugins.is_array() || plugins.empty()) return h;
  std::string libs;
  for (const json& l : plugins) {
    const json& digest = field(l, "sha256");
    libs += (libs.empty() ? "" : ", ") + text_of(field(l, "id")) + " " + text_of(field(l, "version")) +
            " (sha256 " + (digest.is_string() ? digest.get<std::string>().substr(0, 12) : "unreadable") + ")";
  }
  return h + row("plugin libraries", html_escape(libs));
}

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// The document's error band (its `band`, docs/report.md "Error bands") for the header: "latency
// −9 %/+62 %, throughput −38 %/+10 % (H100/H200, *, 30 rows held out, 2 sources,
// leave-one-source-out)", "uncalibrated: ...", "bound (no band): ..."; "" when it has none.
static std::string band_line(const json& band) {
  if (!band.is_object() || !band.contains("status")) return "";
  const std::string status = text_of(field(band, "status"));
  if (status != "band")
    return (status == "bound" ? "bound (no band): " : "uncalibrated: ") + text_of(field(band, "reason"));
  auto pct = [](const json& v) {
    const double x = v.is_number() ? v.get<double>() * 100 : 0;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f %%", std::fabs(x));
    return std::string(x < 0 ? "\u2212" : "+") + buf;
  };
  // A count as written (0 when it is not a number; never a conversion that can throw).
  auto count = [](const json& v) {
    if (v.is_number_integer()) return v.dump();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v.is_number() ? v.get<double>() : 0.0);
    return std::string(buf);
  };
  std::string out = "latency " + pct(field(band, "latency_low_rel")) + "/" +
                    pct(field(band, "latency_high_rel")) + ", throughput " +
                    pct(field(band, "throughput_low_rel")) + "/" + pct(field(band, "throughput_high_rel")) +
                    " (" + text_of(field(band, "family")) + ", " + text_of(field(band, "framework")) + ", " +
                    count(field(band, "rows")) + " rows held out, " + count(field(band, "sources")) +
                    " sources, " + text_of(field(band, "fold")) + ")";
  if (band.contains("note")) out += "; " + text_of(field(band, "note"));
  return out;
}

std::string html_report(const json& result, const std::string& command, const WebAssets& assets) {
  const ResultKind kind = result_kind(result);
  std::vector<ChartSpec> charts = report_charts(result);
  std::string scenario = text_of(field(result, "scenario"));
  if (scenario.empty()) scenario = kind == ResultKind::validate_data ? "validate-data" : "a Tessera result";
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  h += "<meta name=\"generator\" content=\"Tessera " + html_escape(kVersion) + "\">\n";
  h += "<title>Tessera: " + html_escape(scenario) + "</title>\n<style>" + std::string(kStyle) + "</style>\n";
  h += "<script>" + assets.vega + "\n</script>\n";
  h += "<script>" + assets.vega_lite + "\n</script>\n";
  h += "<script>" + assets.vega_embed + "\n</script>\n";
  h += "</head>\n<body>\n<header>\n<h1>" + html_escape(scenario) + "</h1>\n";
  // The answer first, in one sentence (docs/report.md "The answer first").
  h += "<p class=\"answer\" id=\"tessera-answer\">" + html_escape(answer_sentence(result)) + "</p>\n";
  h += "<table class=\"meta\">\n";
  h += row("study", result_kind_command(kind));
  if (!field(result, "model").is_null()) h += row("model", html_escape(model_line(result)));
  if (!field(result, "machine").is_null()) h += row("machine", html_escape(machine_line(result)));
  h += row("plugins", html_escape(plugins_line(result)));
  h += provenance_header_rows(result);
  // Every predicted latency and throughput of the page lies in this band (held-out validation).
  if (const std::string b = band_line(field(result, "band")); !b.empty())
    h += row("error band", html_escape(b));
  // The command that produced the result (its `command`), and the one drawing it when another
  // (`tessera report`); a result without `command` (older --json) shows the drawing command.
  const json& produced = field(result, "command");
  if (produced.is_string() && produced.get<std::string>() != command) {
    h += row("command", "<code>" + html_escape(produced.get<std::string>()) + "</code>");
    h += row("redrawn by", "<code>" + html_escape(command) + "</code>");
  } else {
    h += row("command", "<code>" + html_escape(command) + "</code>");
  }
  h += "</table>\n</header>\n<main>\n";
  json specs = json::object();
  // report.scopes: a toggle between the scopes; each chart's section names its scope.
  std::vector<std::string> scopes;
  for (const ChartSpec& c : charts)
    if (!c.scope.empty() && std::find(scopes.begin(), scopes.end(), c.scope) == scopes.end())
      scopes.push_back(c.scope);
  if (!scopes.empty()) {
    h += "<p class=\"scopes\">Scope (each studied; flip without re-running):";
    for (const std::string& sc : scopes) {
      const std::string label = sc == "full"        ? "full (attention + FFN/MoE)"
                                : sc == "attention" ? "attention only"
                                                    : sc;
      h += " <label><input type=\"radio\" name=\"tessera-scope\" value=\"" + html_escape(sc) + "\"" +
           (sc == scopes.front() ? " checked" : "") + "> " + html_escape(label) + "</label>";
    }
    h += "</p>\n";
  }
  for (ChartSpec& c : charts) {
    h += "<section id=\"chart-" + c.id + "\" data-configs=\"" + (c.has_configs ? "yes" : "no") + "\"";
    if (!c.picks_from.empty()) h += " data-picks-from=\"" + html_escape(c.picks_from) + "\"";
    if (!c.scope.empty())
      h += " data-scope=\"" + html_escape(c.scope) + "\"" + (c.scope == scopes.front() ? "" : " hidden");
    h += ">\n<h2>" + html_escape(c.title) + "</h2>\n";
    if (!c.note.empty()) h += "<p class=\"note\">" + html_escape(c.note) + "</p>\n";
    if (!c.picks_from.empty()) h += "<p class=\"picked\" id=\"picked-" + c.id + "\"></p>\n";
    h += "<div class=\"chart\" id=\"view-" + c.id + "\"></div>\n</section>\n";
    specs[c.id] = std::move(c.spec);
  }
  h += "</main>\n<footer>Drawn with vega " + html_escape(assets.vega_version) + ", vega-lite " +
       html_escape(assets.vega_lite_version) + ", vega-embed " + html_escape(assets.vega_embed_version) +
       " (inlined; this file needs no network). Colours: Okabe-Ito.</footer>\n";
  h += "<script type=\"application/json\" id=\"tessera-specs\">" + script_json(specs) + "</script>\n";
  h += R"js(<script>
(function () {
  var specs = JSON.parse(document.getElementById("tessera-specs").textContent);
  window.tesseraViews = {};
  window.tesseraReady = Promise.all(Object.keys(specs).map(function (id) {
    return vegaEmbed("#view-" + id, specs[id], {actions: false, renderer: "svg"}).then(function (r) {
      window.tesseraViews[id] = r.view;
      return r.view.runAsync();
    });
  }));
  window.tesseraReady.catch(function (e) { console.error("tessera report: " + e); });
  // A breakdown chart shows the configuration hovered (else the one last clicked, else the
  // best) in the scatter it picks from: its parameter `chosen` filters its rows by id.
  // window.tesseraPick[ID](datum) sets it (the browser test and notebooks call it too).
  window.tesseraPick = {};
  window.tesseraReady = window.tesseraReady.then(function (done) {
    document.querySelectorAll("section[data-picks-from]").forEach(function (sec) {
      var id = sec.id.slice(6), src = window.tesseraViews[sec.dataset.picksFrom], dst = window.tesseraViews[id];
      var meta = (specs[id].usermeta || {}).tessera_pick;
      if (!src || !dst || !meta) return;
      var has = {};
      meta.with_breakdown.forEach(function (k) { has[k] = true; });
      var line = document.getElementById("picked-" + id), pinned = null;
      var show = function (d) {
        var key = d && d.id !== undefined && d.id !== null ? String(d.id) : meta.best;
        var label = d && d.config ? d.config : meta.best_label;
        if (has[key]) {
          line.textContent = "Showing: " + label + (key === meta.best ? " (the best)" : "") + ".";
        } else {
          var t = meta.totals.filter(function (f) { return d && typeof d[f[0]] === "number"; }).map(function (f) {
            return f[1] + " " + Number(d[f[0]].toPrecision(4));
          });
          line.textContent = label + ": " + t.join(", ") + ". No stage breakdown: only " + meta.carry +
            " carry one; other points show their totals.";
        }
        try { src.signal("picked", key).runAsync(); } catch (e) { /* a scatter without the mark */ }
        return dst.signal("chosen", key).runAsync();
      };
      var datumOf = function (item) { return item && item.datum && item.datum.id !== undefined ? item.datum : null; };
      src.addEventListener("click", function (e, item) { var d = datumOf(item); if (d) { pinned = d; show(d); } });
      src.addEventListener("mouseover", function (e, item) { var d = datumOf(item); if (d) show(d); });
      src.addEventListener("mouseout", function (e, item) { if (datumOf(item)) show(pinned); });
      show.meta = meta;
      window.tesseraPick[id] = show;
      show(null);
    });
    return done;
  });
  // report.scopes: show the sections of one scope (the radio buttons; the browser test calls it).
  window.tesseraShowScope = function (scope) {
    document.querySelectorAll("section[data-scope]").forEach(function (s) { s.hidden = s.dataset.scope !== scope; });
    document.querySelectorAll("input[name=tessera-scope]").forEach(function (i) { i.checked = i.value === scope; });
  };
  document.querySelectorAll("input[name=tessera-scope]").forEach(function (i) {
    i.addEventListener("change", function () { window.tesseraShowScope(i.value); });
  });
})();
</script>
)js";
  h += "</body>\n</html>\n";
  return h;
}

}  // namespace tessera
