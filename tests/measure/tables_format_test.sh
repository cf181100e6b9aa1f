#!/bin/sh
# measure:tables_format — TESSERA REPO DIR. Writes synthetic tables with
# scripts/measure/measure_tables.py --synthetic, runs `tessera explain` with latency/measured
# reading them (`tables: DIR`), and checks that the GEMM, decode attention and copy tables parse
# and are the source of the stages they cover.
set -eu
tessera=$1 repo=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir/tables"
python3 "$repo/scripts/measure/measure_tables.py" --dry-run > "$dir/dry-run.txt"
grep -q "dgx-h200-gemm-bf16.csv: op gemm, 245 points" "$dir/dry-run.txt"
python3 "$repo/scripts/measure/measure_tables.py" --synthetic --out "$dir/tables" > "$dir/synthetic.txt"
test "$(ls "$dir/tables" | wc -l)" -eq 4
cat > "$dir/scenario.yaml" <<YAML
schema_version: 1
kind: scenario
name: synthetic-tables
model: $repo/models/llama3.1-8b.yaml
machine: $repo/machines/dgx-h200.yaml
workload: {mode: decode, context: 2K, batch: 4}
plugins:
  latency: {name: measured, framework: none, tables: $dir/tables}
  memory: standard
  search: exhaustive
  objectives: [latency]
sweep:
  parallelism:
    tp: [1]
YAML
"$tessera" explain "$dir/scenario.yaml" > "$dir/explain.txt"
# Llama-3.1-8B at tp 1, B = 4: every GEMM but the lm_head (N = 128256 > 65536) and the decode
# attention (32 query / 8 KV heads, 2K context) lie inside the synthetic grid.
grep -q "^  attn.qkv  *table dgx-h200-gemm-bf16$" "$dir/explain.txt"
grep -q "^  attn.core  *table dgx-h200-attention-decode-bf16$" "$dir/explain.txt"
grep -q "^  lm_head  *fallback: calibrated (n outside 1024..65536 in dgx-h200-gemm-bf16)$" "$dir/explain.txt"
echo "measure:tables_format: ok"
