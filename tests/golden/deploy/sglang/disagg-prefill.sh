#!/bin/sh
# the disaggregated best pair's prefill pool (3 instances) (Tessera --deploy, sglang@0.5.9)
# scenario: llama3.1-70b-serve-4k1k-h100-disagg (llama3.1-70b-serve-4k1k-h100-disagg.yaml)
# config: cp=1,tp=1,pp=2,dp=1,ep=1,kv_shard_mode=split,ffn_shard_scope=TP,tp_placement=gpu,cp_placement=node,cp_ring_variant=kv, batch 1, token budget 4096
# predicted: tokens/s/PE 509.8, TTFT 825.7 ms, TPOT 35.90 ms, 14 PEs (both pools)
# instances: 3
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-70B-Instruct \
  --dtype bfloat16 \
  --tp-size 1 \
  --pp-size 2 \
  --max-running-requests 1 \
  --chunked-prefill-size 4096 \
  --disaggregation-mode prefill
