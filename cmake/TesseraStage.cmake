# Stages the data a tessera program reads under the build tree (CMakeLists.txt, target
# tessera_stage_data): SOURCE/{models,machines,scenarios,data} to DEST/, and from WEB (the
# node_modules folder, TESSERA_WEB_DIR) vega, vega-lite and vega-embed's bundle, package.json
# and LICENSE to DEST/web/<package>/, the layout `cmake --install` writes. file(COPY) skips a file
# whose copy has its time stamp; a staged file whose source is gone is removed.
#   cmake -DSOURCE=... -DDEST=... -DWEB=... -P TesseraStage.cmake
foreach(dir models machines scenarios data)
  file(COPY ${SOURCE}/${dir} DESTINATION ${DEST})
  file(GLOB_RECURSE staged RELATIVE ${DEST}/${dir} ${DEST}/${dir}/*)
  foreach(f IN LISTS staged)
    if(NOT EXISTS ${SOURCE}/${dir}/${f})
      file(REMOVE ${DEST}/${dir}/${f})
    endif()
  endforeach()
endforeach()
# Without `npm ci` there is nothing to stage: --html then names where it looked.
foreach(pkg vega vega-lite vega-embed)
  if(EXISTS ${WEB}/${pkg}/build/${pkg}.min.js)
    file(COPY ${WEB}/${pkg}/build/${pkg}.min.js DESTINATION ${DEST}/web/${pkg}/build)
  endif()
  foreach(f package.json LICENSE)
    if(EXISTS ${WEB}/${pkg}/${f})
      file(COPY ${WEB}/${pkg}/${f} DESTINATION ${DEST}/web/${pkg})
    endif()
  endforeach()
endforeach()
