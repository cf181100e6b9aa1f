# The scheduler kind's acceptance test (cmake -P script, run by CTest):
#   1. install the main build into a temporary prefix and build docs/examples/scheduler-plugin
#      (scheduler/priority_classes, the guide's worked example) against that prefix only;
#   2. the unchanged host lists it (`tessera plugins --plugin-path`), with its parameter;
#   3. `tessera serve` on the shipped Poisson scenario with the plugin and one class runs as the
#      built-in vLLM rules it reduces to (the same TTFT and TPOT percentiles, nothing preempted);
#   4. with two classes at 3 requests/s (a queue), class 0's mean TTFT (from --requests) is below
#      class 1's, where the built-in first-come-first-served rules keep them equal within noise.
# Inputs: BUILD_DIR SOURCE_DIR EXAMPLE_DIR WORK_DIR TESSERA CXX_COMPILER BUILD_TYPE
cmake_policy(SET CMP0007 NEW)  # list(GET) counts the CSV's empty cells
include(${CMAKE_CURRENT_LIST_DIR}/out_of_tree_common.cmake)
require_inputs(out_of_tree_scheduler_test.cmake BUILD_DIR SOURCE_DIR EXAMPLE_DIR WORK_DIR TESSERA)
build_against_install(${EXAMPLE_DIR} "scheduler/priority_classes")

run("tessera plugins" ${TESSERA} plugins --plugin-path ${build})
if(NOT run_out MATCHES "scheduler/priority_classes" OR NOT run_out MATCHES "aging")
  message(FATAL_ERROR "tessera plugins does not list scheduler/priority_classes and its parameter:\n${run_out}")
endif()

set(scenario ${SOURCE_DIR}/scenarios/llama3.1-70b-serve-4k1k-h100-poisson.yaml)
set(common --threads 1 -q --simulate-top 0 --set serving.requests.count=400 --set report.top=1)

# One serve: its JSON's simulation TTFT and TPOT percentiles, preemptions and scheduler policy.
function(serve out)
  run("tessera serve ${out}" ${TESSERA} serve ${scenario} --plugin-path ${build} ${common} ${ARGN} --json -)
  string(JSON sim GET "${run_out}" simulation)
  string(JSON ttft GET "${sim}" ttft)
  string(JSON tpot GET "${sim}" tpot)
  string(JSON pre GET "${sim}" preemptions)
  string(JSON policy GET "${sim}" scheduler policy)
  set(${out}_ttft "${ttft}" PARENT_SCOPE)
  set(${out}_tpot "${tpot}" PARENT_SCOPE)
  set(${out}_pre "${pre}" PARENT_SCOPE)
  set(${out}_policy "${policy}" PARENT_SCOPE)
endfunction()

serve(builtin)
serve(plugin --set plugins.scheduler=priority_classes)
if(NOT plugin_policy STREQUAL "priority_classes" OR NOT builtin_policy STREQUAL "")
  message(FATAL_ERROR "scheduler policy in the JSON: plugin '${plugin_policy}', built-in '${builtin_policy}'")
endif()
if(NOT builtin_pre EQUAL 0 OR NOT plugin_ttft STREQUAL builtin_ttft OR NOT plugin_tpot STREQUAL builtin_tpot)
  message(FATAL_ERROR "one class: the plugin's TTFT/TPOT differ from the built-in rules' (${builtin_pre} "
                      "preemptions):\n${plugin_ttft}\n${builtin_ttft}\n${plugin_tpot}\n${builtin_tpot}")
endif()

# Two classes at a load that queues: the mean TTFT per class from the per-request CSV.
function(class_ttft out csv)
  file(STRINGS ${csv} lines)
  set(n0 0)
  set(n1 0)
  set(s0 0)
  set(s1 0)
  foreach(line IN LISTS lines)
    if(line MATCHES "^#" OR line MATCHES "^id,")
      continue()
    endif()
    string(REPLACE "," ";" cells "${line}")
    list(GET cells 9 ttft)
    list(GET cells 15 cls)
    list(GET cells 16 measured)
    if(NOT measured STREQUAL "true")
      continue()
    endif()
    string(REGEX REPLACE "^([0-9]+)\\.([0-9][0-9][0-9]).*" "\\1\\2" milli "${ttft}")
    if(NOT milli MATCHES "^[0-9]+$")
      set(milli 0)
    endif()
    math(EXPR s${cls} "${s${cls}} + ${milli}")
    math(EXPR n${cls} "${n${cls}} + 1")
  endforeach()
  if(n0 EQUAL 0 OR n1 EQUAL 0)
    message(FATAL_ERROR "${csv}: no measured request of class 0 or 1 (${n0}, ${n1})")
  endif()
  math(EXPR m0 "${s0} / ${n0}")
  math(EXPR m1 "${s1} / ${n1}")
  set(${out}_0 ${m0} PARENT_SCOPE)
  set(${out}_1 ${m1} PARENT_SCOPE)
endfunction()

set(load --set serving.requests.rate=3 "--set" "serving.requests.priorities={0: 1, 1: 1}")
run("serve, two classes, plugin" ${TESSERA} serve ${scenario} --plugin-path ${build} ${common} ${load}
    --set plugins.scheduler=priority_classes --requests ${WORK_DIR}/classes-plugin.csv)
run("serve, two classes, built-in" ${TESSERA} serve ${scenario} --plugin-path ${build} ${common} ${load}
    --requests ${WORK_DIR}/classes-builtin.csv)
class_ttft(p ${WORK_DIR}/classes-plugin.csv)
class_ttft(b ${WORK_DIR}/classes-builtin.csv)
if(NOT p_0 LESS p_1)
  message(FATAL_ERROR "priority_classes: class 0's mean TTFT ${p_0} ms is not below class 1's ${p_1} ms")
endif()
message(STATUS "priority_classes: mean TTFT class 0 ${p_0} ms, class 1 ${p_1} ms "
               "(built-in first come first served: ${b_0} ms, ${b_1} ms)")
