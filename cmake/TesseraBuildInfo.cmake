# Writes the build's provenance source (cmake/build_info.cpp.in -> OUT): the git commit of
# SOURCE_DIR ("unknown" when it is not a git checkout or git is absent), the build type, the
# sanitizers and the compiler. Run in script mode at configure time and again on every build
# (the tessera_build_info_stamp target), so a new commit reaches the binaries with the next
# `make build`; configure_file leaves OUT untouched when nothing changed, so nothing recompiles.
#   cmake -DSOURCE_DIR=... -DOUT=... -DTEMPLATE=... -DBUILD_TYPE=... -DSANITIZERS=...
#         -DCOMPILER=... -P TesseraBuildInfo.cmake
set(TESSERA_BUILD_COMMIT unknown)
find_program(TESSERA_GIT git)
if(TESSERA_GIT)
  # Only SOURCE_DIR's own checkout: a source tree unpacked inside another repository (a tarball
  # under a dotfiles or monorepo checkout) must not record that repository's commit.
  execute_process(COMMAND ${TESSERA_GIT} -C ${SOURCE_DIR} rev-parse --show-toplevel
                  OUTPUT_VARIABLE _top RESULT_VARIABLE _top_rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${TESSERA_GIT} -C ${SOURCE_DIR} rev-parse --verify -q HEAD
                  OUTPUT_VARIABLE _commit RESULT_VARIABLE _rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_top_rc EQUAL 0 AND _rc EQUAL 0 AND _commit MATCHES "^[0-9a-f]+$")
    file(REAL_PATH "${_top}" _top_real)
    file(REAL_PATH "${SOURCE_DIR}" _src_real)
    if(_top_real STREQUAL _src_real)
      set(TESSERA_BUILD_COMMIT ${_commit})
    endif()
  endif()
endif()
set(TESSERA_BUILD_TYPE "${BUILD_TYPE}")
if(TESSERA_BUILD_TYPE STREQUAL "")
  set(TESSERA_BUILD_TYPE none)
endif()
set(TESSERA_BUILD_SANITIZERS "${SANITIZERS}")
set(TESSERA_BUILD_COMPILER "${COMPILER}")
configure_file(${TEMPLATE} ${OUT} @ONLY)
