#!/usr/bin/env bash
# What isolated workers cost (docs/performance.md "Isolated workers"): `tessera run` of the
# default scenario in this process (--no-isolate) and in worker processes (--isolate-plugins),
# on the same threads, as a table: wall time (best of REPS), its ratio, and the cost per
# configuration past the fixed start (the default scenario against the same scenario with a
# widened sweep: the difference in time over the difference in configurations); then `serve` and
# `sensitivity` run whole in one worker against the same in this process.
# Usage: bench/isolation_cost.sh BUILD_DIR [THREADS] [REPS]
set -euo pipefail
build=${1:?usage: bench/isolation_cost.sh BUILD_DIR [THREADS] [REPS]}
threads=${2:-2}
reps=${3:-7}
src=$(cd "$(dirname "$0")/.." && pwd)
tessera=$build/bin/tessera
scenario=$src/scenarios/llama3.1-70b-decode-128k.yaml
wide=(--set 'sweep.parallelism.dp=[1,2,3,4,5,6,7,8,12,16,24,32]'
      --set 'sweep.parallelism.pp=[1,2,3,4,5,6,7,8,10,12,16]'
      --set 'sweep.parallelism.cp=[1,2,3,4,6,8,12,16,24,32,48,64,96]'
      --set 'sweep.parallelism.tp=[1,2,4,8,16,32,64]')

best_of() {  # best wall seconds of $reps runs of: tessera ARGS
  local best=""
  for _ in $(seq "$reps"); do
    local s e t
    s=$(date +%s.%N)
    "$tessera" "$@" >/dev/null
    e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}

configs() {  # the configurations a run evaluates
  "$tessera" run "$@" --threads 1 2>&1 >/dev/null | sed -n 's/.*1 machine: at most \([0-9]*\) evaluations.*/\1/p'
}

n_default=$(configs "$scenario")
n_wide=$(configs "$scenario" "${wide[@]}")
printf "isolation cost: tessera run, %s threads, best of %s (%s configurations; widened sweep %s)\n" \
  "$threads" "$reps" "$n_default" "$n_wide"
printf "%-22s %12s %12s %8s\n" "" "in-process" "isolated" "ratio"
for output in text json; do
  extra=(-q --threads "$threads")
  [ "$output" = json ] && extra+=(--json /dev/null)
  a=$(best_of run "$scenario" "${extra[@]}" --no-isolate)
  b=$(best_of run "$scenario" "${extra[@]}" --isolate-plugins)
  aw=$(best_of run "$scenario" "${wide[@]}" "${extra[@]}" --no-isolate)
  bw=$(best_of run "$scenario" "${wide[@]}" "${extra[@]}" --isolate-plugins)
  printf "%-22s %10.1f ms %10.1f ms %7.2fx\n" "default, $output" "$(echo "$a*1000" | bc -l)" \
    "$(echo "$b*1000" | bc -l)" "$(echo "$b/$a" | bc -l)"
  printf "%-22s %10.1f ms %10.1f ms %7.2fx\n" "widened, $output" "$(echo "$aw*1000" | bc -l)" \
    "$(echo "$bw*1000" | bc -l)" "$(echo "$bw/$aw" | bc -l)"
  pa=$(echo "($aw-$a)/($n_wide-$n_default)*1000000" | bc -l)
  pb=$(echo "($bw-$b)/($n_wide-$n_default)*1000000" | bc -l)
  printf "%-22s %10.3f us %10.3f us %7.2fx\n" "per config, $output" "$pa" "$pb" "$(echo "$pb/$pa" | bc -l)"
done

# A whole study in one worker (serve, sensitivity): the same study plus the worker's start.
printf "whole study in one worker, %s threads, best of %s\n" "$threads" "$reps"
for study in "serve $src/scenarios/llama3.1-70b-serve-4k1k-h100.yaml" "sensitivity $scenario"; do
  read -r -a cmd <<<"$study"
  a=$(best_of "${cmd[@]}" -q --threads "$threads" --json /dev/null --no-isolate)
  b=$(best_of "${cmd[@]}" -q --threads "$threads" --json /dev/null --isolate-plugins)
  printf "%-22s %10.1f ms %10.1f ms %7.2fx\n" "${cmd[0]}, json" "$(echo "$a*1000" | bc -l)" \
    "$(echo "$b*1000" | bc -l)" "$(echo "$b/$a" | bc -l)"
done
