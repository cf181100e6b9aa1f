#!/usr/bin/env bash
# The browser test of the HTML reports (docs/report.md "Tested in a browser"): writes into OUT
#   - every shipped scenario's report: `run --html`, `serve --html` (workload.mode: serve) or
#     `explore --html` (sweep.hardware), the default scenario's as default.html;
#   - one report of each further study: explain, sensitivity, compare, validate-data;
#   - each study's --json (serve's too) redrawn by `tessera report`, which must give the same
#     page but for the "redrawn by" line of its header, the producing command kept from the
#     --json's `command` (checked here, byte for byte, without the browser); the --json of
#     explore and the redrawn serve page are opened in the browser too;
#   - `tessera report --png` and `--vega` of one result (a PNG and a .vl.json per chart);
#   - the default scenario with report.scopes [full, attention] (one page, a toggle), and
#     serve, explore (a search and a serving grid), explain, sensitivity and compare with
#     --scopes full,attention (their toggles clicked in the browser; serve's redrawn too);
# then opens every report in headless chromium (browser_test.mjs: one browser launch, one page
# at a time; a PNG screenshot of each in OUT).
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

# redrawn_as_written KIND: `tessera report KIND.json` gives KIND.html but for one added header
# line, "redrawn by: tessera report ...", the command line kept the one that wrote KIND.json.
redrawn_as_written() {
  local kind=$1
  "$tessera" report "$out/$kind.json" --html "$out/$kind-redrawn.html"
  if ! cmp -s "$out/$kind.html" <(grep -v '^<tr><th>redrawn by</th>' "$out/$kind-redrawn.html"); then
    echo "FAIL: tessera report $kind.json does not redraw $kind.html"; exit 1
  fi
  grep -q "^<tr><th>redrawn by</th><td><code>tessera report $out/$kind.json --html $out/$kind-redrawn.html</code>" \
    "$out/$kind-redrawn.html" || { echo "FAIL: $kind-redrawn.html does not say what redrew it"; exit 1; }
}

# serve_with_json: a disaggregated serving study's --json and page (redrawn below, opened).
serve_with_json() {
  "$tessera" serve -q "$src/scenarios/llama3.1-70b-serve-4k1k-h100-disagg.yaml" \
    --json "$out/serve.json" --html "$out/serve.html" >/dev/null
  grep -q '"command": "tessera serve -q ' "$out/serve.json" || { echo "FAIL: serve --json has no command"; exit 1; }
}

rm -rf "$out" && mkdir -p "$out"
export TESSERA_WEB_DIR="$modules" CHROMIUM="$chromium"
reports=("$out/default.html")
"$tessera" run -q --json "$out/default.json" --html "$out/default.html" >/dev/null
for s in "$src"/scenarios/*.yaml; do
  name=$(basename "$s" .yaml)
  [ "$name" = llama3.1-70b-decode-128k ] && continue  # the default scenario: default.html
  if grep -Eq '^  hardware:' "$s"; then study=explore    # sweep.hardware
  elif grep -Eq '(^|[{ ,])mode: *serve' "$s"; then study=serve
  else study=run; fi
  top=()  # a request stream: the capacity charts of the top 3 (20 by default: the digest runs those)
  [ "$study" = serve ] && grep -Eq '^  requests:' "$s" && top=(--simulate-top 3)
  "$tessera" "$study" -q "$s" "${top[@]}" --html "$out/$name.html" >/dev/null
  reports+=("$out/$name.html")
done
# One report of each further study, with its --json.
"$tessera" explain -q --config "cp=8,tp=16,kv_shard_mode=replicate,ffn_shard_scope=TP+CP" \
  --json "$out/explain.json" --html "$out/explain.html" >/dev/null
"$tessera" sensitivity -q --json "$out/sensitivity.json" --html "$out/sensitivity.html" >/dev/null
"$tessera" compare -q "$src/scenarios/llama3.1-70b-compare-latency-models.yaml" \
  --json "$out/compare.json" --html "$out/compare.html" >/dev/null
"$tessera" validate-data -q "$src/data/measurements-h200.csv" --latency roofline,overlap,calibrated \
  --json "$out/validate-data.json" --html "$out/validate-data.html" >/dev/null
"$tessera" explore -q "$src/scenarios/llama3.1-70b-hbm-vs-links-explore.yaml" \
  --json "$out/explore.json" --html "$out/explore.html" >/dev/null
serve_with_json
reports+=("$out/explain.html" "$out/sensitivity.html" "$out/compare.html" "$out/validate-data.html")
reports+=("$out/explore.html")
# Redrawn from the --json alone: the same page but for the "redrawn by" line.
for kind in default explain sensitivity compare validate-data explore serve; do
  redrawn_as_written "$kind"
done
reports+=("$out/default-redrawn.html" "$out/serve-redrawn.html")
# report.scopes: both scopes in one page, flipped by its toggle (the browser test flips it).
"$tessera" run -q --set 'report.scopes=[full, attention]' --html "$out/default-scopes.html" >/dev/null
grep -q 'data-scope="attention"' "$out/default-scopes.html" || { echo "FAIL: report.scopes drew no attention charts"; exit 1; }
reports+=("$out/default-scopes.html")
# report.scopes on the other studies (--scopes; each NAME-scopes.html is flipped by its toggle in
# the browser), and a two-scope result redrawn by `tessera report`.
"$tessera" serve -q "$src/scenarios/llama3.1-70b-serve-4k1k-h100.yaml" --scopes full,attention \
  --json "$out/serve-scopes.json" --html "$out/serve-scopes.html" >/dev/null
"$tessera" explore -q "$src/scenarios/llama3.1-70b-hbm-vs-links-explore.yaml" --scopes full,attention \
  --html "$out/explore-scopes.html" >/dev/null
"$tessera" explore -q "$src/scenarios/llama3.1-70b-serve-4k1k-pair-parts-explore.yaml" --scopes full,attention \
  --html "$out/explore-serve-scopes.html" >/dev/null
"$tessera" explain -q --config "cp=8,tp=16" --scopes full,attention --html "$out/explain-scopes.html" >/dev/null
"$tessera" sensitivity -q --scopes full,attention --html "$out/sensitivity-scopes.html" >/dev/null
"$tessera" compare -q "$src/scenarios/llama3.1-70b-compare-latency-models.yaml" --scopes full,attention \
  --html "$out/compare-scopes.html" >/dev/null
redrawn_as_written serve-scopes
for k in serve explore explore-serve explain sensitivity compare; do
  grep -q 'data-scope="attention"' "$out/$k-scopes.html" || { echo "FAIL: $k --scopes drew no attention charts"; exit 1; }
  reports+=("$out/$k-scopes.html")
done
# --vega and --png: a spec and a PNG per chart of the compare report.
"$tessera" report "$out/compare.json" --vega "$out/compare-vega" --png "$out/compare-png"
for id in latencies ranks winners; do
  [ -s "$out/compare-vega/$id.vl.json" ] || { echo "FAIL: --vega wrote no $id.vl.json"; exit 1; }
  [ "$(head -c 4 "$out/compare-png/$id.png" | tail -c 3)" = PNG ] || { echo "FAIL: --png wrote no $id.png"; exit 1; }
done
echo "ok: report redraws 7 studies; --vega and --png wrote 3 charts each"
exec node "$src/tests/report/browser_test.mjs" --chromium "$chromium" --modules "$modules" --out "$out" "${reports[@]}"
