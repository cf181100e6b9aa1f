#!/bin/sh
# number 2 by tokens_per_s_per_pe (Tessera --deploy, sglang@0.5.9)
# scenario: llama3.1-70b-serve-4k1k-h100-disagg (llama3.1-70b-serve-4k1k-h100-disagg.yaml)
# config: cp=1,tp=8,pp=1,dp=2,ep=1,kv_shard_mode=split,ffn_shard_scope=TP,tp_placement=gpu,cp_placement=node,cp_ring_variant=kv, batch 128, token budget 8192
# predicted: tokens/s/PE 361.3, TTFT 156.2 ms, TPOT 44.17 ms, 16 PEs
# instances: 1
# nodes: one instance spans 2 x node (8 PEs each): start it with SGLang's multi-node launch (docs/frameworks.md "Multi-node"): as written it starts on one node only
python -m sglang.launch_server --model-path meta-llama/Llama-3.1-70B-Instruct \
  --dtype bfloat16 \
  --tp-size 8 \
  --dp-size 2 \
  --max-running-requests 128 \
  --chunked-prefill-size 8192
