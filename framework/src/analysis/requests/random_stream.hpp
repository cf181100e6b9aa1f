#pragma once
// The seeded random numbers of a request stream: SplitMix64 (Steele, Lea & Flood, OOPSLA 2014)
// and the samplers built on it, written out here rather than taken from <random> so that a seed
// gives the same requests on every platform and standard library (std::*_distribution's
// algorithms are unspecified).
#include <cstdint>
#include "tessera/export.hpp"

namespace tessera::requests {

class TESSERA_API RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
  }
  // Uniform on (0, 1): never 0, so that its logarithm is finite.
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }
  // Exponential of mean 1 (inversion).
  double exponential();
  // Standard normal (Box-Muller, both halves used).
  double normal();
  // Gamma of shape k > 0 and scale 1 (Marsaglia & Tsang, ACM TOMS 26(3), 2000; shape < 1 by
  // their boost: G(k) = G(k + 1) · U^(1/k)).
  double gamma(double shape);

 private:
  std::uint64_t state_;
  bool has_spare_ = false;
  double spare_ = 0;
};

}  // namespace tessera::requests
