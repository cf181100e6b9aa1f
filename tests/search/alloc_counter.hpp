#pragma once
#include <cstdint>

namespace tessera::test {
// operator new calls of the whole process so far (every thread).
std::uint64_t allocation_count();
}  // namespace tessera::test
