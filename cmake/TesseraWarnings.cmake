# Tessera's warnings: -Wall -Wextra -Wpedantic, as errors (the whole tree builds clean under
# GCC and clang). tessera_set_warnings(<target> [NO_WERROR]): NO_WERROR keeps them warnings
# (out-of-tree plugins, unless they set TESSERA_PLUGIN_WERROR; cmake/TesseraPlugin.cmake).
function(tessera_set_warnings target)
  cmake_parse_arguments(ARG "NO_WERROR" "" "" ${ARGN})
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(NOT ARG_NO_WERROR)
    target_compile_options(${target} PRIVATE -Werror -Wno-error=deprecated-declarations)
  endif()
  # GCC 12 at -O2 reports -Wrestrict inside libstdc++ for `"literal" + std::string`
  # (GCC bug 105329, fixed in GCC 13): a false positive in the standard library, not ours.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()
