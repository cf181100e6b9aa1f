#pragma once
// The maximum-throughput question (`serve --max-throughput`, validate-data's full-load rows;
// docs/accuracy.md "Full-load rows"): the best tokens/s with no SLO, over the batches the engine
// admits.
#include <cstdint>

namespace tessera {

// The batches tried per replica: 1 to 4096 in steps of 2x and 1.5x.
inline constexpr std::int64_t kMaxThroughputBatches[] = {
    1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096};

// The batched-token limit a full-load row's engine profiles at (no row states one): 8192, vLLM
// 0.19's and TensorRT-LLM's default on data-centre GPUs.
inline constexpr std::int64_t kFullLoadProfileTokens = 8192;

}  // namespace tessera
