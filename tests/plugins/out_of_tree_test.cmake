# The out-of-tree plugin story end to end (cmake -P script, run by CTest):
#   1. install the main build into a temporary prefix;
#   2. configure and build docs/examples/out-of-tree-plugin against that prefix only
#      (find_package(Tessera) through CMAKE_PREFIX_PATH);
#   3. run the unchanged host of the build tree with --plugin-path at the example's build
#      folder and check that latency/example is loaded with its schema.
# Inputs: BUILD_DIR EXAMPLE_DIR WORK_DIR TESSERA CXX_COMPILER BUILD_TYPE SANITIZE
foreach(v BUILD_DIR EXAMPLE_DIR WORK_DIR TESSERA)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "out_of_tree_test.cmake: -D${v}=... is required")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${ARGN}\n--- stdout\n${out}\n--- stderr\n${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
  set(run_err "${err}" PARENT_SCOPE)
endfunction()

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

set(configure_args -S ${EXAMPLE_DIR} -B ${example_build} -DCMAKE_PREFIX_PATH=${prefix})
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

set(plugin ${example_build}/libtessera_latency_example.so)
if(NOT EXISTS ${plugin})
  message(FATAL_ERROR "the example build did not produce ${plugin}")
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
if(NOT path STREQUAL plugin OR NOT abi EQUAL 2 OR NOT p0 STREQUAL "hbm_efficiency" OR NOT d0 EQUAL 0.8
   OR NOT unit1 STREQUAL "s")
  message(FATAL_ERROR "unexpected description of latency/example: path=${path} abi=${abi} "
                      "params[0]=${p0} default=${d0} params[1].unit=${unit1}")
endif()
if(run_err MATCHES "libtessera_latency_example")
  message(FATAL_ERROR "warnings about the example plugin:\n${run_err}")
endif()
message(STATUS "latency/example built out of tree against ${prefix} and loaded from ${path}")
