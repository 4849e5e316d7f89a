# The test list's guards, shown in a scratch copy of the tree:
# 1. a suite listed in UNIT_TESTS without its file fails configuration;
# 2. a module without a suite fails unit.every-module (unit_coverage.cmake).
#   cmake -DSRC=<source dir> -DWORK=<scratch dir> -P guard_check.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/tree/tests)
foreach(part CMakeLists.txt cmake include src rules)
  file(COPY ${SRC}/${part} DESTINATION ${WORK}/tree)
endforeach()
file(COPY ${SRC}/tests/CMakeLists.txt ${SRC}/tests/unit ${SRC}/tests/unit_coverage.cmake DESTINATION ${WORK}/tree/tests)

# 1. A listed suite without its file.
file(READ ${WORK}/tree/tests/CMakeLists.txt text)
string(REPLACE "set(UNIT_TESTS\n" "set(UNIT_TESTS\n  test_no_such_suite\n" listed "${text}")
if(listed STREQUAL text)
  message(FATAL_ERROR "tests/CMakeLists.txt has no set(UNIT_TESTS list to add to")
endif()
file(WRITE ${WORK}/tree/tests/CMakeLists.txt "${listed}")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK}/tree -B ${WORK}/build RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "configuration passed with test_no_such_suite listed but missing")
endif()
if(NOT out MATCHES "tests/unit/test_no_such_suite\\.c is listed in UNIT_TESTS but does not exist")
  message(FATAL_ERROR "configuration failed, but not for the missing suite:\n${out}")
endif()

# 2. A module without a suite (the list as it is).
file(WRITE ${WORK}/tree/src/util/lonely.c "int lonely(void);\nint lonely(void) { return 0; }\n")
file(READ ${SRC}/tests/CMakeLists.txt text)
string(REGEX MATCH "set\\(UNIT_TESTS[^)]*\\)" block "${text}")
string(REGEX REPLACE "set\\(UNIT_TESTS|\\)" "" block "${block}")
string(REGEX REPLACE "[ \n]+" ";" listed "${block}")
execute_process(COMMAND ${CMAKE_COMMAND} -DSRC=${WORK}/tree "-DLISTED=${listed}" -DEXEMPT=main
                        "-DPENDING=${PENDING}" -P ${SRC}/tests/unit_coverage.cmake
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "the coverage check passed with src/util/lonely.c and no suite for it:\n${out}")
endif()
if(NOT out MATCHES "src/util/lonely\\.c: no tests/unit/test_lonely\\.c")
  message(FATAL_ERROR "the coverage check failed, but not for lonely.c:\n${out}")
endif()
file(REMOVE_RECURSE ${WORK})
message(STATUS "a listed suite without its file fails configuration; a module without a suite fails the check")
