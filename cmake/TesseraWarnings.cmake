# Warnings are errors: the whole tree builds clean under GCC and clang.
function(tessera_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror -Wno-error=deprecated-declarations)
  # GCC 12 at -O2 reports -Wrestrict inside libstdc++ for `"literal" + std::string`
  # (GCC bug 105329, fixed in GCC 13): a false positive in the standard library, not ours.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()
