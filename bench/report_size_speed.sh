#!/usr/bin/env bash
# The HTML report's size and speed (`make bench`; docs/performance.md
# "HTML reports: size and speed"). Targets:
#   - a report of a 10^6-configuration sweep (bench/scenarios/sweep-1m.yaml: 1 044 522 valid
#     configurations, exhaustive) is under 20 MB and renders in under 3 s: navigation start to
#     every view's runAsync() resolved, in headless Debian chromium over the DevTools protocol
#     (bench/report_render.mjs, the browser test's puppeteer-core);
#   - writing it adds at most 10 % to that sweep's run time;
#   - writing it adds at most 0.3 s to any shipped study (every shipped scenario through the
#     study it is for, and every other study that takes --html on the default scenario).
# Times are the best of REPS runs (default 3), plain and with --html alternating, wall and CPU
# (user + system). Prints one line per figure and "FAIL: ..." for a missed target (exit 1).
# The render is skipped, with a message, without node, chromium or the npm packages.
# report_size_speed.sh [BUILD_DIR]   (env: REPS, TESSERA_WEB_DIR, CHROMIUM)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
tessera=$build/bin/tessera
reps=${REPS:-3}
modules=${TESSERA_WEB_DIR:-$src/third_party/web/node_modules}
chromium=${CHROMIUM:-/usr/bin/chromium}
export TESSERA_WEB_DIR=$modules
if [ ! -f "$modules/vega/build/vega.min.js" ]; then
  echo "report_size_speed: SKIP: no script bundles in $modules (scripts/install-deps.sh runs npm ci)"
  exit 0
fi
out=$build/bench/report
rm -rf "$out" && mkdir -p "$out"
failed=0
fail() { echo "FAIL: $1"; failed=1; }

# best_of CMD...: runs CMD (stdout and stderr dropped) REPS times; prints "WALL CPU" (seconds),
# the least of each.
best_of() {
  local best_w="" best_c="" t w u s c
  for ((i = 0; i < reps; ++i)); do
    t=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1; } 2>&1 ) || return 1
    read -r w u s <<<"$t"
    c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.3f", u + s }')
    best_w=$(awk -v a="$best_w" -v b="$w" 'BEGIN { print (a == "" || b < a) ? b : a }')
    best_c=$(awk -v a="$best_c" -v b="$c" 'BEGIN { print (a == "" || b < a) ? b : a }')
  done
  echo "$best_w $best_c"
}

# --- the 10^6-configuration sweep ---
sweep=$src/bench/scenarios/sweep-1m.yaml
"$tessera" run -q "$sweep" --html "$out/sweep-1m.html" --json "$out/sweep-1m.json" >/dev/null
configs=$(sed -n 's/.*"evaluated": \([0-9]*\).*/\1/p' "$out/sweep-1m.json" | head -1)
read -r plain_w plain_c <<<"$(best_of "$tessera" run -q "$sweep")"
read -r html_w html_c <<<"$(best_of "$tessera" run -q "$sweep" --html "$out/sweep-1m.html")"
bytes=$(stat -c %s "$out/sweep-1m.html")
awk -v n="$configs" -v pw="$plain_w" -v pc="$plain_c" -v hw="$html_w" -v hc="$html_c" -v b="$bytes" 'BEGIN {
  printf "sweep-1m: %d configurations evaluated; run %.2f s wall, %.2f s CPU; with --html %.2f s wall, %.2f s CPU (%+.1f %% wall, %+.1f %% CPU)\n",
         n, pw, pc, hw, hc, 100 * (hw - pw) / pw, 100 * (hc - pc) / pc
  printf "sweep-1m: report %.2f MB (%d bytes)\n", b / 1e6, b }'
