#!/bin/sh
# the disaggregated best pair's decode pool (1 instance) (Tessera --deploy, sglang@0.5.9)
# scenario: llama3.1-70b-serve-4k1k-h100-disagg (llama3.1-70b-serve-4k1k-h100-disagg.yaml)
# config: cp=1,tp=8,pp=2,dp=1,ep=1,kv_shard_mode=split,ffn_shard_scope=TP,tp_placement=gpu,cp_placement=node,cp_ring_variant=kv, batch 512, token budget 512
# predicted: tokens/s/PE 497.4, TTFT 826.0 ms, TPOT 36.80 ms, 28 PEs (both pools)
# instances: 1
# nodes: one instance spans 2 x node (8 PEs each): start it with SGLang's multi-node launch (docs/frameworks.md "Multi-node"): as written it starts on one node only
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-70B-Instruct \
  --tp-size 8 \
  --pp-size 2 \
  --max-running-requests 512 \
  --chunked-prefill-size 512 \
  --disaggregation-mode decode
