#!/bin/bash
# A build tree copied elsewhere runs without the source tree it was built from.
#   relocated_build_test.sh BUILD_DIR SOURCE_DIR [check-paths|sanitized]
# Copies the build's programs and what they read (bin/tessera, lib/ with the plugins,
# share/tessera: the staged models, machines, scenarios, data and chart libraries) to WORK_DIR,
# a fresh temporary folder outside both trees (removed after a pass), then checks, with every TESSERA_* variable unset and the working folder elsewhere:
#   - no copied binary or library holds the source tree's path (nor the build tree's); left out,
#     and said, for a sanitizer build (third argument `sanitized`), whose reports need the paths;
#   - `tessera plugins` lists plugins of the copy only;
#   - the copy's Python module (when built) searches the copy's plugins and reads its data;
#   - `tessera run` (the default scenario) reads the copy's data: the copy's default scenario is
#     renamed, and the result carries the new name; its HTML report inlines the copy's chart
#     libraries: the copy's vega package.json is re-versioned, and the page's footer says so.
# The source tree cannot be hidden in a shared checkout; the renamed copies show which files
# were read without tracing the process.
set -euo pipefail
build=$(cd "$1" && pwd -P) src=$(cd "$2" && pwd -P) paths=${3:-check-paths}
case "$paths" in check-paths | sanitized) ;; *) echo "FAIL: third argument '$paths': expected check-paths or sanitized"; exit 2 ;; esac
work=$(cd "$(mktemp -d "${TMPDIR:-/tmp}/tessera-relocated.XXXXXX")" && pwd -P)
case "$work/" in "$src/"* | "$build/"*) echo "FAIL: the temporary folder $work lies in the source or build tree"; exit 1 ;; esac
mkdir -p "$work/copy/bin" "$work/copy/share" "$work/elsewhere"
copy=$work/copy
cp -a "$build/bin/tessera" "$copy/bin/"
cp -a "$build/lib" "$copy/"
cp -a "$build/share/tessera" "$copy/share/"
have_python=0
if [ -d "$build/python/tessera" ] && ls "$build"/python/tessera/_tessera*.so >/dev/null 2>&1; then
  have_python=1
  mkdir -p "$copy/python"
  cp -a "$build/python/tessera" "$copy/python/"
fi
fail() { echo "FAIL: $*"; exit 1; }

# 1. No path of the source (or build) tree inside a binary or library.
for f in "$copy/bin/tessera" "$copy"/lib/*.so* "$copy"/lib/tessera/plugins/*.so "$copy"/python/tessera/_tessera*.so; do
  [ -f "$f" ] && [ "$paths" = check-paths ] || continue
  if grep -qF "$src" "$f"; then fail "$f holds the source path $src: $(strings "$f" | grep -F "$src" | head -3)"; fi
  if grep -qF "$build" "$f"; then fail "$f holds the build path $build"; fi
done

# The copy's own data, marked: the default scenario renamed, vega re-versioned.
scenario=$copy/share/tessera/scenarios/llama3.1-70b-decode-128k.yaml
[ -f "$scenario" ] || fail "the build did not stage the default scenario ($scenario)"
sed -i 's/^name: .*/name: relocated-copy/' "$scenario"
have_web=0
if [ -f "$copy/share/tessera/web/vega/package.json" ]; then
  have_web=1
  sed -i 's/"version": *"\([^"]*\)"/"version": "\1-relocated"/' "$copy/share/tessera/web/vega/package.json"
fi

clean_env=(env -i "PATH=/usr/bin:/bin" "HOME=${HOME:-/tmp}" "LANG=C.UTF-8")
cd "$work/elsewhere"

# 2. The plugins found are the copy's.
plugins=$("${clean_env[@]}" "$copy/bin/tessera" plugins 2>&1) || fail "tessera plugins failed: $plugins"
# (Here-strings, not `echo | grep -q`: grep -q stops at the first match, and with pipefail the
# writer's SIGPIPE on a long listing would fail the check.)
grep -qF "$copy/lib/tessera/plugins" <<<"$plugins" || fail "tessera plugins names no plugin of the copy:
$plugins"
if grep -qF "$src" <<<"$plugins"; then fail "tessera plugins names the source tree:
$plugins"; fi

# 3. The default scenario from the copy, and its HTML report with the copy's chart libraries.
html_args=()
[ $have_web = 1 ] && html_args=(--html "$work/elsewhere/run.html")
"${clean_env[@]}" "$copy/bin/tessera" run -q --json "$work/elsewhere/run.json" "${html_args[@]}" >"$work/elsewhere/run.txt" \
  2>"$work/elsewhere/run.err" || fail "tessera run failed: $(cat "$work/elsewhere/run.err")"
grep -q '"scenario": "relocated-copy"' "$work/elsewhere/run.json" || fail "the run did not read the copy's default scenario"
if grep -qF "$src" "$work/elsewhere/run.json" "$work/elsewhere/run.err"; then fail "the run's output names the source tree"; fi
if [ $have_web = 1 ]; then
  grep -q "Drawn with vega [0-9.]*-relocated" "$work/elsewhere/run.html" || fail "the HTML report did not inline the copy's vega"
fi
# 4. The Python module of the copy (when built) finds the copy's plugins and data.
if [ $have_python = 1 ]; then
  py=$("${clean_env[@]}" "PYTHONPATH=$copy/python" python3 -c 'import tessera
print(tessera.plugin_search_path())
print(tessera.Scenario.load().name)' 2>&1) || fail "the copy's Python module failed: $py"
  grep -qF "$copy/lib/tessera/plugins" <<<"$py" || fail "the copy's Python module searches no plugin folder of the copy: $py"
  if grep -qF "$build" <<<"$py"; then fail "the copy's Python module searches the build tree: $py"; fi
  grep -qx "relocated-copy" <<<"$py" || fail "the copy's Python module did not read the copy's default scenario: $py"
fi
rm -rf "$work"
if [ "$paths" = check-paths ]; then
  echo "ok: a copy at $copy ran the default scenario from its own data (chart libraries: $have_web, Python module: $have_python); no binary holds $src"
else
  echo "ok: a copy at $copy ran the default scenario from its own data (chart libraries: $have_web, Python module: $have_python); path check left out: a sanitizer build keeps source paths for its reports"
fi
