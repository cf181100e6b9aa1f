#include "analysis/requests/random_stream.hpp"

#include <cmath>
#include <numbers>

namespace tessera::requests {

double RandomStream::exponential() { return -std::log(uniform()); }

double RandomStream::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  const double r = std::sqrt(-2 * std::log(uniform()));
  const double a = 2 * std::numbers::pi * uniform();
  spare_ = r * std::sin(a);
  has_spare_ = true;
  return r * std::cos(a);
}

double RandomStream::gamma(double shape) {
  if (shape < 1) return gamma(shape + 1) * std::pow(uniform(), 1 / shape);
  const double d = shape - 1.0 / 3.0;
  const double c = 1 / std::sqrt(9 * d);
  for (;;) {
    double x, v;
    do {
      x = normal();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = uniform();
    if (u < 1 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v))) return d * v;
  }
}

}  // namespace tessera::requests
