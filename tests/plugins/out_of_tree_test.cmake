# The out-of-tree plugin story end to end (cmake -P script, run by CTest):
#   1. install the main build into a temporary prefix;
#   2. configure and build docs/examples/plugins (the guide's worked example of each kind) against
#      that prefix only (find_package(Tessera) through CMAKE_PREFIX_PATH);
#   3. run the unchanged host of the build tree with --plugin-path at the examples' build
#      folder and check that latency/example is loaded with its schema, that the memory, search
#      and objective examples load, and that `tessera run` and `explain` of example.yaml use all
#      four (the memory example's weights halve with TP 2, the objective is goodput per PE);
#   4. the installed tessera lists the installed plugins only (never the build tree's); when
#      TESSERA_PLUGIN_PATH names the build tree's plugin folder, those libraries have the ids of
#      shipped plugins and are refused (exit 1), except one that --plugin-override names;
#   5. the example gets Tessera's warnings without -Werror, and with it when configured with
#      -DTESSERA_PLUGIN_WERROR=ON (read from compile_commands.json).
# Inputs: BUILD_DIR EXAMPLE_DIR WORK_DIR TESSERA CXX_COMPILER BUILD_TYPE SANITIZE NM
include(${CMAKE_CURRENT_LIST_DIR}/out_of_tree_common.cmake)
require_inputs(out_of_tree_test.cmake BUILD_DIR EXAMPLE_DIR WORK_DIR TESSERA)

set(prefix ${WORK_DIR}/prefix)
set(example_build ${WORK_DIR}/example-build)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
if(NOT EXISTS ${prefix}/include/tessera/sdk.hpp)
  message(FATAL_ERROR "the install lacks include/tessera/sdk.hpp")
