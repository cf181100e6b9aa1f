# tessera_add_plugin(NAME <kind>_<name> SOURCES <files...> [LIBRARIES <libs...>])
# Builds a loadable Tessera plugin: a MODULE library linked against the framework SDK
# only, with hidden visibility, written to the plugin folder the host searches.
# Works in tree (target `tessera`) and out of tree after find_package(Tessera).
# Variables read (each may be set before the call):
#   TESSERA_PLUGIN_OUTPUT_DIR   folder the library is written to (in tree: the build's
#                               lib/tessera/plugins; out of tree unset: the current binary dir)
#   TESSERA_PLUGIN_INSTALL_DIR  where `cmake --install` puts it, relative to the install prefix
#                               (find_package(Tessera) sets lib/tessera/plugins, the folder an
#                               installed tessera of the same prefix searches); unset: not installed
#   TESSERA_PLUGIN_WERROR       Tessera's warnings (-Wall -Wextra -Wpedantic) as errors: ON in
#                               tree; an option of the installed package, OFF by default
# Read where this file lies (in the source tree, or lib/cmake/Tessera when installed).
set(TESSERA_PLUGIN_EXPORT_MAP ${CMAKE_CURRENT_LIST_DIR}/TesseraPluginExports.map)

function(tessera_add_plugin)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_SOURCES)
    message(FATAL_ERROR "tessera_add_plugin: NAME and SOURCES are required")
  endif()
  set(target tessera_plugin_${ARG_NAME})
  add_library(${target} MODULE ${ARG_SOURCES})
  # Every plugin of this build, for the tests that load them (tessera_add_plugin_test).
  set_property(GLOBAL APPEND PROPERTY TESSERA_IN_TREE_PLUGINS ${target})
  # In tree Tessera::tessera is an alias of the framework target; out of tree the imported
  # target of find_package(Tessera).
  target_link_libraries(${target} PRIVATE Tessera::tessera ${ARG_LIBRARIES})
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${ARG_NAME} PREFIX "libtessera_"
    CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  # Only tessera_plugin_entry is exported: hidden visibility leaves the standard library's
  # template instantiations (std::unordered_map, std::mt19937...) default-visible; the linker
  # version script makes them local too.
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    target_link_options(${target} PRIVATE "LINKER:--version-script=${TESSERA_PLUGIN_EXPORT_MAP}")
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${TESSERA_PLUGIN_EXPORT_MAP})
  endif()
  if(DEFINED TESSERA_PLUGIN_OUTPUT_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${TESSERA_PLUGIN_OUTPUT_DIR})
  endif()
  if(COMMAND tessera_set_warnings)
    if(TESSERA_PLUGIN_WERROR)
      tessera_set_warnings(${target})
    else()
      tessera_set_warnings(${target} NO_WERROR)
    endif()
  endif()
  if(DEFINED TESSERA_PLUGIN_INSTALL_DIR)
    install(TARGETS ${target} LIBRARY DESTINATION ${TESSERA_PLUGIN_INSTALL_DIR})
  endif()
endfunction()
