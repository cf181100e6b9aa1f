# Shared by the out-of-tree plugin tests (cmake -P scripts run by CTest): checking the inputs,
# running a command, and building a plugin project against a fresh install of the main build.

# Fails naming `script` unless every variable in ARGN is defined (-D<var>=...).
function(require_inputs script)
  foreach(v ${ARGN})
    if(NOT DEFINED ${v})
      message(FATAL_ERROR "${script}: -D${v}=... is required")
    endif()
  endforeach()
endfunction()

# Runs ARGN; fails with its output unless it exits 0. Sets run_out and run_err.
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${ARGN}\n--- stdout\n${out}\n--- stderr\n${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
  set(run_err "${err}" PARENT_SCOPE)
endfunction()

# Installs BUILD_DIR into WORK_DIR/prefix (WORK_DIR emptied first) and configures and builds
# the project in `project_dir` against that prefix only, into WORK_DIR/build (CXX_COMPILER and
# BUILD_TYPE when set). Sets prefix and build.
macro(build_against_install project_dir label)
  set(prefix ${WORK_DIR}/prefix)
  set(build ${WORK_DIR}/build)
  file(REMOVE_RECURSE ${WORK_DIR})
  file(MAKE_DIRECTORY ${WORK_DIR})
  run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
  set(configure_args -S ${project_dir} -B ${build} -DCMAKE_PREFIX_PATH=${prefix}
      -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
  if(CXX_COMPILER)
    list(APPEND configure_args -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
  endif()
  if(BUILD_TYPE)
    list(APPEND configure_args -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
  endif()
  run("configuring ${label}" ${CMAKE_COMMAND} ${configure_args})
  run("building ${label}" ${CMAKE_COMMAND} --build ${build})
endmacro()
