#!/bin/sh
# Regenerates tests/golden/deploy/<framework>/ (the golden --deploy files that
# tests/serve/test_frameworks.cpp compares byte for byte). Run from the repository root after
# building: scripts/regen-deploy-golden.sh [build-dir]
set -eu
build=${1:-build}
for fw in vllm sglang tensorrt-llm; do
  rm -rf "tests/golden/deploy/$fw"
  mkdir -p tests/golden/deploy
  TESSERA_PLUGIN_PATH= "$build/bin/tessera" serve scenarios/llama3.1-70b-serve-4k1k-h100-disagg.yaml --set "framework=$fw" \
    --deploy "tests/golden/deploy/$fw" -q >/dev/null
done
