# A wrong-way include fails the build: in a scratch copy of the tree, the
# util layer builds as it is; then one util file includes a header of a
# layer above it (classify.h) and must fail to compile, saying so.  The
# same for the job parent (src/runner sees the public API, session and util:
# a scan header fails), the session (a renderer's header fails) and the
# command line (src/cli's own files: an engine header fails).
#   cmake -DSRC=<source dir> -DWORK=<scratch dir> -P layer_check.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/tree)
foreach(part CMakeLists.txt cmake include src rules tools)
  file(COPY ${SRC}/${part} DESTINATION ${WORK}/tree)
endforeach()

function(build_layer layer what want_ok)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build --target od_${layer}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(want_ok AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: the ${layer} layer should build:\n${out}")
  elseif(NOT want_ok AND rc EQUAL 0)
    message(FATAL_ERROR "${what}: the ${layer} layer built, but it includes a layer it may not see")
  endif()
  set(build_out "${out}" PARENT_SCOPE)
endfunction()
function(build_util what want_ok)
  build_layer(util "${what}" ${want_ok})
  set(build_out "${build_out}" PARENT_SCOPE)
endfunction()

# LAYER's FILE includes HEADER, which it may not see: the build must fail on it.
function(wrong_way layer file header)
  build_layer(${layer} "${layer} as it is" TRUE)
  file(READ ${WORK}/tree/${file} text)
  file(WRITE ${WORK}/tree/${file} "#include \"${header}\" /* wrong way */\n${text}")
  build_layer(${layer} "${file} with ${header}" FALSE)
  if(NOT build_out MATCHES "${header}")
    message(FATAL_ERROR "the build failed, but not on the wrong-way include:\n${build_out}")
  endif()
  file(WRITE ${WORK}/tree/${file} "${text}")
  message(STATUS "a ${layer} file that includes ${header} fails to compile")
endfunction()

execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK}/tree -B ${WORK}/build -DOOMDIAG_TESTS=OFF
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the scratch copy failed:\n${out}")
endif()
build_util("as it is" TRUE)

file(READ ${WORK}/tree/src/util/size.c text)
file(WRITE ${WORK}/tree/src/util/size.c "#include \"classify.h\" /* wrong way: util -> classify */\n${text}")
build_util("with the wrong-way include" FALSE)
if(NOT build_out MATCHES "classify\\.h")
  message(FATAL_ERROR "the build failed, but not on the wrong-way include:\n${build_out}")
endif()
message(STATUS "a util file that includes classify.h fails to compile")
wrong_way(runner src/runner/relay.c job.h)
wrong_way(runner src/runner/live.c render.h)
wrong_way(session src/session/session.c classify.h)
wrong_way(cli src/cli/follow.c job.h)
wrong_way(cli src/cli/cli.c render.h)
file(REMOVE_RECURSE ${WORK})
