#!/bin/sh
# number 3 by tokens_per_s_per_pe (Tessera --deploy, tensorrt-llm@1.1)
# scenario: llama3.1-70b-serve-4k1k-h100-disagg (llama3.1-70b-serve-4k1k-h100-disagg.yaml)
# config: cp=1,tp=8,pp=1,dp=4,ep=1,kv_shard_mode=split,ffn_shard_scope=TP,tp_placement=gpu,cp_placement=node,cp_ring_variant=kv, batch 128, token budget 8192
# predicted: tokens/s/PE 385.0, TTFT 162.9 ms, TPOT 41.44 ms, 32 PEs
# instances: 4
# dp replicas as instances: 4 (TensorRT-LLM starts one instance per data-parallel replica)
trtllm-serve meta-llama/Llama-3.1-70B-Instruct \
  --tp_size 8 \
  --max_batch_size 128 \
  --max_num_tokens 8192 \
  --extra_llm_api_options top-3.yaml
