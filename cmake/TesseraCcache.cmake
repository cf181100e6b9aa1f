# The compiler cache (docs/testing.md "Compiler cache"): every compilation of the build goes
# through ccache when it is installed (scripts/install-deps.sh installs it), so a second clone of
# the same commit — CI's, a colleague's, a worktree — compiles almost nothing.
#   - the cache is ccache's own folder, outside the clone ($CCACHE_DIR, else ~/.cache/ccache);
#   - base_dir is the source tree, so the absolute paths on command lines become relative and
#     objects built in one clone hit in another (the build's absolute paths are kept off the
#     command lines: cmake/tessera_build_paths.*.in);
#   - sloppiness as precompiled headers need (pch_defines, time_macros) and new headers
#     (include_file_mtime, include_file_ctime); hash_dir off, so debug objects (-g) hit across
#     clones too (their DW_AT_comp_dir may then name the clone that filled the cache);
#   - a namespace per kind of build (compiler, build type, sanitizers): Release and sanitizer
#     objects are kept apart, and `ccache --evict-namespace NAME` drops one kind;
#   - this build's hits and misses are logged to <build>/ccache-stats.log
#     (`CCACHE_STATSLOG=<build>/ccache-stats.log ccache --show-log-stats`; .ci/run prints them).
# Off: -DTESSERA_CCACHE=OFF at configure, or CCACHE_DISABLE=1 in the environment of one build.
# A launcher given with -DCMAKE_CXX_COMPILER_LAUNCHER=... is used as it is.
option(TESSERA_CCACHE "Compile through ccache when it is installed (docs/testing.md)" ON)
if(TESSERA_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(TESSERA_CCACHE_PROGRAM ccache)
  if(TESSERA_CCACHE_PROGRAM)
    set(_kind "${CMAKE_CXX_COMPILER_ID}-${CMAKE_BUILD_TYPE}")
    if(TESSERA_SANITIZE OR TESSERA_FUZZ)
      string(APPEND _kind "-sanitize")
    endif()
    string(TOLOWER "tessera-${_kind}" TESSERA_CCACHE_NAMESPACE)
    configure_file(${CMAKE_CURRENT_LIST_DIR}/ccache-launcher.sh.in ${CMAKE_BINARY_DIR}/ccache-launcher.sh @ONLY
                   FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_BINARY_DIR}/ccache-launcher.sh)
    message(STATUS "Compiler cache: ${TESSERA_CCACHE_PROGRAM} (namespace ${TESSERA_CCACHE_NAMESPACE}; -DTESSERA_CCACHE=OFF turns it off)")
  else()
    message(STATUS "Compiler cache: off (ccache not found: scripts/install-deps.sh installs it)")
  endif()
endif()
