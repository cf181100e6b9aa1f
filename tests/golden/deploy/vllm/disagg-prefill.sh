#!/bin/sh
# the disaggregated best pair's prefill pool (8 instances) (Tessera --deploy, vllm@0.19.0)
# scenario: llama3.1-70b-serve-4k1k-h100-disagg (llama3.1-70b-serve-4k1k-h100-disagg.yaml)
# config: cp=1,tp=2,pp=1,dp=1,ep=1,kv_shard_mode=split,ffn_shard_scope=TP,tp_placement=gpu,cp_placement=node,cp_ring_variant=kv, batch 2, token budget 8192
# predicted: tokens/s/PE 464.2, TTFT 882.7 ms, TPOT 39.91 ms, 40 PEs (both pools)
# instances: 8
vllm serve meta-llama/Llama-3.1-70B-Instruct \
  --dtype bfloat16 \
  --tensor-parallel-size 2 \
  --max-num-seqs 2 \
  --max-num-batched-tokens 8192 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
