// Most-loaded expert-parallel rank (SPEC §3.2): docs/physics.md "MoE load".
//  - distinct experts: each of the n_e = E/ep experts of a rank is touched by at least one
//    of T tokens with p = 1 - (1 - K/E)^T; treating the ranks as independent, the expected
//    maximum of ep Binomial(n_e, p) counts is computed exactly: sum_x (1 - F(x)^ep).
//  - token slots: a rank receives on average T*K/ep slots with variance
//    T * K/ep * (1 - 1/ep) * (E - K)/(E - 1) (K distinct picks per token: hypergeometric).
//    Rank loads sum to T*K, so their deviations behave like (Z_i - mean Z); the expected
//    maximum is mean + sigma * z(ep) / sqrt(1 - 1/ep), z(n) = E[max of n standard normals].
//    Clipped to [mean, T * min(K, n_e)].
#include "tessera/physics/moe_load.hpp"

#include <algorithm>
#include <cmath>

namespace tessera {

double expected_max_std_normal(std::int64_t n) {
  if (n <= 1) return 0.0;
  if (n == 2) return 1.0 / std::sqrt(M_PI);
  if (n == 3) return 1.5 / std::sqrt(M_PI);
  // Blom's approximation of the expected largest order statistic.
  const double p = (static_cast<double>(n) - 0.375) / (static_cast<double>(n) + 0.25);
  // Inverse normal CDF (Acklam's rational approximation, |error| < 1.2e-9).
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                             1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  if (p > 1 - 0.02425) {
    const double q = std::sqrt(-2 * std::log(1 - p));
    return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

namespace {

// E[max of m i.i.d. Binomial(n, p)] = sum_{x=0}^{n-1} (1 - F(x)^m).
double expected_max_binomial(std::int64_t n, double p, std::int64_t m) {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return static_cast<double>(n);
  if (m <= 1) return static_cast<double>(n) * p;
  const double q = 1 - p;
  double pmf = std::pow(q, static_cast<double>(n));  // P(X = 0)
  double cdf = 0, sum = 0;
  for (std::int64_t x = 0; x < n; ++x) {
    cdf += pmf;
    sum += 1 - std::pow(std::min(1.0, cdf), static_cast<double>(m));
    pmf *= static_cast<double>(n - x) / static_cast<double>(x + 1) * p / q;
  }
  return sum;
}

}  // namespace

MoELoad moe_most_loaded_rank(double tokens, std::int64_t experts, std::int64_t k, std::int64_t ep,
                             bool balanced) {
  MoELoad out;
  if (tokens <= 0 || experts <= 0 || k <= 0 || ep <= 0) return out;
  const double E = static_cast<double>(experts), K = static_cast<double>(k);
  const std::int64_t per_rank = experts / ep;
  const double p_touch = 1 - std::pow(1 - K / E, tokens);
  const double mean_slots = tokens * K / static_cast<double>(ep);
  if (balanced || ep == 1) {
    out.distinct_experts = static_cast<double>(per_rank) * p_touch;
    out.token_slots = mean_slots;
    return out;
  }
  out.distinct_experts = expected_max_binomial(per_rank, p_touch, ep);
  const double epd = static_cast<double>(ep);
  const double var = tokens * K / epd * (1 - 1 / epd) * (E > 1 ? (E - K) / (E - 1) : 0);
  const double max_slots = mean_slots + std::sqrt(var) * expected_max_std_normal(ep) / std::sqrt(1 - 1 / epd);
  out.token_slots = std::clamp(max_slots, mean_slots, tokens * std::min(K, static_cast<double>(per_rank)));
  return out;
}

}  // namespace tessera
