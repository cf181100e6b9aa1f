# Finds what the Python module needs (docs/python.md): the interpreter with its development
# headers and pybind11's CMake package. The interpreter is Debian's /usr/bin/python3 when it
# exists (the one Debian's python3-numpy and python3-pytest belong to; a pyenv or venv python3
# earlier on PATH is not used unless named with -DPython3_EXECUTABLE=...). Sets
# TESSERA_PYTHON_FOUND and, when found, Python3_EXECUTABLE (the tests run with it).
set(TESSERA_PYTHON_FOUND OFF)
if(TESSERA_PYTHON AND NOT TESSERA_SANITIZE)
  if(NOT Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "the Python interpreter the module is built for")
  endif()
  find_package(Python3 3.9 COMPONENTS Interpreter Development.Module)
  if(Python3_FOUND)
    # pybind11 through FindPython (the interpreter above), not its own older search.
    set(PYBIND11_FINDPYTHON ON)
    find_package(pybind11 2.6 CONFIG QUIET)
  endif()
  if(Python3_FOUND AND pybind11_FOUND)
    set(TESSERA_PYTHON_FOUND ON)
    message(STATUS "Python module: on (${Python3_EXECUTABLE} ${Python3_VERSION}, pybind11 ${pybind11_VERSION})")
  else()
    message(STATUS "Python module: off (needs python3-dev and pybind11-dev: scripts/install-deps.sh)")
  endif()
elseif(TESSERA_PYTHON)
  message(STATUS "Python module: off in a sanitizer build (docs/python.md)")
endif()
