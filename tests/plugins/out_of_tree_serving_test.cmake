# The serving kind's acceptance test (cmake -P script, run by CTest):
#   1. install the main build into a temporary prefix and build docs/examples/serving-plugin
#      (serving/decode_only, the guide's worked example) against that prefix only;
#   2. the unchanged host lists it (`tessera plugins --plugin-path`), with its parameter;
#   3. tessera_serving_probe runs it through the host's ServingEvaluator on Llama-3.1-70B TP 8
#      (scenarios/llama3.1-70b-decode-4k-h100.yaml, serve 4K/1K): its TPOT is serving/static's
#      decode step at the mean context and its TTFT static's prefill of one prompt in chunks of
#      the budget, bit for bit; its parameter moves TTFT; its own reason reaches the report.
# Inputs: BUILD_DIR SOURCE_DIR EXAMPLE_DIR WORK_DIR TESSERA PROBE CXX_COMPILER BUILD_TYPE
include(${CMAKE_CURRENT_LIST_DIR}/out_of_tree_common.cmake)
require_inputs(out_of_tree_serving_test.cmake BUILD_DIR SOURCE_DIR EXAMPLE_DIR WORK_DIR TESSERA PROBE)
build_against_install(${EXAMPLE_DIR} "serving/decode_only")

run("tessera plugins" ${TESSERA} plugins --plugin-path ${build})
if(NOT run_out MATCHES "serving/decode_only" OR NOT run_out MATCHES "scheduler_delay")
  message(FATAL_ERROR "tessera plugins does not list serving/decode_only and its parameter:\n${run_out}")
endif()

# One probe: the metrics as variables <prefix>_<key>.
function(probe out serving batch budget)
  run("probe ${serving} B ${batch} budget ${budget}" ${PROBE} ${build}
      ${SOURCE_DIR}/scenarios/llama3.1-70b-decode-4k-h100.yaml ${serving} 4096 1024 ${batch} ${budget} 8 ${ARGN})
  string(REPLACE "\n" ";" lines "${run_out}")
  foreach(line IN LISTS lines)
    if(line MATCHES "^([a-z_]+)=(.*)$")
      set(${out}_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}" PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

probe(ex decode_only 64 2048)
probe(one static 1 2048)   # one prompt, chunks of 2048: TTFT
probe(all static 64 0)     # TPOT: the decode step of 64 at 4096 + 1023 / 2 -> 4608 tokens
if(NOT ex_runnable EQUAL 1 OR NOT ex_kv_fits EQUAL 1 OR NOT ex_chunk EQUAL 2048 OR NOT ex_max_batch EQUAL 2048)
  message(FATAL_ERROR "decode_only at B 64: runnable ${ex_runnable}, fits ${ex_kv_fits}, chunk ${ex_chunk}, "
                      "max_batch ${ex_max_batch} (${ex_reason})")
endif()
if(NOT ex_tpot_s STREQUAL all_tpot_s OR NOT ex_ttft_s STREQUAL one_ttft_s)
  message(FATAL_ERROR "decode_only: TPOT ${ex_tpot_s} vs static ${all_tpot_s}, TTFT ${ex_ttft_s} vs static ${one_ttft_s}")
endif()
probe(late decode_only 64 2048 "scheduler_delay=250 ms")
if(NOT late_ttft_s GREATER ex_ttft_s OR NOT late_ttft_s GREATER 0.25 OR NOT late_tpot_s STREQUAL ex_tpot_s)
  message(FATAL_ERROR "scheduler_delay=250 ms: TTFT ${late_ttft_s} (was ${ex_ttft_s}), TPOT ${late_tpot_s}")
endif()
probe(over decode_only 4096 2048)
if(NOT over_runnable EQUAL 0 OR NOT over_reason MATCHES "decode_only: the B decode tokens")
  message(FATAL_ERROR "decode_only at B 4096, budget 2048: runnable ${over_runnable}, reason '${over_reason}'")
endif()
# 4. And through the command users run: `tessera serve` on a shipped serve scenario with the
#    example as its serving model; the JSON names it and its best meets the scenario's SLO.
run("tessera serve with decode_only" ${TESSERA} serve ${SOURCE_DIR}/scenarios/llama3.1-70b-serve-4k1k-h100.yaml
    --plugin-path ${build} --set plugins.serving=decode_only --threads 1 -q --json -)
string(JSON serving_name GET "${run_out}" plugins serving name)
string(JSON best_tpot GET "${run_out}" best tpot_s)
string(JSON slo_tpot GET "${run_out}" slo tpot_s)
if(NOT serving_name STREQUAL "decode_only" OR best_tpot GREATER slo_tpot)
  message(FATAL_ERROR "tessera serve: serving '${serving_name}', best TPOT ${best_tpot} s, SLO ${slo_tpot} s:\n${run_out}")
endif()
message(STATUS "serving/decode_only: TTFT ${ex_ttft_s} s, TPOT ${ex_tpot_s} s (static: ${one_ttft_s} s, ${all_tpot_s} s)")
