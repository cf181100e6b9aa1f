# The acceptance test for machine blocks (cmake -P script, run by CTest):
#   1. install the main build into a temporary prefix and build tests/plugins/out_of_tree_blocks
#      (latency/cache_tier, two machine-block parameters) against that prefix only;
#   2. `compare` runs it beside `calibrated` on a copy of machines/dgx-h100.yaml that carries its
#      block, and on the shipped file (its block's defaults): the block changes cache_tier's
#      latency and not calibrated's;
#   3. `explore` sweeps machine.plugins.cache_tier.cache_capacity jointly with parallelism.
# Inputs: BUILD_DIR SOURCE_DIR PROJECT_DIR WORK_DIR TESSERA CXX_COMPILER BUILD_TYPE
include(${CMAKE_CURRENT_LIST_DIR}/out_of_tree_common.cmake)
require_inputs(out_of_tree_blocks_test.cmake BUILD_DIR SOURCE_DIR PROJECT_DIR WORK_DIR TESSERA)
build_against_install(${PROJECT_DIR} "latency/cache_tier")

# A test copy of dgx-h100.yaml carrying cache_tier's block beside calibrated's `efficiency:`.
file(READ ${SOURCE_DIR}/machines/dgx-h100.yaml machine)
string(APPEND machine "plugins:\n  cache_tier: {cache_capacity: 1 GB, cache_bandwidth: 20 TB/s}\n")
file(WRITE ${WORK_DIR}/dgx-h100-cache.yaml "${machine}")

function(write_scenario file machine extra)
  file(WRITE ${file} "schema_version: 1\nkind: scenario\nname: cache-tier-test\n"
       "model: ${SOURCE_DIR}/models/llama3.1-8b.yaml\nmachine: ${machine}\n"
       "workload: {mode: decode, context: 4K, batch: 1}\n"
       "plugins: {latency: [calibrated, cache_tier], memory: standard, search: exhaustive, "
       "objectives: [latency, cost]}\n"
       "sweep:\n  parallelism: {tp: [1, 2, 4, 8]}\n${extra}")
endfunction()

