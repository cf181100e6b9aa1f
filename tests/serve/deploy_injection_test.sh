#!/usr/bin/env bash
# `serve --deploy` with hostile names (docs/limits.md "Outputs": values in launch
# scripts). A model whose name and hf_id hold single quotes, `$(...)`, backquotes, `;` and a
# newline, in a scenario whose name holds a newline followed by a command, deployed for each
# framework of data/frameworks.yaml; then every written script is run by sh with stub
# executables first on PATH (vllm, trtllm-serve, python: each records its arguments, one per
# line, and exits 0). Fails when any injected command ran (it would create a marker file), when
# a stub did not run, or when the model did not reach it as one argument, byte for byte.
# deploy_injection_test.sh TESSERA SOURCE_DIR WORK_DIR
set -euo pipefail
tessera=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work/stubs"
marker="$work/INJECTED"
fail() { echo "FAIL: $*"; exit 1; }

# The hostile text: each piece would run `touch $marker` if the shell ever interpreted it.
bad="x'; touch $marker; echo '\$(touch $marker)\`touch $marker\`"
model_name="Llama $bad"
hf_id="org/model-$bad"
# A YAML double-quoted scalar: backslashes and double quotes escaped, the newline as \n.
yaml_quote() { printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"; }

# rewrite SRC DEST KEY=LINE...: SRC with each line starting `KEY:` replaced by LINE (no sed: the
# hostile text holds every character sed's replacement interprets).
rewrite() {
  local src=$1 dest=$2 line kv done
  shift 2
  while IFS= read -r line; do
    done=
    for kv in "$@"; do
      if [[ $line == "${kv%%=*}:"* ]]; then printf '%s\n' "${kv#*=}"; done=1; fi
    done
    [ -n "$done" ] || printf '%s\n' "$line"
  done <"$src" >"$dest"
}
rewrite "$src/models/llama3.1-70b.yaml" "$work/model.yaml" \
  "name=name: $(yaml_quote "$model_name")" "hf_id=hf_id: $(yaml_quote "$hf_id")"
# The scenario: no `name:`, so its name is its file's, which holds a newline, a command and the
# hostile text (a `name:` with a control character is refused: checked at the end).
# (No '/' in a file name: its commands touch INJECTED in the folder the script runs in.)
scenario="$work/serve
touch INJECTED
# x'; touch INJECTED; echo '\$(touch INJECTED)\`touch INJECTED\`.yaml"
rewrite "$src/scenarios/llama3.1-70b-serve-4k1k-h100-disagg.yaml" "$work/scenario.yaml" \
  "model=model: $work/model.yaml" "machine=machine: $src/machines/dgx-h100.yaml"
grep -v '^name:' "$work/scenario.yaml" >"$scenario"
grep -q 'touch' "$work/model.yaml" || fail "the hostile model was not written"

for stub in vllm trtllm-serve python; do
  cat >"$work/stubs/$stub" <<EOF
#!/bin/sh
for a in "\$@"; do printf '%s\n' "\$a"; done >"$work/ran-$stub-\$\$"
EOF
  chmod +x "$work/stubs/$stub"
done

scripts=0
for fw in vllm sglang tensorrt-llm; do
  out="$work/deploy-$fw"
  "$tessera" serve -q "$scenario" --set "framework=$fw" --deploy "$out" >/dev/null ||
    fail "serve --deploy for $fw exited $?"
  for script in "$out"/*.sh; do
    rm -f "$work"/ran-*
    (cd "$out" && env -i PATH="$work/stubs:/usr/bin:/bin" HOME="$work" sh "$script") ||
      fail "$script exited $?"
    [ ! -e "$marker" ] && [ ! -e "$out/INJECTED" ] || fail "$script ran a command hidden in a name"
    ran=("$work"/ran-*)
    [ -e "${ran[0]}" ] && [ "${#ran[@]}" = 1 ] || fail "$script did not run its framework's command once"
    # The model is the argument after the command's words (vllm serve M, trtllm-serve M,
    # python -m sglang.launch_server --model-path M): exactly one line equals it.
    [ "$(grep -cxF -- "$hf_id" "${ran[0]}")" = 1 ] || fail "$script did not pass the model as one argument"
    scripts=$((scripts + 1))
  done
  # Comments and the README keep the names on their own lines: the newline is written \n.
  grep -q '^# scenario: serve\\ntouch ' "$out/best.sh" || fail "$fw: the scenario comment is not escaped"
  ! grep -q "^touch " "$out"/* || fail "$fw: a name's newline started a line of its own"
done
[ ! -e "$marker" ] || fail "an injected command ran"
# A `name:` holding a newline is bad input: exit 2 before anything is written.
rewrite "$work/scenario.yaml" "$work/newline-name.yaml" "name=name: \"serve\\ntouch $marker\""
status=0
"$tessera" serve -q "$work/newline-name.yaml" --set framework=vllm --deploy "$work/deploy-refused" \
  >/dev/null 2>"$work/refused.txt" || status=$?
[ "$status" = 2 ] || fail "a scenario name with a newline exited $status, expected 2"
grep -q 'name: expected one line of text without control characters, found \\n' "$work/refused.txt" ||
  fail "the refusal does not say why: $(cat "$work/refused.txt")"
[ ! -e "$work/deploy-refused" ] || fail "a refused scenario still wrote --deploy files"
echo "ok: $scripts launch scripts ran with hostile names; nothing injected ran; a newline in name: is refused"
