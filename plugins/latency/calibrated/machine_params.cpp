// The schema of latency/calibrated's machine block (the machine file's `efficiency:` block), with
// the documented defaults (docs/accuracy.md). Shared with latency/measured, which falls back on
// calibrated and so reads the same block (calibrated.hpp).
#include "calibrated.hpp"

namespace tessera::plugins {

namespace {

using tessera::Dimension;
using tessera::ParamSpec;
using tessera::ParamType;

// Defaults: a machine without an `efficiency:` block (a family never measured). The fitted
// values per family live in the machine files (machines/dgx-a100-*.yaml, dgx-h100/h200.yaml).
const ParamSpec kMachineParams[] = {
    // The machine family the block's values belong to (the band file's `family` column,
    // data/error-bands.csv): machines that share a family share one fitted block. Empty: no
    // family, the machine is uncalibrated (no band).
    {"family", ParamType::string, Dimension::none, "", tessera::kNoMin, tessera::kNoMax, nullptr, 0,
     "machine family whose fitted values these are (\"A100\", \"H100/H200\"); empty: uncalibrated"},
    {"gemm_efficiency", ParamType::real, Dimension::none, "0.8", 0.01, 1.0, nullptr, 0,
     "fraction of the dense peak a large GEMM reaches (M >> gemm_m_half)"},
    {"gemm_m_half", ParamType::real, Dimension::none, "32", 0.0, 1e6, nullptr, 0,
     "GEMM rows (tokens, M) at which GEMM efficiency is half of gemm_efficiency: eff(M) = "
     "gemm_efficiency*M/(M+gemm_m_half)"},
    {"gemm_8bit_efficiency", ParamType::real, Dimension::none, "0.75", 0.01, 1.0, nullptr, 0,
     "multiplies gemm_efficiency and attention_efficiency for kernels whose format is 8 bits or narrower "
     "(fp8, int8, mxfp8; nvfp4, mxfp4, int4)"},
    {"hbm_efficiency", ParamType::real, Dimension::none, "0.85", 0.01, 1.0, nullptr, 0,
     "achievable fraction of the HBM bandwidth (weight streaming, KV reads)"},
    {"attention_efficiency", ParamType::real, Dimension::none, "0.5", 0.01, 1.0, nullptr, 0,
     "fraction of the peak the attention kernels reach when compute-bound"},
    {"kernel_overhead", ParamType::quantity, Dimension::time, "4 us", 0.0, 1e-3, nullptr, 0,
     "fixed GPU time per kernel (launch latency, ramp-up, tail), times StageWork::kernels"},
};

}  // namespace

std::span<const ParamSpec> calibrated_machine_params() { return kMachineParams; }

}  // namespace tessera::plugins
