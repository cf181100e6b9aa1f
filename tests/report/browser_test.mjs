// The HTML reports in a real browser (docs/report.md "Tested in a browser"): Debian's chromium,
// headless, driven over the DevTools protocol by puppeteer-core (third_party/web). One browser,
// one page per report. A report fails when the page logs a console error or throws, asks for
// anything over the network, does not render every view, a view has a mark that drew nothing,
// hovering a data point shows no tooltip naming its configuration, or a stage breakdown does not
// follow a click on its scatter (checkPicks). Writes OUT/NAME.png per report. Then the test of
// the test: three deliberately broken copies of the first report (a chart whose field does not
// exist, so it draws nothing; a script that logs an error; a breakdown deaf to clicks) must fail.
//
// node browser_test.mjs --chromium PATH --modules NODE_MODULES --out DIR [--jobs N] REPORT.html...
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

function parseArgs(argv) {
  const o = { reports: [], jobs: 1 };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === "--chromium") o.chromium = argv[++i];
    else if (a === "--modules") o.modules = argv[++i];
    else if (a === "--out") o.out = argv[++i];
    else if (a === "--jobs") o.jobs = Number(argv[++i]);
    else o.reports.push(a);
  }
  return o;
}

const opts = parseArgs(process.argv.slice(2));
const require = createRequire(path.join(path.resolve(opts.modules), "noop.js"));
const puppeteer = require("puppeteer-core");
fs.mkdirSync(opts.out, { recursive: true });

// Every view's marks and how many items each drew (axes, legends and titles left out); a mark
// of a faceted chart (one instance per panel) counts the items of all its panels.
function marksOf() {
  const out = {};
  for (const [id, view] of Object.entries(window.tesseraViews || {})) {
    const byName = new Map();
    const walk = (node) => {
      if (!node) return;
      if (node.marktype && node.role === "mark") {
        const m = byName.get(node.name) || { name: node.name, type: node.marktype, items: 0 };
        m.items += node.items.length;
        byName.set(node.name, m);
      }
      if (node.role === "axis" || node.role === "legend" || node.role === "title") return;
      for (const item of node.items || []) {
        for (const child of item.items || []) walk(child);
      }
    };
    const root = view.scenegraph().root;
    for (const item of root.items || []) for (const child of item.items || []) walk(child);
    out[id] = [...byName.values()];
  }
  return out;
}

