#!/bin/sh
# the disaggregated best pair's decode pool (1 instance) (Tessera --deploy, sglang@0.5.9)
# scenario: llama3.1-70b-serve-4k1k-h100-disagg (llama3.1-70b-serve-4k1k-h100-disagg.yaml)
# config: cp=1,tp=8,pp=1,dp=1,ep=1,kv_shard_mode=split,ffn_shard_scope=TP,tp_placement=gpu,cp_placement=node,cp_ring_variant=kv, batch 256, token budget 256
# predicted: tokens/s/PE 509.8, TTFT 825.7 ms, TPOT 35.90 ms, 14 PEs (both pools)
# instances: 1
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-70B-Instruct \
  --dtype bfloat16 \
  --tp-size 8 \
  --max-running-requests 256 \
  --chunked-prefill-size 256 \
  --disaggregation-mode decode
