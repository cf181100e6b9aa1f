#!/usr/bin/env bash
# Strong scaling across MPI ranks on this machine (docs/performance.md "Across MPI ranks"):
#  1. explore of bench/scenarios/explore-1e8.yaml (1.03e8 evaluations) on 1, 2 and 4 ranks of one
#     thread each (mpirun --oversubscribe where the ranks outnumber the cores), against the same
#     study in one process without mpirun;
#  2. the capacity search of scenarios/llama3.1-70b-serve-4k1k-h100-poisson.yaml (20 finalists,
#     each a bisection of request simulations) the same way;
#  3. the cost of one work unit past its compute: an explore of one configuration at 2,000
#     hardware points on 2 ranks (rank 0 hands out, receives, loads and merges 2,000 units),
#     minus the same in one process, per unit.
# Every run's --json is compared with the one-process run's (byte-identical, or the script fails).
# Usage: bench/mpi_scaling.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: bench/mpi_scaling.sh BUILD_DIR}
src=$(cd "$(dirname "$0")/.." && pwd)
tessera=$build/bin/tessera
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=(); [ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
mpirun=(mpirun "${root[@]}" --oversubscribe --bind-to none --mca btl self,vader
        --mca btl_vader_single_copy_mechanism none)
cores=$(nproc)

seconds() {  # wall seconds of: "$@"
  local s e
  s=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  e=$(date +%s.%N)
  echo "$e - $s" | bc -l
}

scale() {  # STUDY SCENARIO ARGS...: one process, then 1, 2 and 4 ranks, one thread each
  local study=$1 scenario=$2
  shift 2
  local args=("$study" "$scenario" --threads 1 -q --json "$work/out.json" "$@")
  local base
  base=$(seconds "$tessera" "${args[@]}")
  cp "$work/out.json" "$work/one.json"
  printf '%-12s %-28s %8s %9s %8s\n' study run seconds speed-up note
  printf '%-12s %-28s %8.1f %9s %8s\n' "$study" "one process, 1 thread" "$base" 1.00 ""
  for n in 1 2 4; do
    local t note=""
    t=$(seconds "${mpirun[@]}" -np "$n" "$tessera" "${args[@]}")
    cmp -s "$work/out.json" "$work/one.json" || { echo "mpi_scaling: $n ranks: --json differs" >&2; exit 1; }
    [ "$n" -gt "$cores" ] && note="oversubscribed ($cores cores)"
    printf '%-12s %-28s %8.1f %9.2f %s\n' "$study" "$n ranks x 1 thread" "$t" "$(echo "$base / $t" | bc -l)" "$note"
  done
}

echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg), $cores cores"
scale explore "$src/bench/scenarios/explore-1e8.yaml" --no-sensitivity --max-configs 200000000
scale serve "$src/scenarios/llama3.1-70b-serve-4k1k-h100-poisson.yaml"

# 3. Per-unit cost: one configuration, 2,000 hardware points (units).
sed -e "s|\.\./\.\./|$src/|" \
    -e 's/^    cp: .*/    cp: [1]/; s/^    tp: .*/    tp: [8]/; s/^    pp: .*/    pp: [1]/; s/^    dp: .*/    dp: [1]/' \
    -e 's/^    machine.levels.cube.link_bw: .*/    machine.levels.cube.link_bw: [100 GB\/s, 200 GB\/s, 300 GB\/s, 400 GB\/s, 500 GB\/s]/' \
    "$src/bench/scenarios/explore-1e8.yaml" > "$work/units.yaml"
units=2000
one=$(seconds "$tessera" explore "$work/units.yaml" --threads 1 -q --no-sensitivity --json "$work/u1.json")
two=$(seconds "${mpirun[@]}" -np 2 "$tessera" explore "$work/units.yaml" --threads 1 -q --no-sensitivity --json "$work/u1.json")
start=$(seconds "${mpirun[@]}" -np 2 "$tessera" --version)
echo "== per unit: $units units of one configuration: one process $(printf %.2f "$one") s, 2 ranks $(printf %.2f "$two") s, mpirun start $(printf %.2f "$start") s"
echo "   past the start, per unit: one process $(echo "$one * 1000000 / $units" | bc -l | xargs printf %.0f) us, 2 ranks $(echo "($two - $start) * 1000000 / $units" | bc -l | xargs printf %.0f) us"
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
