#!/bin/sh
# the disaggregated best pair's prefill pool (3 instances) (Tessera --deploy, vllm@0.12.0)
# scenario: llama3.1-70b-serve-4k1k-h100-disagg (llama3.1-70b-serve-4k1k-h100-disagg.yaml)
# config: cp=1,tp=2,pp=1,dp=1,ep=1,kv_shard_mode=split,ffn_shard_scope=TP,tp_placement=gpu,cp_placement=node,cp_ring_variant=kv, batch 1, token budget 4096
# predicted: tokens/s/PE 458.6, TTFT 449.0 ms, TPOT 39.91 ms, 14 PEs (both pools)
# instances: 3
vllm serve meta-llama/Llama-3.1-70B-Instruct \
  --tensor-parallel-size 2 \
  --max-num-seqs 1 \
  --max-num-batched-tokens 4096 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