// The stage breakdown chosen from the scatter (docs/report.md): in each chart that picks from
// another (section[data-picks-from]), the bars are the best's at first; a click on a frontier
// point that is not the best (dispatched on its SVG element, as a reader's click reaches Vega)
// must turn them into that configuration's stages, and a click on a point without a breakdown
// must say so. Runs in the page.
async function checkPicks(page) {
  return page.evaluate(async () => {
    const problems = [];
    const bars = (view) => {
      const out = [];
      const walk = (node) => {
        if (!node) return;
        if (node.marktype === "rect" && node.role === "mark")
          for (const it of node.items) if (it.datum && it.datum.part) out.push(it.datum);
        for (const item of node.items || []) for (const child of item.items || []) walk(child);
      };
      for (const item of view.scenegraph().root.items || []) for (const child of item.items || []) walk(child);
      return out;
    };
    const pointsOf = (view) => {
      const out = [];
      const walk = (node) => {
        if (!node) return;
        if (node.marktype === "symbol" && node.role === "mark")
          for (const it of node.items) if (it.datum && it.datum.id !== undefined && it._svg) out.push(it);
        for (const item of node.items || []) for (const child of item.items || []) walk(child);
      };
      for (const item of view.scenegraph().root.items || []) for (const child of item.items || []) walk(child);
      return out;
    };
    const settle = async (view, want) => {
      for (let i = 0; i < 40 && view.signal("chosen") !== want; ++i) await new Promise((r) => setTimeout(r, 50));
      await view.runAsync();
    };
    for (const sec of document.querySelectorAll("section[data-picks-from]")) {
      const id = sec.id.slice(6);
      const src = window.tesseraViews[sec.dataset.picksFrom], dst = window.tesseraViews[id];
      const pick = (window.tesseraPick || {})[id];
      if (!src || !dst || !pick) { problems.push(`chart ${id}: no scatter to pick from`); continue; }
      const has = new Set(pick.meta.with_breakdown);
      await dst.runAsync();
      const first = bars(dst);
      if (first.length === 0 || first.some((d) => d.id !== pick.meta.best))
        problems.push(`chart ${id}: at first the bars are not the best's (${pick.meta.best})`);
      const target = pointsOf(src).find((it) => String(it.datum.id) !== pick.meta.best && has.has(String(it.datum.id)));
      if (!target) { problems.push(`chart ${id}: no frontier point other than the best to pick`); continue; }
      const want = String(target.datum.id);
      target._svg.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      await settle(dst, want);
      const now = bars(dst);
      if (now.length === 0 || now.some((d) => d.id !== want))
        problems.push(`chart ${id}: clicking ${target.datum.config} (id ${want}) did not show its stages`);
      const line = document.getElementById("picked-" + id).textContent;
      if (!line.includes(target.datum.config)) problems.push(`chart ${id}: the line does not name the pick: ${line}`);
      const other = pointsOf(src).find((it) => !has.has(String(it.datum.id)));
      if (other) {
        other._svg.dispatchEvent(new MouseEvent("click", { bubbles: true }));
        await settle(dst, String(other.datum.id));
        const text = document.getElementById("picked-" + id).textContent;
        if (!/No stage breakdown/.test(text) || bars(dst).length !== 0)
          problems.push(`chart ${id}: a point without a breakdown does not say so: ${text}`);
      }
      // Back to the best, for the screenshot.
      await pick(null);
    }
    return problems;
  });
}

async function check(browser, file) {
  const problems = [];
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 900 });
  page.on("console", (m) => { if (m.type() === "error") problems.push("console error: " + m.text()); });
  page.on("pageerror", (e) => problems.push("page error: " + e.message));
  await page.setRequestInterception(true);
  page.on("request", (r) => {
    if (r.url().startsWith("file:") || r.url().startsWith("data:")) r.continue();
    else { problems.push("network request: " + r.url()); r.abort(); }
  });
  try {
    await page.goto(pathToFileURL(path.resolve(file)).href, { waitUntil: "load" });
    const ok = await page.evaluate(() =>
      Promise.race([
        (window.tesseraReady || Promise.reject(new Error("no window.tesseraReady"))).then(() => "ok"),
        new Promise((resolve) => setTimeout(() => resolve("timed out"), 20000)),
      ]).catch((e) => "failed: " + e));
    if (ok !== "ok") problems.push("views did not render: " + ok);
    const sections = await page.$$eval("section[id^=chart-]", (s) =>
      s.map((e) => ({ id: e.id.slice(6), configs: e.dataset.configs !== "no", scope: e.dataset.scope })));
    const marks = await page.evaluate(marksOf);
    for (const { id, configs, scope } of sections) {
      // report.scopes: flip the page to the chart's scope (its toggle), as a reader would.
      if (scope) await page.evaluate((sc) => window.tesseraShowScope(sc), scope);
      const m = marks[id];
      if (!m) { problems.push(`chart ${id}: no view on window.tesseraViews`); continue; }
      if (m.length === 0) problems.push(`chart ${id}: no marks`);
      for (const mk of m) if (mk.items === 0) problems.push(`chart ${id}: mark ${mk.name} (${mk.type}) drew nothing`);
      // Hover the last data point drawn (the top layer: the frontier, or the last bar).
      // The top layer's last few points or bars (one may lie under a label): the first that
      // shows a tooltip. Marked in the page, so as not to hand thousands of elements to node.
      const candidates = await page.evaluate((id) => {
        const groups = [...document.querySelectorAll(`#view-${id} svg g.role-mark.mark-symbol, #view-${id} svg g.role-mark.mark-rect`)];
        let n = 0;
        for (const g of groups.reverse()) {
          const paths = g.querySelectorAll("path");
          for (let i = paths.length - 1; i >= 0 && n < 6; --i) {
            const r = paths[i].getBoundingClientRect();  // a zero-length bar cannot be hovered
            if (r.width >= 1 && r.height >= 1) paths[i].setAttribute("data-hover", String(n++));
          }
          if (n >= 6) break;
        }
        return n;
      }, id);
      if (candidates === 0) { problems.push(`chart ${id}: no point or bar to hover`); continue; }
      let tip = null;
      for (let k = 0; k < candidates && !tip; ++k) {
        // A candidate with no box (a cross at a panel's edge, an empty path) cannot be hovered.
        if (!(await page.hover(`#view-${id} [data-hover="${k}"]`).then(() => true, () => false))) continue;
        tip = await page
          .waitForFunction(() => {
            const t = document.getElementById("vg-tooltip-element");
            return t && t.classList.contains("visible") && t.textContent.length > 0 ? t.textContent : null;
          }, { timeout: 2000, polling: 50 })
          .then((h) => h.jsonValue())
          .catch(() => null);
      }
      if (!tip) problems.push(`chart ${id}: hovering a point showed no tooltip`);
      else if (configs && !/configuration/.test(tip)) problems.push(`chart ${id}: the tooltip does not name the configuration: ${tip}`);
      await page.mouse.move(0, 0);
    }
    problems.push(...(await checkPicks(page)));
    await page.screenshot({ path: path.join(opts.out, path.basename(file, ".html") + ".png"), fullPage: true });
  } catch (e) {
    problems.push("error: " + e.message);
  }
  await page.close();
  return problems;
}

