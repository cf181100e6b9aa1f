#!/usr/bin/env bash
# The browser test of the HTML reports (docs/report.md): writes the default scenario's report
# (`tessera run --html`), its --json redrawn (`tessera report`), and every shipped serving
# scenario's (`tessera serve --html`) into OUT, then opens them all in headless chromium
# (browser_test.mjs: one browser launch, one page each; PNG screenshots in OUT).
# Exit 77 (CTest's SKIP_RETURN_CODE) with a message when node, chromium or the npm packages
# are absent: scripts/install-deps.sh installs all three.
# browser_test.sh TESSERA SOURCE_DIR OUT [NODE_MODULES]
set -euo pipefail
tessera=$1 src=$2 out=$3
modules=${4:-$src/third_party/web/node_modules}
chromium=${CHROMIUM:-/usr/bin/chromium}
skip() { echo "SKIP: $1 (scripts/install-deps.sh installs it)"; exit 77; }
command -v node >/dev/null 2>&1 || skip "no node"
[ -x "$chromium" ] || skip "no chromium at $chromium"
[ -f "$modules/puppeteer-core/package.json" ] || skip "no puppeteer-core in $modules"
[ -f "$modules/vega/build/vega.min.js" ] || skip "no vega in $modules"

rm -rf "$out" && mkdir -p "$out"
export TESSERA_WEB_DIR="$modules"
reports=("$out/default.html" "$out/default-redrawn.html")
"$tessera" run -q --json "$out/default.json" --html "$out/default.html" >/dev/null
"$tessera" report "$out/default.json" --html "$out/default-redrawn.html"
for s in "$src"/scenarios/*.yaml; do
  grep -Eq '(^|[{ ,])mode: *serve' "$s" || continue
  grep -Eq '^  hardware:' "$s" && continue  # a serve scenario with sweep.hardware is explore's
  name=$(basename "$s" .yaml)
  "$tessera" serve -q "$s" --html "$out/$name.html" >/dev/null
  reports+=("$out/$name.html")
done
exec node "$src/tests/report/browser_test.mjs" --chromium "$chromium" --modules "$modules" --out "$out" "${reports[@]}"
