// How long an HTML report takes to render in headless chromium (bench/report_size_speed.sh,
// docs/performance.md): navigation start to every Vega view's runAsync() resolved — the
// moment the page's window.tesseraReady (Promise.all over the views' runAsync(), html_report.cpp)
// resolves, taken from performance.now() inside the page (its origin is the navigation start).
// The same puppeteer-core and Debian chromium as tests/report/browser_test.mjs. Prints one line
// per report: "render_ms FILE: MIN MEDIAN MAX over N loads" (a fresh page each load).
//
// node report_render.mjs --chromium PATH --modules NODE_MODULES [--loads N] REPORT.html...
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const o = { reports: [], loads: 3 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; ++i) {
  if (argv[i] === "--chromium") o.chromium = argv[++i];
  else if (argv[i] === "--modules") o.modules = argv[++i];
  else if (argv[i] === "--loads") o.loads = Number(argv[++i]);
  else o.reports.push(argv[i]);
}
const require = createRequire(path.join(path.resolve(o.modules), "noop.js"));
const puppeteer = require("puppeteer-core");

// Before any script of the page: catch the assignment of window.tesseraReady and note when it
// resolves.
const hook = () => {
  let ready;
  Object.defineProperty(window, "tesseraReady", {
    configurable: true,
    get() { return ready; },
    set(p) {
      ready = p;
      p.then(() => { window.__tesseraReadyAt = performance.now(); },
             (e) => { window.__tesseraReadyError = String(e); });
    },
  });
};

const browser = await puppeteer.launch({
  executablePath: o.chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
let failed = 0;
try {
  for (const file of o.reports) {
    const times = [];
    for (let k = 0; k < o.loads; ++k) {
      const page = await browser.newPage();
      await page.setViewport({ width: 1100, height: 900 });
      await page.evaluateOnNewDocument(hook);
      await page.goto(pathToFileURL(path.resolve(file)).href, { waitUntil: "load", timeout: 120000 });
      await page.waitForFunction(() => window.__tesseraReadyAt !== undefined || window.__tesseraReadyError,
                                 { timeout: 120000, polling: 20 });
      const r = await page.evaluate(() => ({ at: window.__tesseraReadyAt, error: window.__tesseraReadyError }));
      await page.close();
      if (r.error) { console.log(`FAIL ${file}: ${r.error}`); ++failed; break; }
      times.push(r.at);
    }
    if (times.length === 0) continue;
    times.sort((a, b) => a - b);
    const f = (x) => x.toFixed(0);
    console.log(`render_ms ${file}: ${f(times[0])} ${f(times[Math.floor(times.length / 2)])} ${f(times[times.length - 1])} over ${times.length} loads`);
  }
} finally {
  await browser.close();
}
process.exit(failed === 0 ? 0 : 1);