// report.scopes (any study): a page of two or more scopes flips between them by its toggle, the
// radio buttons clicked as a reader would. After each click exactly that scope's sections are
// shown, one per chart of every other scope (the same charts, prefixed SCOPE-), and each shown
// view has marks whose items are laid out on the page (a non-empty box: a hidden section's are
// empty); then back to the first scope. Kept apart from check() (which flips by script).
async function checkScopeToggle(browser, file) {
  const problems = [];
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 900 });
  page.on("console", (m) => { if (m.type() === "error") problems.push("console error: " + m.text()); });
  page.on("pageerror", (e) => problems.push("page error: " + e.message));
  try {
    await page.goto(pathToFileURL(path.resolve(file)).href, { waitUntil: "load" });
    await page.evaluate(() => window.tesseraReady);
    const scopes = await page.$$eval("input[name=tessera-scope]", (is) => is.map((i) => i.value));
    if (scopes.length < 2) problems.push(`${scopes.length} scope(s) on the toggle, expected at least 2`);
    const charts = {};
    for (const sc of [...scopes.slice(1), scopes[0]]) {
      await page.click(`input[name=tessera-scope][value="${sc}"]`);
      const shown = await page.evaluate((sc) => {
        const out = [];
        for (const s of document.querySelectorAll("section[data-scope]")) {
          if (s.hidden) continue;
          let laidOut = 0;
          for (const el of s.querySelectorAll(".chart svg g.role-mark > *")) {
            const r = el.getBoundingClientRect();
            if (r.width > 0 || r.height > 0) ++laidOut;
          }
          out.push({ id: s.id.slice(6), scope: s.dataset.scope, laidOut });
        }
        return out;
      }, sc);
      const marks = await page.evaluate(marksOf);
      for (const { id, scope, laidOut } of shown) {
        if (scope !== sc) problems.push(`toggle ${sc}: a chart of scope ${scope} is shown (${id})`);
        if (!id.startsWith(sc + "-")) problems.push(`toggle ${sc}: chart ${id} lacks the scope's prefix`);
        const m = marks[id] || [];
        if (m.length === 0 || m.some((mk) => mk.items === 0)) problems.push(`toggle ${sc}: chart ${id} drew nothing`);
        if (laidOut === 0) problems.push(`toggle ${sc}: chart ${id} shows no mark on the page`);
      }
      if (shown.length === 0) problems.push(`toggle ${sc}: no chart shown`);
      charts[sc] = shown.map((c) => c.id.slice(sc.length + 1)).sort().join(",");
    }
    const sets = new Set(Object.values(charts));
    if (sets.size !== 1) problems.push("the scopes draw different charts: " + JSON.stringify(charts));
  } catch (e) {
    problems.push("error: " + e.message);
  }
  await page.close();
  return problems;
}

