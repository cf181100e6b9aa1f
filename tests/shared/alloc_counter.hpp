#pragma once
// The heap-allocation counter the tests and the benchmarks share: alloc_counter.cpp replaces the
// global operator new in the programs that link it (the framework library and the plugins
// included: the executable's definitions interpose theirs).
#include <cstdint>

namespace tessera::test {
// operator new calls of the whole process so far (every thread). Only the programs that link
// alloc_counter.cpp may call it.
std::uint64_t allocation_count();
}  // namespace tessera::test
