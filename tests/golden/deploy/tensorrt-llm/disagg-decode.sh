#!/bin/sh
# the disaggregated best pair's decode pool (1 instance) (Tessera --deploy, tensorrt-llm@1.1)
# scenario: llama3.1-70b-serve-4k1k-h100-disagg (llama3.1-70b-serve-4k1k-h100-disagg.yaml)
# config: cp=1,tp=8,pp=1,dp=1,ep=1,kv_shard_mode=split,ffn_shard_scope=TP,tp_placement=gpu,cp_placement=node,cp_ring_variant=kv, batch 256, token budget 256
# predicted: tokens/s/PE 517.9, TTFT 825.1 ms, TPOT 35.34 ms, 14 PEs (both pools)
# instances: 1
trtllm-serve meta-llama/Llama-3.1-70B-Instruct \
  --tp_size 8 \
  --max_batch_size 256 \
  --max_num_tokens 256 \
  --extra_llm_api_options disagg-decode.yaml