const browser = await puppeteer.launch({
  executablePath: opts.chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
let failed = 0;
try {
  // One page at a time by default. Pages are tabs of one window: opening a page sends the others
  // to the background, where Chromium stops drawing frames, and a background page's hover waits
  // until it is in front again (measured: with 3 at a time one report waited 53 s, the run took
  // 58-187 s against 56 s one at a time). The run is CPU-bound (~1.4 cores), so one page at a
  // time loses nothing and leaves a core to the tests CTest runs beside it.
  const queue = [...opts.reports];
  const worker = async () => {
    for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
      const t0 = Date.now();
      const problems = await check(browser, f);
      const ms = Date.now() - t0;
      if (problems.length === 0) console.log(`ok: ${f} (${ms} ms)`);
      else {
        ++failed;
        console.log(`FAIL: ${f}\n  ` + problems.join("\n  "));
      }
    }
  };
  const t0 = Date.now();
  await Promise.all(Array.from({ length: opts.jobs }, worker));
  console.log(`${opts.reports.length} reports in ${Date.now() - t0} ms (${opts.jobs} pages at a time)`);
  // report.scopes: every NAME-scopes.html report flipped by its toggle.
  for (const f of opts.reports.filter((r) => r.endsWith("-scopes.html"))) {
    const problems = await checkScopeToggle(browser, f);
    if (problems.length === 0) console.log(`ok: ${f}: the scope toggle redraws every chart of each scope`);
    else {
      ++failed;
      console.log(`FAIL: ${f} (scope toggle)\n  ` + problems.join("\n  "));
    }
  }
  // The test of the toggle test: a page whose toggle does not flip must fail it.
  const scoped = opts.reports.find((r) => r.endsWith("-scopes.html"));
  if (scoped) {
    const page = fs.readFileSync(scoped, "utf8");
    const dead = page.split("window.tesseraShowScope(i.value);").join("");
    const file = path.join(opts.out, "broken-toggle.html");
    fs.writeFileSync(file, dead);
    const problems = dead === page ? [] : await checkScopeToggle(browser, file);
    if (problems.length > 0) console.log(`ok: broken-toggle fails as it must (${problems[0]})`);
    else { ++failed; console.log("FAIL: broken-toggle: a toggle that does not flip passed"); }
  }
  // The test of the test.
  const first = fs.readFileSync(opts.reports[0], "utf8");
  const broken = {
    "broken-field": first.split('"field":"x"').join('"field":"no_such_field"'),
    "broken-console": first.slice(0, first.lastIndexOf("</body>")) +
      "<script>console.error('a deliberately broken chart');</script></body>\n</html>\n",
    // The breakdown no longer follows a click on the scatter.
    "broken-pick": first.split('src.addEventListener("click"').join('src.addEventListener("no-click"'),
  };
  for (const [name, html] of Object.entries(broken)) {
    if (html === first) { ++failed; console.log(`FAIL: ${name}: the mutation did not apply`); continue; }
    const file = path.join(opts.out, name + ".html");
    fs.writeFileSync(file, html);
    const problems = await check(browser, file);
    if (problems.length > 0) console.log(`ok: ${name} fails as it must (${problems[0]})`);
    else { ++failed; console.log(`FAIL: ${name}: a broken report passed`); }
  }
} finally {
  await browser.close();
}
process.exit(failed === 0 ? 0 : 1);