# The optimum latency of each model in a `compare --json` answer.
function(optima json out_calibrated out_cache)
  string(JSON n LENGTH "${json}" optima)
  math(EXPR last "${n} - 1")
  foreach(i RANGE 0 ${last})
    string(JSON model GET "${json}" optima ${i} latency_model)
    string(JSON lat GET "${json}" optima ${i} latency_s)
    if(model STREQUAL "calibrated")
      set(${out_calibrated} ${lat} PARENT_SCOPE)
    elseif(model STREQUAL "cache_tier")
      set(${out_cache} ${lat} PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

write_scenario(${WORK_DIR}/with-block.yaml ${WORK_DIR}/dgx-h100-cache.yaml "")
write_scenario(${WORK_DIR}/shipped.yaml ${SOURCE_DIR}/machines/dgx-h100.yaml "")
run("tessera validate (block)" ${TESSERA} validate ${WORK_DIR}/with-block.yaml --plugin-path ${build})
run("tessera compare (block)" ${TESSERA} compare ${WORK_DIR}/with-block.yaml -q --json - --plugin-path ${build})
optima("${run_out}" cal_block cache_block)
run("tessera compare (shipped)" ${TESSERA} compare ${WORK_DIR}/shipped.yaml -q --json - --plugin-path ${build})
optima("${run_out}" cal_shipped cache_shipped)
if(NOT DEFINED cal_block OR NOT DEFINED cache_block OR NOT DEFINED cache_shipped)
  message(FATAL_ERROR "compare did not report both models' optima")
endif()
# calibrated reads `efficiency:` on both machines; cache_tier its block (1 GB at 20 TB/s) or its
# defaults (no cache: every byte from HBM), so the block makes it faster.
if(NOT cal_block EQUAL cal_shipped)
  message(FATAL_ERROR "calibrated's latency changed with cache_tier's block: ${cal_block} vs ${cal_shipped}")
endif()
if(NOT cache_block LESS cache_shipped)
  message(FATAL_ERROR "cache_tier's block did not speed it up: ${cache_block} (block) vs ${cache_shipped} (defaults)")
endif()

# explore: the cache capacity jointly with parallelism (tp above), each point its own search.
write_scenario(${WORK_DIR}/explore.yaml ${WORK_DIR}/dgx-h100-cache.yaml
               "  hardware:\n    machine.plugins.cache_tier.cache_capacity: [0 B, 256 MB, 4 GB]\n")
file(READ ${WORK_DIR}/explore.yaml text)
string(REPLACE "latency: [calibrated, cache_tier]" "latency: [cache_tier, calibrated]" text "${text}")
file(WRITE ${WORK_DIR}/explore.yaml "${text}")
run("tessera explore" ${TESSERA} explore ${WORK_DIR}/explore.yaml -q --json - --plugin-path ${build})
set(json "${run_out}")
string(JSON axis GET "${json}" axes 0 path)
string(JSON unit GET "${json}" axes 0 unit)
string(JSON points LENGTH "${json}" points)
if(NOT axis STREQUAL "machine.plugins.cache_tier.cache_capacity" OR NOT unit STREQUAL "B" OR NOT points EQUAL 3)
  message(FATAL_ERROR "explore: axis ${axis} (${unit}), ${points} points:\n${json}")
endif()
string(JSON v2 GET "${json}" axes 0 values 2)
string(JSON l0 GET "${json}" points 0 best latency_s)
string(JSON l2 GET "${json}" points 2 best latency_s)
string(JSON tp0 GET "${json}" points 0 best tp)
if(NOT v2 EQUAL 4000000000 OR NOT l2 LESS l0 OR NOT tp0 EQUAL 8)
  message(FATAL_ERROR "explore: 4 GB -> ${l2} s is not faster than 0 B -> ${l0} s (tp ${tp0})")
endif()
# A unit the schema refuses is an error at the value (exit 2), after the plugin is loaded.
file(READ ${WORK_DIR}/explore.yaml text)
string(REPLACE "[0 B, 256 MB, 4 GB]" "[0 B, 3 us]" text "${text}")
file(WRITE ${WORK_DIR}/bad-unit.yaml "${text}")
execute_process(COMMAND ${TESSERA} explore ${WORK_DIR}/bad-unit.yaml -q --plugin-path ${build}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 2 OR NOT err MATCHES "bad-unit.yaml:[0-9]+:[0-9]+: error: .*cache_capacity.*byte size")
  message(FATAL_ERROR "explore with a time for cache_capacity: exit ${rc}\n${err}")
endif()
# validate: a block named close to an installed plugin is refused with "did you mean"; a block for
# a plugin not installed here is a warning.
execute_process(COMMAND ${TESSERA} validate ${WORK_DIR}/with-block.yaml --plugin-path ${build}
                        --set "machine.plugins.cache_tiir.cache_capacity=1 GB"
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 2 OR NOT err MATCHES "error: machine.plugins.cache_tiir: no plugin named 'cache_tiir' \\(did you mean 'cache_tier'\\?\\)")
  message(FATAL_ERROR "validate with a misspelled block: exit ${rc}\n${err}")
endif()
execute_process(COMMAND ${TESSERA} validate ${WORK_DIR}/with-block.yaml --plugin-path ${build}
                        --set "machine.plugins.wafer_scale.sram=44 GB"
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT err MATCHES "warning: machine.plugins.wafer_scale: no plugin named 'wafer_scale' is installed"
   OR NOT out MATCHES ": ok")
  message(FATAL_ERROR "validate with a block of a plugin not installed: exit ${rc}\n${out}\n${err}")
endif()
message(STATUS "latency/cache_tier: compare ${cache_block} s (block) vs ${cache_shipped} s (defaults); "
               "explore 0 B -> ${l0} s, 4 GB -> ${l2} s")
