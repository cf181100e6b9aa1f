// libFuzzer harness: the unit parser (tessera/units.hpp). The first byte picks the expected
// dimension; the rest is the quantity text, also read as a token count. A parsed quantity is
// then formatted, as reports do.
#include "fuzz_input.hpp"
#include "tessera/units.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  constexpr int kDimensions = static_cast<int>(tessera::Dimension::money) + 1;
  const auto dim = static_cast<tessera::Dimension>(data[0] % kDimensions);
  const std::string_view text = tessera::fuzz::as_text(data + 1, size - 1);
  tessera::fuzz::expect_input_errors_only([&] {
    const double v = tessera::parse_quantity(text, dim);
    (void)tessera::format_quantity(v, dim);
  });
  tessera::fuzz::expect_input_errors_only([&] { (void)tessera::parse_token_count(text); });
  return 0;
}
