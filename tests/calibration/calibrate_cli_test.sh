#!/usr/bin/env bash
# `tessera calibrate`'s bad input: exit 2 and the message, for each refusal; --help exits 0 and
# shows an example. Usage: calibrate_cli_test.sh TESSERA SOURCE_DIR
set -u
tessera=$1
src=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/tessera-calibrate-XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0
expect() {  # expect CODE REGEX ARGS...
  local code=$1 regex=$2
  shift 2
  "$tessera" calibrate "$@" >"$dir/out" 2>"$dir/err"
  local rc=$?
  if [[ $rc != "$code" ]] || ! grep -Eq -- "$regex" "$dir/out" "$dir/err"; then
    echo "FAIL: tessera calibrate $*: expected exit $code and /$regex/, got exit $rc:"
    cat "$dir/out" "$dir/err" | head -20
    fail=1
  fi
}
header=id,source,source_locator,software,model,precision,hardware,n_devices,tp,pp,ep,batch,input_len,output_len,metric,value,unit,notes
printf '%s\n7,src,loc,vLLM 0.6.3,NoSuchModel-9B,bf16,A100 80GB,1,1,1,,1,128,1,ttft,10,ms,\n' "$header" >"$dir/unmapped.csv"
{
  head -1 "$src/data/measurements-h200.csv"
  grep 'kernel_latency' "$src/data/measurements-h200.csv" | grep '"M=' | head -2
} >"$dir/two.csv"

expect 0 'tessera calibrate my-h200.csv --family H100/H200' --help
expect 2 'name a measurements CSV'
expect 2 'no-such.csv: no such file' "$dir/no-such.csv"
expect 2 "--folds 'sources': expected in-sample, source, family, framework-version or all" \
  "$dir/unmapped.csv" --folds sources
expect 2 'no row could be mapped' "$dir/unmapped.csv"
expect 2 'row 7: ' "$dir/unmapped.csv"
expect 2 "--exclude-ids 'abc': expected an id or a range A-B" "$dir/unmapped.csv" --exclude-ids abc
expect 2 "--exclude-ids '5-1': expected an id or a range A-B of whole numbers with A <= B" \
  "$dir/unmapped.csv" --exclude-ids 5-1
expect 2 '2 mapped rows for 5 fitted values' "$dir/two.csv" --framework none --folds in-sample
expect 2 'held-out error cannot be measured' "$src/data/measurements-h200.csv" --framework none
expect 2 '--bands scores latency/calibrated only' "$dir/unmapped.csv" --latency measured --bands "$dir/b.csv"
[[ -e "$dir/b.csv" ]] && { echo "FAIL: --bands file written on bad input"; fail=1; }
# The band file's provenance comment lines (docs/report.md "Provenance"): Tessera's version,
# commit and build type, then each plugin library with the SHA-256 sha256sum computes.
"$tessera" calibrate "$src/data/measurements.csv" --extra "$src/data/measurements-h200.csv" --folds source \
  --rounds 1 --limit calibrate.fit_predictions=40 --bands "$dir/bands.csv" --summary -q >/dev/null 2>"$dir/err" ||
  { echo "FAIL: calibrate --bands:"; cat "$dir/err"; fail=1; }
if ! sed -n 2p "$dir/bands.csv" | grep -Eq '^# tessera [0-9.]+, commit ([0-9a-f]{40}|unknown), build [A-Za-z]+, '; then
  echo "FAIL: --bands line 2 is not the provenance line:"; head -3 "$dir/bands.csv"; fail=1
fi
plugin_line=$(grep -m1 '^# plugin latency/calibrated ' "$dir/bands.csv")
# No path in the file (it is regenerated in other checkouts): the build's library is the one loaded.
lib=$(dirname "$tessera")/../lib/tessera/plugins/libtessera_latency_calibrated.so
want=$(sha256sum "$lib" | cut -d' ' -f1)
if [[ -z $plugin_line || $(awk '{print $6}' <<<"$plugin_line") != "$want" || $plugin_line == *" /"* ]]; then
  echo "FAIL: --bands plugin line '$plugin_line': expected sha256 $want of $lib"; fail=1
fi
exit $fail
