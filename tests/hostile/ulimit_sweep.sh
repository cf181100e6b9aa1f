#!/usr/bin/env bash
# The ulimit sweep (the hostile-input acceptance; docs/limits.md): every hostile-case input
# (tests/bad-inputs/, its data/ and fixtures/ included) and every file of tests/fuzz/corpus/*/ goes
# through `tessera validate FILE`, `tessera run FILE` and `tessera explain FILE --config tp=1` under
# `ulimit -v` (2000000 KiB by default) with a per-run timeout. The rule: each run works or exits 2
# naming the limit. A run FAILS when it
#   - is ended by a signal (crash), or runs past the timeout (hung),
#   - exits with anything but 0, 1 (failed while running) or 2 (bad input),
#   - reports running out of memory (std::bad_alloc, "terminate called") instead of a limit.
# Release build only (ASan cannot run under ulimit -v). Not part of `make test`: `make hostile`.
#
#   tests/hostile/ulimit_sweep.sh [-b BUILD] [-j JOBS] [-t SECONDS] [-m KIB] [-v]
#
# Runs happen in a scratch copy of the inputs (outputs a scenario asks for land there), from a
# folder laid out like tests/, so diagnostics name bad-inputs/NAME.yaml as the cases do.
# Prints one line per failed run, then `N passed, N failed`; exit status 1 when any failed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build="$root/build"
jobs=2
timeout_s=${HOSTILE_TIMEOUT:-20}
mem_kib=2000000
verbose=0

# Internal: one run, printing `PASS|FAIL <why>\t<command>`.
if [[ "${1:-}" == "--one" ]]; then
  tessera=$2 mem_kib=$3 timeout_s=$4 cmd=$5 file=$6
  case "$cmd" in
    validate) args=(validate "$file") ;;
    run) args=(run "$file" -q) ;;
    explain) args=(explain "$file" --config tp=1) ;;
  esac
  err=$(mktemp)
  (
    ulimit -v "$mem_kib"
    exec timeout -k 2 "$timeout_s" "$tessera" "${args[@]}" </dev/null >/dev/null 2>"$err"
  ) 2>/dev/null  # not bash's own "Segmentation fault" line: the verdict says it
  rc=$?
  first=$(head -c 300 "$err" | head -1 | tr -d '\r')
  why=""
  if ((rc == 124 || rc == 137)); then
    why="hung (over ${timeout_s} s)"
  elif ((rc > 128)); then
    why="crashed with SIG$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128)))"
  elif grep -q -e 'bad_alloc' -e 'terminate called' -e 'cannot allocate memory' "$err"; then
    why="ran out of memory (exit $rc) instead of naming a limit"
  elif ((rc != 0 && rc != 1 && rc != 2)); then
    why="exit $rc"
  fi
  rm -f "$err"
  if [[ -n "$why" ]]; then verdict="FAIL $why"; else verdict="PASS exit $rc"; fi
  printf '%s\t%s\t%s\n' "$verdict" "tessera ${args[*]}" "$first"
  exit 0
fi

while getopts "b:j:t:m:v" opt; do
  case $opt in
    b) build=$(cd "$OPTARG" && pwd) ;;
    j) jobs=$OPTARG ;;
    t) timeout_s=$OPTARG ;;
    m) mem_kib=$OPTARG ;;
    v) verbose=1 ;;
    *) exit 2 ;;
  esac
done

tessera="$build/bin/tessera"
if [[ ! -x "$tessera" ]]; then
  echo "ulimit_sweep: no $tessera (build first: make build)" >&2
  exit 2
fi

# The scratch copy, laid out like tests/.
work=$(mktemp -d "${TMPDIR:-/tmp}/tessera-hostile.XXXXXX")
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
cp -r "$root/tests/bad-inputs" "$work/bad-inputs"
rm -rf "$work"/bad-inputs/{*.expect,*.md,*.cpp,CMakeLists.txt,runner-selftest}
if [[ -d "$root/tests/fuzz/corpus" ]]; then
  mkdir -p "$work/fuzz"
  cp -r "$root/tests/fuzz/corpus" "$work/fuzz/corpus"
fi
# HOSTILE_EXTRA_DIRS: more folders whose every file is swept too, e.g. the corpora a long
# `make fuzz` grew (HOSTILE_EXTRA_DIRS="$(echo build-asan/fuzz/*/corpus)").
n=0
for d in ${HOSTILE_EXTRA_DIRS:-}; do
  [[ -d "$d" ]] || continue
  n=$((n + 1))
  mkdir -p "$work/extra/$n"
  cp -r "$d"/. "$work/extra/$n/"
done
list="$work/.inputs"
(cd "$work" && find bad-inputs -type f | sort) >"$list"
if [[ -d "$work/fuzz/corpus" ]]; then
  (cd "$work" && find fuzz/corpus -mindepth 2 -maxdepth 2 -type f | sort) >>"$list"
fi
if [[ -d "$work/extra" ]]; then
  (cd "$work" && find extra -type f | sort) >>"$list"
fi
inputs=$(wc -l <"$list")
corpus=$(grep -c '^fuzz/' "$list" || true)
echo "ulimit_sweep: $inputs inputs ($corpus from tests/fuzz/corpus), 3 commands each, ulimit -v $mem_kib, timeout ${timeout_s} s, $jobs at a time" >&2

results="$work/.results"
(
  cd "$work" || exit 2
  export TESSERA_DATA_DIR=bad-inputs/data TESSERA_PLUGIN_PATH=
  while IFS= read -r f; do
    for c in validate run explain; do printf '%s\0%s\0' "$c" "$f"; done
  done <"$list" | xargs -0 -n 2 -P "$jobs" "$here/ulimit_sweep.sh" --one "$tessera" "$mem_kib" "$timeout_s"
) >"$results"

passed=$(grep -c '^PASS' "$results" || true)
failed=$(grep -c '^FAIL' "$results" || true)
if ((verbose)); then
  sort -t$'\t' -k2 "$results"
else
  grep '^FAIL' "$results" | sort -t$'\t' -k2
fi
echo "$passed passed, $failed failed"
((failed == 0))
