#!/bin/sh
# the disaggregated best pair's prefill pool (3 instances) (Tessera --deploy, tensorrt-llm@1.1)
# scenario: llama3.1-70b-serve-4k1k-h100-disagg (llama3.1-70b-serve-4k1k-h100-disagg.yaml)
# config: cp=1,tp=1,pp=2,dp=1,ep=1,kv_shard_mode=split,ffn_shard_scope=TP,tp_placement=gpu,cp_placement=node,cp_ring_variant=kv, batch 1, token budget 4096
# predicted: tokens/s/PE 517.9, TTFT 825.1 ms, TPOT 35.34 ms, 14 PEs (both pools)
# instances: 3
trtllm-serve meta-llama/Llama-3.1-70B-Instruct \
  --tp_size 1 \
  --pp_size 2 \
  --max_batch_size 1 \
  --max_num_tokens 4096 \
  --extra_llm_api_options disagg-prefill.yaml
