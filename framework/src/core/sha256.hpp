#pragma once
// SHA-256 (FIPS 180-4), for the library digests a saved result records (studies/json/provenance.hpp):
// no package that scripts/install-deps.sh installs provides one, so the tree has its own small
// implementation, checked against the FIPS 180-4 example vectors and sha256sum
// (tests/report/test_provenance.cpp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tessera/export.hpp"

namespace tessera {

class TESSERA_API Sha256 {
 public:
  Sha256();
  void update(const void* data, std::size_t size);
  void update(std::string_view s) { update(s.data(), s.size()); }
  std::string hex();  // the digest as 64 lowercase hex digits; ends the computation

 private:
  void block(const unsigned char* p);
  std::uint32_t h_[8];
  unsigned char buf_[64];
  std::size_t used_ = 0;
  std::uint64_t bytes_ = 0;
};

// SHA-256 of `data`, 64 lowercase hex digits.
TESSERA_API std::string sha256_hex(std::string_view data);

// SHA-256 of the file's bytes (nullopt when it cannot be read). Each path is read once per
// process: later calls return the first answer (thread-safe).
TESSERA_API std::optional<std::string> file_sha256_cached(const std::string& path);

}  // namespace tessera
