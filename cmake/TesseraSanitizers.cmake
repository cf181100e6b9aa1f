# ASan + UBSan (make test-asan). UBSan's vptr check is off: with hidden visibility every
# shared object (libtessera, each plugin, the test executables) holds its own typeinfo for
# inline templates such as std::_Sp_counted_base, so a shared_ptr made in one and released in
# another is reported as a type mismatch although the object is fine.
#
# Optimisation: -O1 (ASan's recommended setting with -fno-omit-frame-pointer), after the build
# type's flags. The build-time work (docs/testing.md "Build time") measured the suite's tests 4.8x
# faster than at -O0 for 39 % more compile CPU. Debug information: line tables only with clang
# (file:line in every report's stack, a fraction of -g's compile and link time).
if(TESSERA_SANITIZE)
  add_compile_options(-O1 -fsanitize=address,undefined -fno-sanitize=vptr -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    add_compile_options(-gline-tables-only)
  endif()
  add_link_options(-fsanitize=address,undefined)
endif()
