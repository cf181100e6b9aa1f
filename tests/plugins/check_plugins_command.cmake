# `tessera plugins` against the fixture folders (cmake -P script, run by CTest): the JSON
# lists the good fixtures with their schemas, the table lists the load failures with reasons,
# a library that failed to load makes the command exit 1 (stderr says so), and an unknown
# --kind is bad input (exit 2).
foreach(v TESSERA PLUGIN_DIR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "check_plugins_command.cmake: -D${v}=... is required")
  endif()
endforeach()

set(paths --plugin-path ${PLUGIN_DIR}/good --plugin-path ${PLUGIN_DIR}/bad_abi --plugin-path ${PLUGIN_DIR}/dup)

execute_process(COMMAND ${TESSERA} plugins --json --plugin-path ${PLUGIN_DIR}/good RESULT_VARIABLE rc
  OUTPUT_VARIABLE json ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
  message(FATAL_ERROR "tessera plugins --json of the good fixtures: exit ${rc}, stderr:\n${err}")
endif()

execute_process(COMMAND ${TESSERA} plugins --json ${paths} RESULT_VARIABLE rc OUTPUT_VARIABLE json ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "error: 2 libraries failed to load")
  message(FATAL_ERROR "tessera plugins --json failed (${rc}):\n${json}\n${err}")
endif()
string(JSON count LENGTH "${json}")
math(EXPR last "${count} - 1")
set(fixture_latency -1)
foreach(i RANGE 0 ${last})
  string(JSON id GET "${json}" ${i} id)
  if(id STREQUAL "latency/fixture")
    set(fixture_latency ${i})
  endif()
endforeach()
if(fixture_latency LESS 0)
  message(FATAL_ERROR "latency/fixture missing from:\n${json}")
endif()
# params[0] = alpha: quantity, unit s, default 2e-06, min 0, max null.
string(JSON type GET "${json}" ${fixture_latency} params 0 type)
string(JSON unit GET "${json}" ${fixture_latency} params 0 unit)
string(JSON def GET "${json}" ${fixture_latency} params 0 default)
string(JSON max_type TYPE "${json}" ${fixture_latency} params 0 max)
string(JSON choice GET "${json}" ${fixture_latency} params 2 choices 1 value)
string(JSON meaning GET "${json}" ${fixture_latency} params 2 choices 1 meaning)
string(JSON hbm_default_type TYPE "${json}" ${fixture_latency} machine_params 1 default)
if(NOT type STREQUAL "quantity" OR NOT unit STREQUAL "s" OR NOT def EQUAL 2e-06 OR NOT max_type STREQUAL "NULL"
   OR NOT choice STREQUAL "careful" OR NOT meaning MATCHES "pessimistic" OR NOT hbm_default_type STREQUAL "NULL")
  message(FATAL_ERROR "unexpected schema of latency/fixture: type=${type} unit=${unit} default=${def} "
                      "max=${max_type} choice=${choice} meaning=${meaning} hbm default=${hbm_default_type}")
endif()
if(NOT err MATCHES "built for ABI 999, host has ABI 3" OR NOT err MATCHES "duplicate plugin latency/dup")
  message(FATAL_ERROR "the load failures are not reported on stderr:\n${err}")
endif()

execute_process(COMMAND ${TESSERA} plugins --kind latency ${paths} RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "error: [^\n]*built for ABI 999" OR NOT err MATCHES "error: 2 libraries failed to load")
  message(FATAL_ERROR "tessera plugins failed (${rc}):\n${text}\n${err}")
endif()
foreach(expected "latency/fixture 1.2.3" "alpha" "2 us" "mode = careful" "failed to load" "built for ABI 999"
                 "(required)")
  string(FIND "${text}" "${expected}" at)
  if(at LESS 0)
    message(FATAL_ERROR "'${expected}' missing from the table:\n${text}")
  endif()
endforeach()
string(FIND "${text}" "memory/fixture" at)
if(NOT at LESS 0)
  message(FATAL_ERROR "--kind latency shows a memory plugin:\n${text}")
endif()

execute_process(COMMAND ${TESSERA} plugins --kind latncy RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "unknown kind 'latncy' \\(did you mean 'latency'\\?\\)")
  message(FATAL_ERROR "--kind latncy: exit ${rc}, stderr:\n${err}")
endif()
