#!/bin/sh
# the best configuration by tokens_per_s_per_pe (Tessera --deploy, vllm@0.19.0)
# scenario: llama3.1-70b-serve-4k1k-h100-disagg (llama3.1-70b-serve-4k1k-h100-disagg.yaml)
# config: cp=1,tp=8,pp=1,dp=1,ep=1,kv_shard_mode=split,ffn_shard_scope=TP,tp_placement=gpu,cp_placement=node,cp_ring_variant=kv, batch 128, token budget 8192
# predicted: tokens/s/PE 364.7, TTFT 163.5 ms, TPOT 43.76 ms, 8 PEs
# instances: 1
vllm serve meta-llama/Llama-3.1-70B-Instruct \
  --dtype bfloat16 \
  --tensor-parallel-size 8 \
  --max-num-seqs 128 \
  --max-num-batched-tokens 8192
