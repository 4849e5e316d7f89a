# A wrong-way include fails the build: in a scratch copy of the tree, the
# util layer builds as it is; then one util file includes a header of a
# layer above it (classify.h) and must fail to compile, saying so.
#   cmake -DSRC=<source dir> -DWORK=<scratch dir> -P layer_check.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/tree)
foreach(part CMakeLists.txt cmake include src rules tools)
  file(COPY ${SRC}/${part} DESTINATION ${WORK}/tree)
endforeach()

function(build_util what want_ok)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build --target od_util
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(want_ok AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: the util layer should build:\n${out}")
  elseif(NOT want_ok AND rc EQUAL 0)
    message(FATAL_ERROR "${what}: the util layer built, but it includes a layer above it")
  endif()
  set(build_out "${out}" PARENT_SCOPE)
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
file(REMOVE_RECURSE ${WORK})
message(STATUS "a util file that includes classify.h fails to compile")
