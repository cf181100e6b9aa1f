#pragma once
// The inverse of the standard normal CDF, shared by the MoE load model's expected maxima
// (moe_load.cpp) and the router's skew quantiles (moe_balance.cpp).

namespace tessera {

// Acklam's rational approximation (|error| < 1.2e-9), for 0 < p < 1.
double normal_quantile(double p);

}  // namespace tessera
