# The chart libraries' install rule end to end (cmake -P script, run by CTest as
# report:installed_html; docs/report.md "Where tessera finds the scripts"):
#   1. install the build into WORK_DIR/prefix;
#   2. the prefix holds share/tessera/web/<package>/build/<package>.min.js and package.json for
#      vega, vega-lite and vega-embed, and share/tessera/data (the studies' data);
#   3. a marker comment is appended to the installed vega.min.js, so that a page can only hold
#      it when its vega came from the installed copy (the build tree's copy has no marker);
#   4. the installed tessera (TESSERA_WEB_DIR and TESSERA_PLUGIN_PATH empty, run from WORK_DIR)
#      says in --version that its chart libraries and plugins are the prefix's, writes the
#      default scenario's HTML report holding the marker, and its --json records the command;
#   5. TESSERA_WEB_DIR naming an empty folder: exit 1, the error names that folder.
# Prints "SKIP:" (CTest's SKIP_REGULAR_EXPRESSION) when the build has no chart libraries to
# install (scripts/install-deps.sh runs `npm ci`).
# Inputs: BUILD_DIR WORK_DIR WEB_DIR
foreach(v BUILD_DIR WORK_DIR WEB_DIR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "installed_html_test.cmake: -D${v}=... is required")
  endif()
endforeach()
if(NOT EXISTS ${WEB_DIR}/vega/build/vega.min.js)
  message("SKIP: no chart libraries in ${WEB_DIR} to install (scripts/install-deps.sh)")
  return()
endif()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}): ${err}")
endif()
set(web ${prefix}/share/tessera/web)
foreach(f vega/build/vega.min.js vega-lite/build/vega-lite.min.js vega-embed/build/vega-embed.min.js
          vega/package.json vega-lite/package.json vega-embed/package.json ../data/frameworks.yaml
          ../data/aliases.yaml)
  if(NOT EXISTS ${web}/${f})
    message(FATAL_ERROR "the install lacks ${web}/${f}")
  endif()
endforeach()
set(marker "/* tessera install test: the installed copy of vega */")
file(APPEND ${web}/vega/build/vega.min.js "\n${marker}\n")

set(tessera ${prefix}/bin/tessera)
set(clean_env TESSERA_WEB_DIR= TESSERA_PLUGIN_PATH= TESSERA_DATA_DIR=)
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${clean_env} ${tessera} --version
  RESULT_VARIABLE rc OUTPUT_VARIABLE version ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "installed tessera --version: exit ${rc}: ${err}")
endif()
string(FIND "${version}" "\nchart libraries: ${web} (vega " at)
if(at LESS 0)
  message(FATAL_ERROR "installed tessera --version does not name ${web} as its chart libraries:\n${version}")
endif()
string(FIND "${version}" "\nplugin path: ${prefix}/lib/tessera/plugins" at)
if(at LESS 0)
  message(FATAL_ERROR "installed tessera --version does not name the prefix's plugins:\n${version}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -E env ${clean_env} ${tessera} run -q --html r.html --json r.json
  WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "installed tessera run --html: exit ${rc}: ${err}")
endif()
file(READ ${WORK_DIR}/r.html page)
string(FIND "${page}" "${marker}" at)
if(at LESS 0)
  message(FATAL_ERROR "the installed tessera's report did not inline the installed vega (no marker)")
endif()
file(READ ${WORK_DIR}/r.json doc)
string(JSON command GET "${doc}" command)
if(NOT command STREQUAL "tessera run -q --html r.html --json r.json")
  message(FATAL_ERROR "run --json records command '${command}'")
endif()

file(MAKE_DIRECTORY ${WORK_DIR}/empty)
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${clean_env} TESSERA_WEB_DIR=${WORK_DIR}/empty
  ${tessera} run -q --html none.html WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
string(FIND "${err}" "found in none of: ${WORK_DIR}/empty" at)
if(NOT rc EQUAL 1 OR at LESS 0 OR EXISTS ${WORK_DIR}/none.html)
  message(FATAL_ERROR "TESSERA_WEB_DIR at an empty folder: exit ${rc}, not 1 naming it:\n${err}")
endif()
message("ok: the installed tessera inlined ${web}'s vega; --version names it")
