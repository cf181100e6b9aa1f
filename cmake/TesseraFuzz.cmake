# libFuzzer harnesses (make fuzz; docs/fuzzing.md). With TESSERA_FUZZ on, every object of the
# build (libtessera, the plugins, the tests) is compiled with -fsanitize=fuzzer-no-link, so the
# harnesses' coverage feedback reaches the framework code in libtessera.so; each
# tests/fuzz/fuzz_*.cpp becomes bin/fuzz_<name>, linked with libFuzzer's driver. The ASan
# build (make test-asan) turns it on, so CI builds the harnesses without a third full build.
# Needs clang (libFuzzer ships with clang: Debian's libclang-rt-14-dev) and implies the
# sanitizers (TESSERA_SANITIZE): a harness without ASan/UBSan finds little.
#
# yaml-cpp: Debian's libyaml-cpp is not instrumented, so coverage inside it plateaus. With
# -DTESSERA_FUZZ_YAML_CPP_SOURCE=DIR (a yaml-cpp 0.7 source tree already on disk, e.g. from
# `apt-get source yaml-cpp` where deb-src is enabled; nothing is fetched), that tree is built
# here as a static library with the same instrumentation and the framework links it instead.
set(TESSERA_FUZZ_YAML_CPP_SOURCE "" CACHE PATH
    "yaml-cpp source tree to build instrumented for TESSERA_FUZZ (empty: the system's yaml-cpp)")

# Called where the build needs yaml-cpp: defines the target `yaml-cpp`.
macro(tessera_find_yaml_cpp)
  if(TESSERA_FUZZ AND TESSERA_FUZZ_YAML_CPP_SOURCE)
    if(NOT EXISTS ${TESSERA_FUZZ_YAML_CPP_SOURCE}/include/yaml-cpp/yaml.h)
      message(FATAL_ERROR "TESSERA_FUZZ_YAML_CPP_SOURCE=${TESSERA_FUZZ_YAML_CPP_SOURCE} holds no yaml-cpp source tree")
    endif()
    message(STATUS "TESSERA_FUZZ: building yaml-cpp instrumented from ${TESSERA_FUZZ_YAML_CPP_SOURCE}")
    set(YAML_CPP_BUILD_TESTS OFF CACHE BOOL "" FORCE)
    set(YAML_CPP_BUILD_TOOLS OFF CACHE BOOL "" FORCE)
    set(YAML_CPP_BUILD_CONTRIB OFF CACHE BOOL "" FORCE)
    set(YAML_CPP_INSTALL OFF CACHE BOOL "" FORCE)
    set(YAML_BUILD_SHARED_LIBS OFF CACHE BOOL "" FORCE)
    add_subdirectory(${TESSERA_FUZZ_YAML_CPP_SOURCE} ${CMAKE_BINARY_DIR}/yaml-cpp-instrumented EXCLUDE_FROM_ALL)
  else()
    find_package(yaml-cpp REQUIRED)
  endif()
endmacro()

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
