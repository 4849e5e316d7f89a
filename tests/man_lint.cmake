# Lints the man page: `mandoc -T lint -W warning PAGE` must print nothing.
#   cmake -DMANDOC=/usr/bin/mandoc -DPAGE=docs/oomdiag.1 -P man_lint.cmake
if(NOT MANDOC)
  message("SKIPPED: mandoc not found (install mandoc to lint docs/oomdiag.1)")
  return()
endif()
execute_process(COMMAND ${MANDOC} -T lint -W warning ${PAGE}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out STREQUAL "" OR NOT err STREQUAL "")
  message(FATAL_ERROR "mandoc -T lint -W warning ${PAGE} (exit ${rc}):\n${out}${err}")
endif()
message("man page lints clean: ${PAGE}")