[ "$bytes" -lt 20000000 ] || fail "the 10^6-configuration report is $bytes bytes (target < 20 MB)"
awk -v pw="$plain_w" -v hw="$html_w" -v pc="$plain_c" -v hc="$html_c" \
  'BEGIN { exit !((hw - pw) <= 0.10 * pw || (hc - pc) <= 0.10 * pc) }' ||
  fail "writing the 10^6-configuration report adds more than 10 % to the sweep (wall and CPU)"

if command -v node >/dev/null 2>&1 && [ -x "$chromium" ] && [ -f "$modules/puppeteer-core/package.json" ]; then
  render=$(node "$src/bench/report_render.mjs" --chromium "$chromium" --modules "$modules" --loads "$reps" \
    "$out/sweep-1m.html")
  echo "sweep-1m: $render (ms: least, median, most)"
  # The browser test's checks on it too: no console error, every mark drew, hovering works.
  node "$src/tests/report/browser_test.mjs" --chromium "$chromium" --modules "$modules" --out "$out/browser" \
    "$out/sweep-1m.html" | sed 's/^/sweep-1m: browser test: /' || fail "the 10^6-configuration report fails the browser test"
  least=$(awk '{ print $3 }' <<<"$render")
  [ "${least%.*}" -lt 3000 ] 2>/dev/null || fail "the 10^6-configuration report renders in $least ms (target < 3 s)"
else
  echo "sweep-1m: render not measured (no node, chromium at $chromium or puppeteer-core in $modules;" \
       "scripts/install-deps.sh installs them)"
fi

# --- every shipped study: what --html adds ---
studies=()
for s in "$src"/scenarios/*.yaml; do
  if grep -Eq '^  hardware:' "$s"; then studies+=("explore $s")
  elif grep -Eq '(^|[{ ,])mode: *serve' "$s"; then studies+=("serve $s")
  elif [[ $(basename "$s") == *compare* ]]; then studies+=("compare $s")
  else studies+=("run $s"); fi
done
default=$src/scenarios/llama3.1-70b-decode-128k.yaml
studies+=("explain $default" "sensitivity $default")
worst=0 worst_name=""
for st in "${studies[@]}"; do
  read -r cmd file <<<"$st"
  name="$cmd $(basename "$file" .yaml)"
  # A study that does not take --html yet (exit 2, its option unknown) is named and skipped.
  if ! "$tessera" "$cmd" -q "$file" --html "$out/probe.html" >/dev/null 2>"$out/probe.err"; then
    if grep -q "unknown option '--html'" "$out/probe.err"; then
      echo "shipped: $name: no --html (skipped)"
      continue
    fi
    fail "$name --html: $(head -1 "$out/probe.err")"
    continue
  fi
  read -r pw pc <<<"$(best_of "$tessera" "$cmd" -q "$file")"
  read -r hw hc <<<"$(best_of "$tessera" "$cmd" -q "$file" --html "$out/probe.html")"
  added=$(awk -v a="$pw" -v b="$hw" 'BEGIN { printf "%.3f", b - a }')
  added_cpu=$(awk -v a="$pc" -v b="$hc" 'BEGIN { printf "%.3f", b - a }')
  echo "shipped: $name: wall ${pw} s -> ${hw} s (${added} s), CPU ${pc} s -> ${hc} s (${added_cpu} s);" \
       "report $(stat -c %s "$out/probe.html") bytes"
  if awk -v x="$added_cpu" -v w="$worst" 'BEGIN { exit !(x > w) }'; then worst=$added_cpu worst_name=$name; fi
  # The report is written on one thread after the study: what it adds is CPU time that is also
  # wall time on an idle machine; the wall figure of a loaded machine is noise (both printed).
  awk -v x="$added_cpu" -v y="$added" 'BEGIN { exit !(x <= 0.3 || y <= 0.3) }' ||
    fail "$name: --html adds $added_cpu s CPU, $added s wall (target <= 0.3 s)"
done
echo "shipped: the most --html adds: ${worst} s CPU ($worst_name)"
exit $failed