endif()
file(GLOB_RECURSE config_files ${prefix}/*/TesseraConfig.cmake)
if(NOT config_files)
  message(FATAL_ERROR "the install lacks TesseraConfig.cmake")
endif()

# The installed tessera: its own plugins, from the prefix, and no build tree's.
set(installed ${prefix}/bin/tessera)
# installed_plugin_paths(<out> <expected exit status> ENV...): the paths of the loaded plugins.
function(installed_plugin_paths out expected_rc)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ARGN} ${installed} plugins --json ${plugins_args}
    RESULT_VARIABLE rc OUTPUT_VARIABLE json ERROR_VARIABLE err)
  if(NOT rc EQUAL expected_rc)
    message(FATAL_ERROR "installed tessera plugins --json (${ARGN}): exit ${rc}, not ${expected_rc}:\n${json}\n${err}")
  endif()
  string(JSON n LENGTH "${json}")
  set(paths)
  math(EXPR last "${n} - 1")
  foreach(i RANGE 0 ${last})
    string(JSON p GET "${json}" ${i} path)
    list(APPEND paths ${p})
  endforeach()
  set(${out} ${paths} PARENT_SCOPE)
endfunction()
installed_plugin_paths(paths 0 TESSERA_PLUGIN_PATH=)
list(LENGTH paths n_installed)
if(n_installed LESS 10)
  message(FATAL_ERROR "the installed tessera lists ${n_installed} plugins: ${paths}")
endif()
foreach(p IN LISTS paths)
  string(FIND "${p}" "${prefix}/" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "the installed tessera loaded ${p}, outside its prefix ${prefix}")
  endif()
endforeach()
# Named by TESSERA_PLUGIN_PATH, the build tree's libraries have the ids of the installed (shipped)
# plugins: refused, reported as load failures (exit 1), the installed ones used...
set(plugins_args)
installed_plugin_paths(paths 1 TESSERA_PLUGIN_PATH=${BUILD_DIR}/lib/tessera/plugins)
# ... except the one --plugin-override names, which replaces the installed one.
set(plugins_args --plugin-override latency/calibrated)
installed_plugin_paths(overridden 1 TESSERA_PLUGIN_PATH=${BUILD_DIR}/lib/tessera/plugins)
set(plugins_args)
# check_sources(<what> <want> <paths...>): every installed id listed once, from the build tree
# exactly `want` (a path, or "" for none), the others from the prefix.
function(check_sources what want)
  set(from_build)
  set(from_prefix 0)
  foreach(p IN LISTS ARGN)
    string(FIND "${p}" "${BUILD_DIR}/lib/tessera/plugins/" at)
    string(FIND "${p}" "${prefix}/" in_prefix)
    if(at EQUAL 0)
      list(APPEND from_build ${p})
    elseif(in_prefix EQUAL 0)
      math(EXPR from_prefix "${from_prefix} + 1")
    endif()
  endforeach()
  list(LENGTH ARGN n_listed)
  list(LENGTH from_build n_build)
  math(EXPR n_expected_prefix "${n_installed} - ${n_build}")
  if(NOT "${from_build}" STREQUAL "${want}" OR NOT n_listed EQUAL n_installed OR NOT from_prefix EQUAL n_expected_prefix)
    message(FATAL_ERROR "with TESSERA_PLUGIN_PATH at the build tree (${what}) the installed tessera loaded "
                        "${n_listed} plugins, from the build tree: '${from_build}' (expected '${want}'): ${ARGN}")
  endif()
endfunction()
check_sources("no override" "" ${paths})
check_sources("--plugin-override latency/calibrated"
              "${BUILD_DIR}/lib/tessera/plugins/libtessera_latency_calibrated.so" ${overridden})

set(configure_args -S ${EXAMPLE_DIR} -B ${example_build} -DCMAKE_PREFIX_PATH=${prefix}
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
if(CXX_COMPILER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
if(BUILD_TYPE)
  list(APPEND configure_args -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
endif()
# The example must find Tessera in the prefix, not in this build tree's package registry.
list(APPEND configure_args -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
run("configuring the example" ${CMAKE_COMMAND} ${configure_args})
run("building the example" ${CMAKE_COMMAND} --build ${example_build})

# Tessera's warnings reach the example; -Werror only when it asks for it.
file(READ ${example_build}/compile_commands.json commands)
if(NOT commands MATCHES "-Wall" OR NOT commands MATCHES "-Wextra" OR commands MATCHES "-Werror")
  message(FATAL_ERROR "the example should build with -Wall -Wextra and without -Werror:\n${commands}")
endif()
set(werror_build ${WORK_DIR}/example-werror)
string(REPLACE "${example_build}" "${werror_build}" werror_args "${configure_args}")
run("configuring the example with -Werror" ${CMAKE_COMMAND} ${werror_args} -DTESSERA_PLUGIN_WERROR=ON)
file(READ ${werror_build}/compile_commands.json commands)
if(NOT commands MATCHES "-Werror")
  message(FATAL_ERROR "TESSERA_PLUGIN_WERROR=ON did not add -Werror:\n${commands}")
endif()

set(plugin ${example_build}/libtessera_latency_example.so)
if(NOT EXISTS ${plugin})
  message(FATAL_ERROR "the example build did not produce ${plugin}")
endif()

# Built against the installed package, it too exports only its entry.
if(NM)
  run("nm -D the example" ${NM} -D --defined-only ${plugin})
  string(REGEX REPLACE "[^\n]* [A-Za-z] tessera_plugin_entry\n" "" others "${run_out}")
  if(NOT others STREQUAL "")
    message(FATAL_ERROR "the example exports more than tessera_plugin_entry:\n${run_out}")
  endif()
endif()

run("tessera plugins --json" ${TESSERA} plugins --json --plugin-path ${example_build})
set(json "${run_out}")
string(JSON count LENGTH "${json}")
set(found -1)
math(EXPR last "${count} - 1")
foreach(i RANGE 0 ${last})
  string(JSON id GET "${json}" ${i} id)
  if(id STREQUAL "latency/example")
    set(found ${i})
  endif()
endforeach()
if(found LESS 0)
  message(FATAL_ERROR "latency/example is not among the loaded plugins:\n${json}\n--- stderr\n${run_err}")
endif()
string(JSON path GET "${json}" ${found} path)
string(JSON abi GET "${json}" ${found} abi)
string(JSON p0 GET "${json}" ${found} params 0 name)
string(JSON d0 GET "${json}" ${found} params 0 default)
string(JSON unit1 GET "${json}" ${found} params 1 unit)
if(NOT path STREQUAL plugin OR NOT abi EQUAL 3 OR NOT p0 STREQUAL "hbm_efficiency" OR NOT d0 EQUAL 0.8
   OR NOT unit1 STREQUAL "s")
  message(FATAL_ERROR "unexpected description of latency/example: path=${path} abi=${abi} "
                      "params[0]=${p0} default=${d0} params[1].unit=${unit1}")
endif()
if(run_err MATCHES "libtessera_latency_example")
  message(FATAL_ERROR "warnings about the example plugin:\n${run_err}")
endif()
foreach(id memory/example search/example objective/example)
  if(NOT json MATCHES "\"${id}\"")
    message(FATAL_ERROR "${id} is not among the loaded plugins:\n${json}\n--- stderr\n${run_err}")
  endif()
endforeach()

# All four at work: the scenario runs, ranked by the example objective.
run("tessera run example.yaml" ${TESSERA} run ${EXAMPLE_DIR}/example.yaml --plugin-path ${example_build}
  --json ${WORK_DIR}/run.json)
file(READ ${WORK_DIR}/run.json run_json)
if(NOT run_json MATCHES "tok/s/PE")
  message(FATAL_ERROR "tessera run example.yaml did not rank by objective/example (tok/s/PE):\n${run_json}")
endif()
# The memory example: weights / (tp * pp), so TP 2 holds half of TP 1's bytes per PE.
foreach(tp 1 2)
  run("tessera explain tp=${tp}" ${TESSERA} explain ${EXAMPLE_DIR}/example.yaml --plugin-path ${example_build}
    --config tp=${tp} --json ${WORK_DIR}/explain-${tp}.json)
  file(READ ${WORK_DIR}/explain-${tp}.json ex)
  string(JSON w${tp} GET "${ex}" memory weights_bytes)
  string(REGEX REPLACE "\\.0+$" "" w${tp} "${w${tp}}")  # whole bytes, written as doubles
endforeach()
math(EXPR twice "2 * ${w2}")
if(NOT twice EQUAL w1)
  message(FATAL_ERROR "memory/example: weights per PE ${w1} B at tp=1, ${w2} B at tp=2 (expected half)")
endif()
# The example's own parameters are hardware axes: explore sweeps hbm_efficiency jointly with the
# parallelism (a memory-bound decode: the best latency falls as the efficiency rises), and
# sensitivity --hardware perturbs the parameters the scenario sets (hbm_efficiency, alpha).
run("tessera explore example.yaml" ${TESSERA} explore ${EXAMPLE_DIR}/example.yaml --plugin-path ${example_build}
  --set "sweep.hardware.plugins.latency.example.hbm_efficiency=[0.5, 0.9]" --no-sensitivity
  --json ${WORK_DIR}/explore.json)
file(READ ${WORK_DIR}/explore.json explore_json)
string(JSON lat_lo GET "${explore_json}" points 0 best latency_s)
string(JSON lat_hi GET "${explore_json}" points 1 best latency_s)
if(NOT lat_hi LESS lat_lo)
  message(FATAL_ERROR "explore over latency/example's hbm_efficiency: best latency ${lat_lo} s at 0.5, "
                      "${lat_hi} s at 0.9 (expected lower at 0.9)")
endif()
run("tessera sensitivity --hardware example.yaml" ${TESSERA} sensitivity ${EXAMPLE_DIR}/example.yaml --hardware
  --plugin-path ${example_build} --json ${WORK_DIR}/sensitivity.json)
file(READ ${WORK_DIR}/sensitivity.json sens)
string(JSON n_knobs LENGTH "${sens}" hardware)
set(eff_elasticity "")
math(EXPR last "${n_knobs} - 1")
foreach(i RANGE 0 ${last})
  string(JSON knob GET "${sens}" hardware ${i} knob)
  if(knob STREQUAL "plugins.latency.example.hbm_efficiency")
    string(JSON eff_elasticity GET "${sens}" hardware ${i} elasticity_fixed)
  endif()
endforeach()
# Memory-bound stages take hbm_bytes / (hbm_bw * hbm_efficiency): the elasticity is negative.
if(eff_elasticity STREQUAL "" OR NOT eff_elasticity LESS 0)
  message(FATAL_ERROR "sensitivity --hardware: no negative elasticity for "
                      "plugins.latency.example.hbm_efficiency (${eff_elasticity}):\n${sens}")
endif()
message(STATUS "explore over hbm_efficiency: ${lat_lo} s at 0.5, ${lat_hi} s at 0.9; elasticity ${eff_elasticity}")
message(STATUS "latency/example built out of tree against ${prefix} and loaded from ${path}; the memory, "
               "search and objective examples ran with it (weights ${w1} B per PE at tp=1)")
