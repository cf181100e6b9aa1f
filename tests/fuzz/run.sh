#!/usr/bin/env bash
# Runs the libFuzzer harnesses of a TESSERA_FUZZ build (docs/fuzzing.md).
#   tests/fuzz/run.sh [-b BUILD] [-j JOBS] SECONDS [HARNESS...]
# SECONDS > 0 fuzzes each harness that long (JOBS at a time, default 1); SECONDS = 0 only runs
# every seed input once (CTest's `fuzz` label). HARNESS defaults to every BUILD/bin/fuzz_*.
# Seeds: tests/fuzz/corpus/<harness without fuzz_>/ (or corpus/<harness>/) plus the shipped files that harness reads
# (see seeds_for); new inputs go to BUILD/fuzz/<harness>/corpus, crashes to BUILD/fuzz/<harness>/
# (crash-*, leak-*, timeout-*, oom-*), the log to BUILD/fuzz/<harness>/log. A crash found
# becomes a regression: copy the file to tests/fuzz/regressions/<harness>/ (CTest replays it).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
build="$src/build-asan"
jobs=1
while getopts "b:j:" opt; do
  case $opt in
    b) build="$OPTARG" ;;
    j) jobs="$OPTARG" ;;
    *) echo "usage: $0 [-b BUILD] [-j JOBS] SECONDS [HARNESS...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 [-b BUILD] [-j JOBS] SECONDS [HARNESS...]" >&2
  exit 2
fi
seconds="$1"
shift
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  for b in "$build"/bin/fuzz_*; do [ -x "$b" ] && harnesses+=("$(basename "$b")"); done
fi
if [ ${#harnesses[@]} -eq 0 ]; then
  echo "$0: no harnesses in $build/bin (configure with -DTESSERA_FUZZ=ON and build fuzz_harnesses)" >&2
  exit 2
fi

# The shipped inputs each harness starts from, besides its own corpus folder.
seeds_for() {
  case "$1" in
    fuzz_model_yaml) echo "$src/models $src/tests/bad-inputs/data/models $src/tests/bad-inputs/fixtures" ;;
    fuzz_machine_yaml) echo "$src/machines $src/tests/bad-inputs/data/machines" ;;
    fuzz_scenario_yaml) echo "$src/scenarios $src/tests/bad-inputs" ;;
    fuzz_hf_config) echo "$src/tests/fixtures/hf $src/tests/bad-inputs/fixtures" ;;
    fuzz_csv) echo "$src/data" ;;
    *) echo "" ;;
  esac
}

# -max_len: 64 KiB, not the file.bytes limit (16 MiB): the shipped files are < 8 KiB, and
# inputs that long make each execution slow without reaching new code.
# -rss_limit_mb: 2048, the memory a run may use (docs/limits.md: ulimit -v 2000000).
run_one() {
  local h="$1" bin="$build/bin/$1" work="$build/fuzz/$1"
  local name="${h#fuzz_}"
  mkdir -p "$work/corpus"
  # The harnesses' temporary input folders (tests/fuzz/fuzz_input.hpp) go here, not to /tmp:
  # libFuzzer ends some runs (fork mode, -max_total_time) without static destructors.
  rm -rf "$work/tmp" && mkdir -p "$work/tmp"
  local args=(${FUZZ_FLAGS:-} -timeout=2 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1
              "-artifact_prefix=$work/")
  local f
  for f in "$here/$name.dict" "$here/$h.dict"; do [ -f "$f" ] && args+=("-dict=$f"); done
  case "$h" in fuzz_model_yaml | fuzz_machine_yaml | fuzz_scenario_yaml | fuzz_set_override)
    [ -f "$here/yaml.dict" ] && args+=("-dict=$here/yaml.dict") ;;
  esac
  if [ "$seconds" -eq 0 ]; then args+=(-runs=0); else args+=("-max_total_time=$seconds"); fi
  # A replay (SECONDS = 0) runs the seeds only, not what earlier runs found.
  local dirs=("$work/corpus")
  if [ "$seconds" -eq 0 ]; then rm -rf "$work/replay" && mkdir -p "$work/replay" && dirs=("$work/replay"); fi
  for f in "$here/corpus/$name" "$here/corpus/$h"; do [ -d "$f" ] && dirs+=("$f"); done
  for d in $(seeds_for "$h"); do [ -d "$d" ] && dirs+=("$d"); done
  if [ ! -x "$bin" ]; then
    echo "FAIL $h: $bin not built" >&2
    return 1
  fi
  local rc=0
  TMPDIR="$work/tmp" nice "$bin" "${args[@]}" "${dirs[@]}" >"$work/log" 2>&1 || rc=$?
  rm -rf "$work/tmp"
  if [ "$rc" -eq 0 ]; then
    # Executions: the final stats line, or (fork mode) the last progress line.
    local runs
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$work/log" | grep -Eo '[0-9]+$' | tail -1)
    [ -n "$runs" ] || runs=$(grep -Eo '^#[0-9]+' "$work/log" | tail -1 | tr -d '#')
    echo "ok   $h: ${runs:-?} executions in ${seconds}s"
  else
    echo "FAIL $h (log $work/log):" >&2
    grep -E '^==[0-9]+==|SUMMARY|ERROR|Test unit written|Base64|#0 |#1 |#2 |#3 ' "$work/log" | head -30 >&2
    return 1
  fi
}

status=0
running=0
for h in "${harnesses[@]}"; do
  run_one "$h" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
done
while [ "$running" -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
exit $status
