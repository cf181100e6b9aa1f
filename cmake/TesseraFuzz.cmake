# libFuzzer harnesses (make fuzz; docs/fuzzing.md). With TESSERA_FUZZ on, every object of the
# build (libtessera, the plugins, the tests) is compiled with -fsanitize=fuzzer-no-link, so the
# harnesses' coverage feedback reaches the framework code in libtessera.so; each
# tests/fuzz/fuzz_*.cpp becomes bin/fuzz_<name>, linked with libFuzzer's driver. The ASan
# build (make test-asan) turns it on, so CI builds the harnesses without a third full build.
# Needs clang (libFuzzer ships with clang: Debian's libclang-rt-14-dev) and implies the
# sanitizers (TESSERA_SANITIZE): a harness without ASan/UBSan finds little.
if(NOT TESSERA_FUZZ)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "TESSERA_FUZZ needs clang (libFuzzer), not ${CMAKE_CXX_COMPILER_ID}: "
                      "configure with -DCMAKE_CXX_COMPILER=clang++")
endif()
if(NOT TESSERA_SANITIZE)
  message(STATUS "TESSERA_FUZZ: turning on TESSERA_SANITIZE (ASan + UBSan)")
  set(TESSERA_SANITIZE ON)
endif()
add_compile_options(-fsanitize=fuzzer-no-link)
